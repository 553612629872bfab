import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { isAppError, parseConfig, ReasonCode } from '@toolsurface/core';
import { Buckets, connectNats, ensureStream, EventPublisher, openBucket, openSnapshotStore, STREAM, Subjects } from '@toolsurface/platform';
import { PresentationChanged } from '@toolsurface/proto';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { CONFIG_HASH_KEY, SnapshotStore, WatchedBucket, type CatalogRecord, type SurfaceRecord } from '@toolsurface/state';
import { ResolverPublisher } from './events/resolver.publisher';
import { SurfaceResolverService } from './surface-resolver.service';

// surface-resolver replicas applying and changing the config on a real nats-server: the races a
// Deployment of several replicas runs into (libs/state ConfigView has the record rules).

const logger = pino({ level: 'silent' });
let dir: string;
let nats: NatsHandle;
const conns: NatsConnection[] = [];

const CONFIG = (extra = '') => `capabilities:
  a: { transport: stdio, command: node, args: ["a.js"] }
  b: { transport: stdio, command: node, args: ["b.js"] }
principals:
  - { kind: agent, id: p, mode: direct, capabilities: [a] }
${extra}`;

/** The real bucket mirror, with a hook that runs just before each write reaches NATS (to stage a race). */
class HookedBucket extends WatchedBucket<unknown> {
  beforePut: (() => Promise<void>) | undefined;
  override async put(key: string, value: unknown): Promise<void> {
    const hook = this.beforePut;
    this.beforePut = undefined;
    await hook?.();
    return super.put(key, value);
  }
}

/** A resolver replica on its own connection, over the bucket set `prefix`. */
async function replica(prefix: string): Promise<{ resolver: SurfaceResolverService; config: HookedBucket }> {
  const nc = await connectNats(nats.url, 'resolver-test');
  conns.push(nc);
  await ensureStream(nc);
  const config = new HookedBucket(await openBucket(nc, `${prefix}_${Buckets.config}`), logger);
  const catalog = new WatchedBucket<CatalogRecord>(await openBucket(nc, `${prefix}_${Buckets.catalog}`), logger);
  const surfaces = new WatchedBucket<SurfaceRecord>(await openBucket(nc, `${prefix}_${Buckets.surfaces}`), logger);
  for (const b of [config, catalog, surfaces]) await b.start();
  const resolver = new SurfaceResolverService(
    config,
    catalog,
    surfaces,
    new SnapshotStore(await openSnapshotStore(nc)),
    new ResolverPublisher(new EventPublisher(nc, trace.getTracer('test'))),
    logger,
    { defaultSeconds: 60, maxSeconds: 600 },
  );
  return { resolver, config };
}

const p = { kind: 'agent' as const, id: 'p' };

/** 'done', or 'CONFIG_CONFLICT' when the call is refused as a conflict (any other failure as its text). */
function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'done',
    (e: unknown) => (isAppError(e, ReasonCode.CONFIG_CONFLICT) ? 'CONFIG_CONFLICT' : String(e)),
  );
}

/** Waits (up to 5 s: the replica's KV watch delivers asynchronously) until `r` reads `n` bindings of p. */
async function untilBindings(r: SurfaceResolverService, n: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (r.bindings(p).length !== n && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-resolver-'));
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });
}, 30_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => undefined);
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SurfaceResolverService config on several replicas', () => {
  it('replicas starting with the same new config file: one applies it, the others find it applied, none fails', async () => {
    const replicas = await Promise.all([replica('r1'), replica('r1'), replica('r1')]);
    const cfg = parseConfig(CONFIG(), dir);
    const applied = await Promise.all(replicas.map((r) => r.resolver.applyConfigIfChanged(cfg)));
    expect(applied.filter(Boolean)).toHaveLength(1);
    for (const r of replicas) expect(r.resolver.bindings(p)).toEqual(['a']);
  });

  it('a change made through a replica whose mirror has not seen the latest apply still counts', async () => {
    const [a, b] = await Promise.all([replica('r2'), replica('r2')]);
    await a.resolver.applyConfig(parseConfig(CONFIG(), dir));
    await new Promise((r) => setTimeout(r, 100));
    // b stops following the bucket: its mirror keeps the first document.
    b.config.stop();
    await a.resolver.applyConfig(parseConfig(CONFIG(), dir));
    expect(await b.resolver.setBindings(p, ['a', 'b'], 'test')).toEqual(['a', 'b']);
    // a reads the change: it was made on the latest document, not the one b's mirror held.
    await untilBindings(a.resolver, 2);
    expect(a.resolver.bindings(p)).toEqual(['a', 'b']);
  });

  it('a change that an apply made meaningless while it was written is refused, not reported as done', async () => {
    const [a, b] = await Promise.all([replica('r4'), replica('r4')]);
    await a.resolver.applyConfig(parseConfig(CONFIG(), dir));
    // b reads the document, then, just before its write lands, a applies a config that names p again.
    b.config.beforePut = () => a.resolver.applyConfig(parseConfig(CONFIG(), dir));
    expect(await outcome(b.resolver.setBindings(p, ['a', 'b'], 'test'))).toBe('CONFIG_CONFLICT');
    expect(a.resolver.bindings(p)).toEqual(['a']);
    // Retried, it counts.
    expect(await b.resolver.setBindings(p, ['a', 'b'], 'test')).toEqual(['a', 'b']);
    await untilBindings(a.resolver, 2);
    expect(a.resolver.bindings(p)).toEqual(['a', 'b']);
  });

  it("an operator's switch to supervised, applied while a SetPresentation of the same gateway is written, is not undone", async () => {
    const [a, b] = await Promise.all([replica('r5'), replica('r5')]);
    const g = { kind: 'gateway' as const, id: 'g' };
    const withGateway = (autonomy: string) =>
      CONFIG(`  - { kind: gateway, id: g, mode: unified, autonomy: ${autonomy}, capabilities: [a] }`);
    await a.resolver.applyConfig(parseConfig(withGateway('autonomous'), dir));
    b.config.beforePut = () => a.resolver.applyConfig(parseConfig(withGateway('supervised'), dir));
    expect(await outcome(b.resolver.setPresentation(g, 'discovery', undefined, 'test'))).toBe('CONFIG_CONFLICT');
    await b.config.refresh('presentation.gateway.g');
    for (const r of [a, b]) expect(r.resolver.presentation(g)).toEqual({ mode: 'unified', autonomy: 'supervised' });
  });

  it('upgrading from the per-key layout: an unchanged file keeps API changes; the first new config revokes what the old one named', async () => {
    const { resolver, config } = await replica('r3');
    const cfg = parseConfig(CONFIG(), dir);
    // What the per-key layout left: the config's records, its hash with the principals it named, and an API change.
    await config.put(CONFIG_HASH_KEY, { hash: cfg.hash, appliedAtMs: 1, principals: [p, { kind: 'agent', id: 'gone' }] });
    await config.put('capability.a', cfg.capabilities.a);
    await config.put('bindings.agent.p', { capabilities: ['a', 'b'] });
    await config.put('bindings.agent.gone', { capabilities: ['a'] });
    await config.put('bindings.agent.api', { capabilities: ['a'] });
    expect(await resolver.applyConfigIfChanged(cfg)).toBe(false);
    expect(resolver.bindings(p)).toEqual(['a', 'b']);
    // A new config: p gets its bindings from it, gone (named by the old config, not by this one) loses its own,
    // and api (never named by a config) keeps its own.
    expect(
      await resolver.applyConfigIfChanged(parseConfig(CONFIG('  - { kind: agent, id: other, mode: direct, capabilities: [b] }'), dir)),
    ).toBe(true);
    expect(resolver.bindings(p)).toEqual(['a']);
    expect(resolver.bindings({ kind: 'agent', id: 'gone' })).toEqual([]);
    expect(resolver.bindings({ kind: 'agent', id: 'api' })).toEqual(['a']);
  });
});

describe('presentation.changed after an apply', () => {
  it('names who made the change: the config file, or the ApplyConfig caller', async () => {
    const { resolver } = await replica('actor');
    const last = async (): Promise<PresentationChanged> => {
      const m = await (await jetstreamManager(conns[0]!)).streams.getMessage(STREAM, { last_by_subj: Subjects.presentationChanged });
      return PresentationChanged.decode(m!.data);
    };
    await resolver.applyConfigIfChanged(parseConfig(CONFIG(), dir));
    expect(await resolver.applyConfigIfChanged(parseConfig(CONFIG().replace('mode: direct', 'mode: unified'), dir))).toBe(true);
    expect(await last()).toMatchObject({ principal: { id: 'p' }, actor: 'config-file' });
    await resolver.applyConfig(parseConfig(CONFIG().replace('mode: direct', 'mode: discovery'), dir), undefined, 'ops');
    expect(await last()).toMatchObject({ principal: { id: 'p' }, actor: 'ops' });
  });
});
