import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, ReasonCode, type AdmissionLimit } from '@toolsurface/core';
import { connectNats } from '@toolsurface/platform';
import { startNatsServer, type TestProcess } from '../testing/processes';
import { KvRateLimits, openRateLimitsBucket } from './rate-limits.store';

// Dispatch replicas' rate limits in a real nats-server's key-value bucket: one budget for every
// replica, and the same budget for a replica started afresh (docs/DESIGN.md, "Rate limits").

const alice = { kind: 'agent' as const, id: 'alice' };
const bob = { kind: 'agent' as const, id: 'bob' };
const limit = (calls: number, perSeconds = 60, id = `l${calls}`): AdmissionLimit => ({
  id,
  principals: ['*'],
  capabilities: ['*'],
  tools: ['*'],
  rate: { calls, perSeconds, per: 'principal' },
});

let nats: TestProcess;
const conns: NatsConnection[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  for (let i = 0; i < 3; i++) conns.push(await connectNats(`nats://127.0.0.1:${nats.port}`, `replica-${i}`));
});
afterAll(async () => {
  for (const nc of conns) await nc.drain().catch(() => undefined);
  await nats?.stop();
});

const replicas = async (n: number) => Promise.all(conns.slice(0, n).map(async (nc) => new KvRateLimits(await openRateLimitsBucket(nc, 1))));

describe('KvRateLimits', () => {
  it('three replicas admit a limit of 10 once between them, calls spread round-robin', async () => {
    const rs = await replicas(3);
    const ten = limit(10, 60, 'rr');
    let admitted = 0;
    for (let i = 0; i < 30; i++) if ((await rs[i % 3].take([ten], alice, 'fs', 'read', Date.now())) === undefined) admitted++;
    expect(admitted).toBe(10);
    const refused = await rs[0].take([ten], alice, 'fs', 'read', Date.now());
    expect(refused?.limit.id).toBe('rr');
    // 60 s per 10 calls: the next token is about 6 s away.
    expect(refused!.retryAfterMs).toBeGreaterThan(1000);
    expect(refused!.retryAfterMs).toBeLessThanOrEqual(6000);
    // Another principal has its own budget.
    expect(await rs[1].take([ten], bob, 'fs', 'read', Date.now())).toBeUndefined();
  });

  it('concurrent calls on two replicas stay within one budget', async () => {
    const rs = await replicas(2);
    const fifty = limit(50, 3600, 'burst');
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => rs[i % 2].take([fifty], alice, 'fs', 'read', Date.now())));
    expect(results.filter((r) => r === undefined).length).toBe(50);
  });

  it('a replica started afresh finds the budget spent, as a restart would', async () => {
    const [first] = await replicas(1);
    const three = limit(3, 3600, 'restart');
    for (let i = 0; i < 3; i++) expect(await first.take([three], alice, 'fs', 'read', Date.now())).toBeUndefined();
    const [restarted] = await replicas(1);
    expect((await restarted.take([three], alice, 'fs', 'read', Date.now()))?.limit.id).toBe('restart');
  });

  it('leases large limits in batches and never admits more than the bucket holds', async () => {
    const rs = await replicas(2);
    // 1,000 an hour: leases of 10 tokens, so 2 replicas may leave up to 2 × 9 unspent.
    const thousand = limit(1000, 3600, 'lease');
    let admitted = 0;
    for (let i = 0; i < 1200; i++) if ((await rs[i % 2].take([thousand], alice, 'fs', 'read', Date.now())) === undefined) admitted++;
    expect(admitted).toBeLessThanOrEqual(1000);
    expect(admitted).toBeGreaterThanOrEqual(1000 - 2 * 9);
  });

  it('takes no token when one of the limits refuses', async () => {
    const [r] = await replicas(1);
    const wide = limit(5, 3600, 'wide');
    const tight = limit(1, 3600, 'tight');
    expect(await r.take([wide, tight], alice, 'fs', 'read', Date.now())).toBeUndefined();
    expect((await r.take([wide, tight], alice, 'fs', 'read', Date.now()))?.limit.id).toBe('tight');
    // wide spent one token of five: four remain.
    let left = 0;
    while ((await r.take([wide], alice, 'fs', 'read', Date.now())) === undefined) left++;
    expect(left).toBe(4);
  });

  it('refuses a call as UNAVAILABLE when NATS is unreachable, rather than run it unchecked', async () => {
    const own = await startNatsServer();
    const nc = await connectNats(`nats://127.0.0.1:${own.port}`, 'lonely');
    try {
      const r = new KvRateLimits(await openRateLimitsBucket(nc, 1));
      const one = limit(1, 3600, 'down');
      await own.stop();
      const err = await r.take([one], alice, 'fs', 'read', Date.now()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe(ReasonCode.UNAVAILABLE);
    } finally {
      await nc.close().catch(() => undefined);
      await own.stop();
    }
  }, 60_000);
});
