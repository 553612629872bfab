import { describe, expect, it } from 'vitest';
import { createLogger } from '@toolsurface/platform';
import type { WatchedBucket } from '@toolsurface/state';
import { McpSessions, type McpSessionRecord } from './mcp-sessions.store';

/** The part of WatchedBucket the store uses, in memory. */
function fakeBucket() {
  const values = new Map<string, McpSessionRecord>();
  const puts: McpSessionRecord[] = [];
  const bucket = {
    getFresh: async (k: string) => values.get(k),
    put: async (k: string, v: McpSessionRecord) => {
      puts.push(v);
      values.set(k, v);
    },
    delete: async (k: string) => void values.delete(k),
  };
  return { bucket: bucket as unknown as WatchedBucket<McpSessionRecord>, values, puts };
}

const rec = (touchedAtMs: number): McpSessionRecord => ({
  sessionId: 'mcp_0123456789abcdef0123456789abcdef',
  principal: { kind: 'agent', id: 'a' },
  surfaceId: 'surf_1',
  protocolVersion: '2025-11-25',
  keyId: '',
  createdAtMs: 0,
  touchedAtMs,
});

describe('McpSessions', () => {
  it('writes a session again only once it is older than the touch interval, so idle ones age out', async () => {
    let now = 1_000;
    const { bucket, puts } = fakeBucket();
    const sessions = new McpSessions(bucket, createLogger('test', 'silent'), 60_000, () => now);
    await sessions.put(rec(now));
    expect(puts).toHaveLength(1);
    now += 59_999;
    expect((await sessions.get(rec(0).sessionId))?.surfaceId).toBe('surf_1');
    expect(puts).toHaveLength(1);
    now += 1;
    await sessions.get(rec(0).sessionId);
    await new Promise((r) => setImmediate(r));
    expect(puts).toHaveLength(2);
    expect(puts[1].touchedAtMs).toBe(now);
    await sessions.delete(rec(0).sessionId);
    expect(await sessions.get(rec(0).sessionId)).toBeUndefined();
  });
});
