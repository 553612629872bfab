import { describe, expect, it } from 'vitest';
import { createLogger } from '@toolsurface/platform';
import type { WatchedBucket } from '@toolsurface/state';
import { isStale } from '../domain/mcp';
import { McpSessions, type McpSessionRecord } from './mcp-sessions.store';

/** The part of WatchedBucket the store uses, in memory, with revisions and compare-and-set. */
function fakeBucket() {
  const values = new Map<string, { revision: number; value: McpSessionRecord }>();
  const writes: McpSessionRecord[] = [];
  let seq = 0;
  /** Runs once before the next update: another replica's write that lands first. */
  let interleave: (() => void) | undefined;
  const write = (k: string, v: McpSessionRecord) => {
    writes.push(v);
    values.set(k, { revision: ++seq, value: v });
  };
  const bucket = {
    get: (k: string) => values.get(k)?.value,
    revision: (k: string) => values.get(k)?.revision ?? 0,
    getFresh: async (k: string) => values.get(k)?.value,
    refresh: async (k: string) => values.get(k)?.value,
    entries: () => [...values].map(([k, v]) => [k, v.value]),
    onChange: () => undefined,
    put: async (k: string, v: McpSessionRecord) => write(k, v),
    update: async (k: string, v: McpSessionRecord, expected: number) => {
      const other = interleave;
      interleave = undefined;
      other?.();
      if ((values.get(k)?.revision ?? 0) !== expected) throw new Error('wrong last sequence: 3');
      write(k, v);
    },
    delete: async (k: string) => void values.delete(k),
  };
  return {
    bucket: bucket as unknown as WatchedBucket<McpSessionRecord>,
    values,
    writes,
    interleaveOnce: (fn: () => void) => (interleave = fn),
    write,
  };
}

const ID = 'mcp_0123456789abcdef0123456789abcdef';
const rec = (touchedAtMs: number): McpSessionRecord => ({
  sessionId: ID,
  principal: { kind: 'agent', id: 'a' },
  surfaceId: 'surf_1',
  protocolVersion: '2025-11-25',
  keyId: '',
  createdAtMs: 0,
  touchedAtMs,
});
const logger = createLogger('test', 'silent');

describe('McpSessions', () => {
  it('writes a session again only once it is older than the touch interval, so idle ones age out', async () => {
    let now = 1_000;
    const { bucket, writes } = fakeBucket();
    const sessions = new McpSessions(bucket, logger, 60_000, () => now);
    await sessions.put(rec(now));
    expect(writes).toHaveLength(1);
    now += 59_999;
    expect((await sessions.get(ID))?.surfaceId).toBe('surf_1');
    expect(writes).toHaveLength(1);
    now += 1;
    await sessions.get(ID);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
    expect(writes[1].touchedAtMs).toBe(now);
    await sessions.delete(ID);
    expect(await sessions.get(ID)).toBeUndefined();
  });

  it('clears a recorded stream close on the next request, however fresh the record', async () => {
    const now = 1_000;
    const f = fakeBucket();
    const sessions = new McpSessions(f.bucket, logger, 60_000, () => now);
    await sessions.put({ ...rec(now), streamId: 's1', streamClosedAtMs: now });
    await sessions.get(ID);
    await new Promise((r) => setImmediate(r));
    expect(f.values.get(ID)!.value).toMatchObject({ streamId: 's1', touchedAtMs: now });
    expect(f.values.get(ID)!.value.streamClosedAtMs).toBeUndefined();
  });

  it('never lets a touch undo a change mark written by another replica meanwhile', async () => {
    let now = 1_000;
    const f = fakeBucket();
    const sessions = new McpSessions(f.bucket, logger, 60_000, () => now);
    await sessions.put(rec(now));
    now += 60_000;
    f.interleaveOnce(() => f.write(ID, { ...rec(now), changes: 1 }));
    await sessions.get(ID);
    await new Promise((r) => setImmediate(r));
    expect(isStale(f.values.get(ID)!.value)).toBe(true);
  });

  it('marks a session changed, and a new surface listed clears the mark', async () => {
    const f = fakeBucket();
    const sessions = new McpSessions(f.bucket, logger, 60_000, () => 5);
    await sessions.put(rec(0));
    expect(await sessions.markChanged(ID)).toBe(true);
    const seen = (await sessions.get(ID))!;
    expect(isStale(seen)).toBe(true);
    expect(await sessions.replaceSurface(seen, 'surf_2', false)).toBe(true);
    const after = f.values.get(ID)!.value;
    expect(after.surfaceId).toBe('surf_2');
    expect(isStale(after)).toBe(false);
    expect(after.changes).toBe(1);
    expect(await sessions.markChanged('mcp_ffffffffffffffffffffffffffffffff')).toBe(false);
  });

  it('keeps a session stale when a change lands while its new surface opens', async () => {
    const f = fakeBucket();
    const sessions = new McpSessions(f.bucket, logger, 60_000, () => 5);
    await sessions.put(rec(0));
    await sessions.markChanged(ID);
    const seen = (await sessions.get(ID))!;
    // Another replica marks it again before the list's write: the write is retried on the new record.
    f.interleaveOnce(() => f.write(ID, { ...f.values.get(ID)!.value, changes: 2 }));
    await sessions.replaceSurface(seen, 'surf_2', false);
    const after = f.values.get(ID)!.value;
    expect(after.surfaceId).toBe('surf_2');
    expect(after.changes).toBe(2);
    expect(isStale(after)).toBe(true);
  });

  it('counts a surface reopened after expiry as a change, without making the session stale', async () => {
    const f = fakeBucket();
    const sessions = new McpSessions(f.bucket, logger, 60_000, () => 5);
    await sessions.put(rec(0));
    await sessions.replaceSurface((await sessions.get(ID))!, 'surf_2', true);
    const after = f.values.get(ID)!.value;
    expect(after).toMatchObject({ surfaceId: 'surf_2', changes: 1, listedChanges: 1 });
    expect(isStale(after)).toBe(false);
  });
});
