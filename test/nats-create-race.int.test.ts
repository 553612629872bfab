import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, ensureStream, openBucket, openSnapshotStore } from '@toolsurface/platform';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';

// Replicas of a service starting together on a fresh NATS all create the same buckets, object
// store and stream at once. nats-server 2.9 refuses the loser of such a race ("subjects overlap
// with an existing stream", about one create in 240 with six at once), and a replica that got it
// failed to start. Every one must start.

let dir: string;
let nats: NatsHandle;
let conns: NatsConnection[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-create-race-'));
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });
  conns = await Promise.all(Array.from({ length: 8 }, (_, i) => connectNats(nats.url, `replica-${i}`)));
}, 30_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => undefined);
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('creating the same stream from several replicas at once', () => {
  it('opens every bucket on every replica (8 at once, 300 fresh buckets)', async () => {
    const refused: string[] = [];
    for (let round = 0; round < 300; round++) {
      const results = await Promise.allSettled(conns.map((nc) => openBucket(nc, `race_${round}`)));
      for (const r of results) if (r.status === 'rejected') refused.push(String(r.reason));
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it('opens the snapshot object store and ensures the event stream on every replica', async () => {
    const results = await Promise.allSettled([...conns.map((nc) => openSnapshotStore(nc)), ...conns.map((nc) => ensureStream(nc))]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
  }, 60_000);
});
