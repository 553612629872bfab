import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, createLogger, openBucket } from '@toolsurface/platform';
import { WatchedBucket } from '@toolsurface/state';
import { sessionEnded } from '../domain/mcp-session-end';
import { startNatsServer, type TestProcess } from '../testing/processes';
import { McpSessions, type McpSessionRecord } from './mcp-sessions.store';

// The sessions store against a real nats-server: two stores on one bucket stand for two dispatch
// replicas, each with its own mirror, as in production.
const logger = createLogger('test', 'silent');
let nats: TestProcess;
let nc: NatsConnection;
let seq = 0;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connectNats(`nats://127.0.0.1:${nats.port}`, 'mcp-sessions-test');
}, 30_000);
afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

/** Two replicas' stores on a new bucket (`ttlMs`: its max age). */
async function replicas(ttlMs = 3_600_000): Promise<{ a: McpSessions; b: McpSessions; stop(): void }> {
  const name = `mcp_sessions_test_${++seq}`;
  const buckets = [
    new WatchedBucket<McpSessionRecord>(await openBucket(nc, name, { ttlMs }), logger),
    new WatchedBucket<McpSessionRecord>(await openBucket(nc, name, { ttlMs }), logger),
  ];
  await Promise.all(buckets.map((b) => b.start()));
  return {
    a: new McpSessions(buckets[0], logger, 60_000),
    b: new McpSessions(buckets[1], logger, 60_000),
    stop: () => buckets.forEach((b) => b.stop()),
  };
}

const record = (sessionId: string, touchedAtMs: number): McpSessionRecord => ({
  sessionId,
  principal: { kind: 'agent', id: 'a' },
  surfaceId: 'surf_1',
  protocolVersion: '2025-11-25',
  keyId: '',
  createdAtMs: touchedAtMs,
  touchedAtMs,
});

const idle = (rec: McpSessionRecord) => sessionEnded(rec, Date.now(), { idleMs: 1_000, graceMs: 1_000 }) !== undefined;

async function until(ok: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('McpSessions on NATS', () => {
  it('two replicas ending the same idle session at once: exactly one deletes it', async () => {
    const r = await replicas();
    try {
      const id = 'mcp_00000000000000000000000000000001';
      await r.a.put(record(id, Date.now() - 5_000));
      await until(async () => (await r.b.get(id)) !== undefined, 'the second mirror');
      const ended = await Promise.all([r.a.endIf(id, idle), r.b.endIf(id, idle)]);
      expect(ended.filter(Boolean)).toHaveLength(1);
      await until(() => r.a.all().length === 0 && r.b.all().length === 0, 'both mirrors to drop it');
    } finally {
      r.stop();
    }
  });

  it('a session touched by one replica after the other read it is not ended by the stale read', async () => {
    const r = await replicas();
    try {
      const id = 'mcp_00000000000000000000000000000002';
      await r.a.put(record(id, Date.now() - 5_000));
      await until(async () => (await r.b.get(id))?.touchedAtMs !== undefined, 'the second mirror');
      // Replica a writes the record (a request, or the GET stream it holds); b ends it only if its
      // read still stands: with the touch mirrored it is not idle, without it the delete loses.
      await r.a.touch(id);
      expect(await r.b.endIf(id, idle)).toBeUndefined();
      expect(await r.a.get(id)).toBeDefined();
    } finally {
      r.stop();
    }
  });

  it('records a stream closing only while it is the session’s latest stream', async () => {
    const r = await replicas();
    try {
      const id = 'mcp_00000000000000000000000000000003';
      await r.a.put(record(id, Date.now()));
      await r.a.streamOpened(id, 'old');
      await r.b.streamOpened(id, 'new');
      await until(async () => (await r.a.get(id))?.streamId === 'new', 'a to see the new stream');
      expect(await r.a.streamClosed(id, 'old')).toBe(false);
      expect((await r.a.get(id))?.streamClosedAtMs).toBeUndefined();
      expect(await r.b.streamClosed(id, 'new')).toBe(true);
      await until(async () => (await r.a.get(id))?.streamClosedAtMs !== undefined, 'a to see the close');
      // A new GET on any replica clears it.
      await r.a.streamOpened(id, 'newer');
      expect((await r.a.get(id))?.streamClosedAtMs).toBeUndefined();
    } finally {
      r.stop();
    }
  });

  it('a record the bucket’s max age dropped (no marker on nats-server 2.9) leaves the mirror once read again', async () => {
    const r = await replicas(1_000);
    try {
      const id = 'mcp_00000000000000000000000000000004';
      await r.a.put(record(id, Date.now()));
      await new Promise((res) => setTimeout(res, 2_500));
      // The watch heard nothing: the mirror still has it until a compare-and-set fails and reads it again.
      expect(r.a.all()).toHaveLength(1);
      expect(await r.a.endIf(id, () => true)).toBeUndefined();
      expect(r.a.all()).toHaveLength(0);
    } finally {
      r.stop();
    }
  });
});
