import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { NatsConnection } from '@nats-io/transport-node';
import { RateLimiter, type AdmissionLimit } from '@toolsurface/core';
import { connectNats } from '@toolsurface/platform';
import { startNatsServer, type TestProcess } from '../testing/processes';
import { RATE_USAGE_SUBJECT, RateUsageExchange } from './rate-usage.exchange';

// Two dispatch replicas' rate limiters, each on its own NATS connection, sharing one bound through
// a real nats-server (docs/security.md, "Limits": rate limits hold across replicas).

const logger = pino({ level: 'silent' });
const alice = { kind: 'agent' as const, id: 'alice' };
const limit: AdmissionLimit = {
  id: 'ten-a-minute',
  principals: ['*'],
  capabilities: ['*'],
  tools: ['*'],
  rate: { calls: 10, perSeconds: 60, per: 'principal' },
};

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

/**
 * Calls spread round-robin over the replicas; after each, the replica reports and every other
 * replica has read the report (a NATS flush on each connection: the server delivers in order).
 * Returns how many were admitted.
 */
async function run(limiters: RateLimiter[], exchanges: RateUsageExchange[] | undefined, calls: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < calls; i++) {
    const r = i % limiters.length;
    if (limiters[r].take([limit], alice, 'fs', 'read', Date.now()) === undefined) admitted++;
    if (exchanges) {
      exchanges[r].flush();
      await conns[r].flush();
      await Promise.all(conns.map((c) => c.flush()));
    }
  }
  return admitted;
}

describe('RateUsageExchange', () => {
  it('three replicas that exchange usage admit the limit once between them, not once each', async () => {
    const limiters = [new RateLimiter(), new RateLimiter(), new RateLimiter()];
    // Reports are sent by hand here (flush); the timer is the next test's.
    const exchanges = limiters.map((l, i) => new RateUsageExchange(conns[i], l, logger, { intervalMs: 600_000 }));
    for (const e of exchanges) e.start();
    // Each subscription is in place at the server before the first call.
    await Promise.all(conns.map((c) => c.flush()));
    try {
      expect(await run(limiters, exchanges, 30)).toBe(10);
    } finally {
      for (const e of exchanges) e.stop();
    }
    // The same calls without the exchange: each replica admits its own 10.
    expect(await run([new RateLimiter(), new RateLimiter(), new RateLimiter()], undefined, 30)).toBe(30);
  });

  it('reports on its timer', async () => {
    const [a, b] = [new RateLimiter(), new RateLimiter()];
    const exchanges = [
      new RateUsageExchange(conns[0], a, logger, { intervalMs: 20 }),
      new RateUsageExchange(conns[1], b, logger, { intervalMs: 20 }),
    ];
    // A third connection sees the report go by.
    const reported = new Promise<void>((resolve) => {
      const sub = conns[2].subscribe(RATE_USAGE_SUBJECT, {
        callback: (_e, m) => {
          const msg = JSON.parse(new TextDecoder().decode(m.data)) as { replica: string; usage: Array<{ tokens: number }> };
          if (msg.replica === exchanges[0].replicaId && msg.usage[0]?.tokens === 7) {
            sub.unsubscribe();
            resolve();
          }
        },
      });
    });
    await conns[2].flush();
    for (const e of exchanges) e.start();
    await Promise.all(conns.map((c) => c.flush()));
    try {
      for (let i = 0; i < 7; i++) a.take([limit], alice, 'fs', 'read', Date.now());
      await reported;
      await conns[1].flush();
      let left = 0;
      while (b.take([limit], alice, 'fs', 'read', Date.now()) === undefined) left++;
      expect(left).toBe(3);
    } finally {
      for (const e of exchanges) e.stop();
      // a report its timer published just before stop() is delivered now, not to the next test's
      // fresh subscription (it once arrived there and counted 3 of b's calls against the limit)
      await Promise.all(conns.map((c) => c.flush()));
    }
  });

  it('ignores its own reports and messages that are not usage', async () => {
    const limiter = new RateLimiter();
    const exchange = new RateUsageExchange(conns[0], limiter, logger, { intervalMs: 600_000 });
    exchange.start();
    await conns[0].flush();
    try {
      for (const bad of ['not json', '{"replica":"x","usage":"nope"}', '{"replica":"x","usage":[{"key":1}]}'])
        conns[1].publish(RATE_USAGE_SUBJECT, new TextEncoder().encode(bad));
      await conns[1].flush();
      for (let i = 0; i < 5; i++) limiter.take([limit], alice, 'fs', 'read', Date.now());
      exchange.flush();
      // Its own report comes back to its subscription before this round trip ends.
      await conns[0].flush();
      let left = 0;
      while (limiter.take([limit], alice, 'fs', 'read', Date.now()) === undefined) left++;
      expect(left).toBe(5);
    } finally {
      exchange.stop();
    }
  });
});
