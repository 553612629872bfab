// SnapshotStore over a real nats-server's object store: what a reader of snapshots is told when a
// snapshot is absent and when the store cannot be read (with NATS down, discovery must neither say
// "snapshot … does not exist" nor drop the snapshot.created event).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BoundToolDefinition } from '@toolsurface/core';
import { connectNats, openSnapshotStore } from '@toolsurface/platform';
import { privateNats, type NatsHandle } from '@toolsurface/devkit';
import { SnapshotStore } from './snapshot-store';

const tool = (name: string): BoundToolDefinition => ({
  name,
  description: `${name} does one thing.`,
  inputSchema: { type: 'object' },
  capability: 'test',
  originalName: name,
});

let nats: NatsHandle | undefined;
let nc: NatsConnection | undefined;

beforeAll(async () => {
  nats = await privateNats();
  if (nats === undefined) throw new Error('nats-server is needed for this test (README: npm test also needs nats-server)');
  nc = await connectNats(nats.url, 'snapshot-store-test');
});

afterAll(async () => {
  await nc?.close().catch(() => undefined);
  await nats?.stop();
});

describe('SnapshotStore', () => {
  it('reads a saved snapshot back in another store, and says SNAPSHOT_NOT_FOUND for one never saved', async () => {
    const objects = await openSnapshotStore(nc!);
    const { snapshot } = await new SnapshotStore(objects).save([tool('b'), tool('a')]);
    const read = await new SnapshotStore(objects).get(snapshot.snapshotId);
    expect(read.tools.map((t) => t.name)).toEqual(['a', 'b']);
    await expect(new SnapshotStore(objects).get(`snap_${'0'.repeat(64)}`)).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
  });

  it('keeps parsed snapshots within maxBytes, dropping the least recently used, and always the newest', async () => {
    const objects = await openSnapshotStore(nc!);
    const writer = new SnapshotStore(objects);
    const p = (await writer.save([tool('p')])).snapshot.snapshotId;
    const q = (await writer.save([tool('q')])).snapshot.snapshotId;
    const one = 3 * JSON.stringify([tool('p')]).length;
    const reader = new SnapshotStore(objects, 100, Math.floor(1.5 * one));
    await reader.get(p);
    expect(reader.heldBytes).toBe(one);
    await reader.get(q);
    expect(reader.heldBytes).toBe(one); // p dropped: two do not fit
    const tiny = new SnapshotStore(objects, 100, 1);
    expect((await tiny.get(q)).tools[0].name).toBe('q');
    expect(tiny.heldBytes).toBe(one); // over the bound alone, and kept
  });

  it('keeps the snapshots in use when the store cannot be read, and says UNAVAILABLE for the others', async () => {
    const objects = await openSnapshotStore(nc!);
    const writer = new SnapshotStore(objects);
    const ids = [];
    for (const n of ['x', 'y', 'z']) ids.push((await writer.save([tool(n)])).snapshot.snapshotId);
    const [x, y, z] = ids;
    // two in memory: x read, then y, then x used again, then z: y is the least recently used
    const reader = new SnapshotStore(objects, 2);
    await reader.get(x);
    await reader.get(y);
    await reader.get(x);
    await reader.get(z);
    await nats!.stop();
    // x was in use: still served from memory (an insertion-ordered cache dropped it here)
    expect((await reader.get(x)).tools[0].name).toBe('x');
    const err = await reader.get(y).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(err?.code).toBe('UNAVAILABLE');
    expect(err?.message).toContain(y);
  }, 60_000);
});
