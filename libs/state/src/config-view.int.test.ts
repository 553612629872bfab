import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ToolsurfaceConfig } from '@toolsurface/core';
import { connectNats, openBucket } from '@toolsurface/platform';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { ConfigView, CONFIG_DOCUMENT_KEY, configDocument } from './config-view';
import { WatchedBucket } from './watched-bucket';

// The config bucket as its readers see it (ConfigView), on a real nats-server: a config applied as
// one document reaches a reader whole, API overrides follow the document's rules, and a racing
// apply is refused instead of interleaving.

let dir: string;
let nats: NatsHandle;
let writer: NatsConnection;
let reader: NatsConnection;
const logger = pino({ level: 'silent' });

function cfg(over: Partial<ToolsurfaceConfig>): ToolsurfaceConfig {
  return { capabilities: {}, principals: [], admission: { default: 'allow', rules: [] }, orchestrators: [], hash: 'h', ...over };
}

const stdio = (command: string) =>
  ({ transport: 'stdio', command, args: [], env: {}, timeoutMs: 1000 }) as unknown as ToolsurfaceConfig['capabilities'][string];

/** A fresh bucket with a writer's mirror and a reader's mirror (another connection, as another process). */
async function pair(
  name: string,
): Promise<{ w: WatchedBucket<unknown>; r: WatchedBucket<unknown>; view: ConfigView; writerView: ConfigView }> {
  const w = new WatchedBucket<unknown>(await openBucket(writer, name), logger);
  const r = new WatchedBucket<unknown>(await openBucket(reader, name), logger);
  const view = new ConfigView(r);
  await Promise.all([w.start(), r.start()]);
  return { w, r, view, writerView: new ConfigView(w) };
}

/** Applies `c` through the writer's mirror as surface-resolver does: the next document, compare-and-set. */
async function apply(
  w: WatchedBucket<unknown>,
  c: ToolsurfaceConfig,
  legacyNamed: Array<{ kind: string; id: string }> = [],
): Promise<void> {
  await w.update(
    CONFIG_DOCUMENT_KEY,
    configDocument(c, new ConfigView(w).document(), Date.now(), legacyNamed),
    w.revision(CONFIG_DOCUMENT_KEY),
  );
}

/** Waits until `probe` holds (the reader's KV watch delivers asynchronously). */
async function until(probe: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out waiting for the watch');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-config-view-'));
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });
  writer = await connectNats(nats.url, 'writer');
  reader = await connectNats(nats.url, 'reader');
}, 30_000);

afterAll(async () => {
  await writer?.close();
  await reader?.close();
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ConfigView', () => {
  it('a new config reaches a reader whole: every change it announces is read against the new config throughout', async () => {
    const { w, view } = await pair('cv_whole');
    const old = cfg({
      capabilities: { a: stdio('a'), x: stdio('x') },
      principals: [{ kind: 'agent', id: 'p', mode: 'direct', autonomy: 'autonomous', capabilities: ['a', 'x'] }],
      admission: { default: 'allow', rules: [] },
    });
    await apply(w, old);
    await until(() => view.get('capability.x') !== undefined);
    // The new config removes x and its binding, and denies by default: all in one message.
    const next = cfg({
      capabilities: { a: stdio('a') },
      principals: [{ kind: 'agent', id: 'p', mode: 'discovery', autonomy: 'autonomous', capabilities: ['a'] }],
      admission: { default: 'deny', rules: [] },
    });
    const seen: Array<{ key: string; admission: unknown; bindings: unknown; x: unknown }> = [];
    view.onChange((key) =>
      seen.push({ key, admission: view.get('admission'), bindings: view.get('bindings.agent.p'), x: view.get('capability.x') }),
    );
    await apply(w, next);
    await until(() => view.get('capability.x') === undefined);
    expect(seen.map((s) => s.key).sort()).toEqual(['admission', 'bindings.agent.p', 'capability.x', 'presentation.agent.p']);
    for (const s of seen) expect(s).toMatchObject({ admission: { default: 'deny' }, bindings: { capabilities: ['a'] }, x: undefined });
    expect(view.entries('capability.').map(([k]) => k)).toEqual(['capability.a']);
    expect(view.get('presentation.agent.p')).toEqual({ mode: 'discovery', autonomy: 'autonomous' });
  });

  it('API overrides: kept on the document they were made on, replaced by the next apply that names the principal, dropped with the principal, never back', async () => {
    const { w, view, writerView } = await pair('cv_override');
    const p = { kind: 'agent' as const, id: 'p' };
    const one = cfg({
      capabilities: { a: stdio('a'), b: stdio('b') },
      principals: [{ ...p, mode: 'direct', autonomy: 'autonomous', capabilities: ['a'] }],
    });
    const none = cfg({ capabilities: { a: stdio('a'), b: stdio('b') } });
    const caps = (k: string) => (view.get(k) as { capabilities: string[] } | undefined)?.capabilities;
    await apply(w, one);
    await until(() => view.document() !== undefined);
    await w.put('bindings.agent.p', writerView.overrideFor({ capabilities: ['a', 'b'] }));
    await w.put('bindings.agent.q', writerView.overrideFor({ capabilities: ['b'] }));
    await until(() => caps('bindings.agent.q') !== undefined && caps('bindings.agent.p')?.length === 2);
    // The same config applied again: the config's bindings of p win again; q, which no config names, keeps its own.
    await apply(w, one);
    await until(() => caps('bindings.agent.p')?.length === 1);
    expect(caps('bindings.agent.q')).toEqual(['b']);
    // An override on the new document holds; a config that no longer names p takes it away.
    await w.put('presentation.agent.p', writerView.overrideFor({ mode: 'unified', autonomy: 'autonomous' }));
    await until(() => (view.get('presentation.agent.p') as { mode: string }).mode === 'unified');
    await apply(w, none);
    await until(() => view.get('presentation.agent.p') === undefined);
    expect(view.get('bindings.agent.p')).toBeUndefined();
    // q: named by a config, then dropped: its own bindings from before do not come back, though
    // no record was ever deleted here (nothing depends on a clean-up).
    await apply(w, cfg({ ...none, principals: [{ kind: 'agent', id: 'q', mode: 'direct', autonomy: 'autonomous', capabilities: ['a'] }] }));
    await until(() => caps('bindings.agent.q')?.[0] === 'a');
    await apply(w, none);
    await until(() => view.get('bindings.agent.q') === undefined);
    expect(w.get('bindings.agent.q')).toBeDefined();
    // An override made now, with q dropped, counts again.
    await w.put('bindings.agent.q', writerView.overrideFor({ capabilities: ['b'] }));
    await until(() => caps('bindings.agent.q')?.[0] === 'b');
  });

  it('without a document, records are read as they are; the first document takes over from them', async () => {
    const { w, view } = await pair('cv_legacy');
    await w.put('admission', { default: 'deny', rules: [] });
    await w.put('capability.a', stdio('a'));
    // r was named by the config of the per-key layout; s was set through the API only.
    await w.put('bindings.agent.r', { capabilities: ['a'] });
    await w.put('bindings.agent.s', { capabilities: ['a'] });
    await until(() => view.get('bindings.agent.s') !== undefined);
    expect(view.get('admission')).toEqual({ default: 'deny', rules: [] });
    await apply(w, cfg({ capabilities: { a: stdio('a') } }), [{ kind: 'agent', id: 'r' }]);
    await until(() => view.document() !== undefined);
    expect(view.get('admission')).toEqual({ default: 'allow', rules: [] });
    expect(view.get('capability.a')).toEqual(stdio('a'));
    expect(view.get('bindings.agent.r')).toBeUndefined();
    expect(view.get('bindings.agent.s')).toEqual({ capabilities: ['a'] });
  });

  it('a write at a stale revision is refused, so racing applies leave one config or the other, never a mix', async () => {
    const { w } = await pair('cv_race');
    const other = new WatchedBucket<unknown>(await openBucket(reader, 'cv_race'), logger);
    await other.start();
    await apply(w, cfg({ hash: 'first' }));
    await until(() => other.revision(CONFIG_DOCUMENT_KEY) > 0);
    const base = other.revision(CONFIG_DOCUMENT_KEY);
    await w.update(CONFIG_DOCUMENT_KEY, configDocument(cfg({ hash: 'second' }), undefined, 2), base);
    await expect(other.update(CONFIG_DOCUMENT_KEY, configDocument(cfg({ hash: 'third' }), undefined, 3), base)).rejects.toThrow(
      /wrong last sequence/i,
    );
    await expect(other.update(CONFIG_DOCUMENT_KEY, configDocument(cfg({ hash: 'fourth' }), undefined, 4), 0)).rejects.toThrow();
    await until(() => (other.get(CONFIG_DOCUMENT_KEY) as { hash: string }).hash === 'second');
  });
});
