// The discovery service as it runs: a real nats-server (JetStream, the snapshot object store, the
// snapshot.created stream), the app started by createApp, DiscoverTools over gRPC on a free port.
// One case per failure kind of discover_tools that public reports show for peer products.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BoundToolDefinition } from '@toolsurface/core';
import { connectNats, createLogger, EventPublisher, openSnapshotStore, Subjects } from '@toolsurface/platform';
import { DiscoveryServiceClient, SnapshotCreated, type DiscoverToolsResponse } from '@toolsurface/proto';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { SnapshotStore } from '@toolsurface/state';
import { createApp, type App } from './app';
import { DISCOVER_INDEX_ATTEMPTS, DiscoveryService } from './discovery.service';
import type { SearchBackend } from './domain/discovery';
import { EmbeddedBackend } from './domain/embedded-backend';
import { loadConfig } from './config';

const tracer = trace.getTracer('discovery-int-test');
let dir: string;
let nats: NatsHandle | undefined;
let app: App | undefined;
let nc: NatsConnection | undefined;
let store: SnapshotStore;
let events: EventPublisher;
let client: DiscoveryServiceClient;

/** A bound tool for the fixtures. */
function tool(name: string, description: string, properties: Record<string, unknown> = {}): BoundToolDefinition {
  return { name, description, inputSchema: { type: 'object', properties }, capability: 'test', originalName: name };
}

/** A catalog of `n` distinct, plausible tools (verb × object × variant), big enough that indexing takes a while. */
function bigCatalog(n: number, tag: string): BoundToolDefinition[] {
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'import', 'sync', 'archive'];
  const objects = [
    'invoice',
    'customer',
    'order',
    'ticket',
    'report',
    'project',
    'contact',
    'payment',
    'shipment',
    'account',
    'file',
    'event',
  ];
  const out: BoundToolDefinition[] = [];
  for (let i = 0; out.length < n; i++) {
    const verb = verbs[i % verbs.length];
    const object = objects[Math.floor(i / verbs.length) % objects.length];
    const variant = Math.floor(i / (verbs.length * objects.length));
    out.push(
      tool(`${tag}_${verb}_${object}_v${variant}`, `${verb} one ${object} in system ${variant} of ${tag}; returns the ${object} record.`, {
        [`${object}_id`]: { type: 'string', description: `The ${object} identifier.` },
        region: { type: 'string', description: 'Region code.' },
      }),
    );
  }
  return out;
}

function discover(snapshotId: string, query: string, limit = 10): Promise<DiscoverToolsResponse> {
  return new Promise((resolve, reject) =>
    client.discoverTools({ snapshotId, query, limit }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

/** Saves a snapshot in the object store, as surface-resolver does; returns its id. */
async function save(tools: readonly BoundToolDefinition[]): Promise<string> {
  return (await store.save(tools)).snapshot.snapshotId;
}

/** Announces a saved snapshot on toolsurface.snapshot.created.v1, as surface-resolver does. */
async function announce(snapshotId: string, toolCount: number): Promise<void> {
  const e = SnapshotCreated.fromPartial({ snapshotId, toolCount, objectName: snapshotId, createdAtMs: Date.now() });
  await events.publish(Subjects.snapshotCreated, SnapshotCreated.encode(e).finish(), `snapshot-${snapshotId}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'discovery-int-'));
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'nats'), logPath: join(dir, 'nats.log') });
  app = createApp(loadConfig({ NATS_URL: nats.url, GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', LOG_LEVEL: 'warn' }), tracer);
  await app.start();
  nc = await connectNats(nats.url, 'discovery-int-test');
  store = new SnapshotStore(await openSnapshotStore(nc));
  events = new EventPublisher(nc, tracer);
  client = new DiscoveryServiceClient(`127.0.0.1:${app.port()}`, credentials.createInsecure());
}, 60_000);

afterAll(async () => {
  client?.close();
  await app?.stop();
  await nc?.drain().catch(() => undefined);
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('discover_tools failure kinds, against the running discovery service', () => {
  it('exact name: a tool asked for by its exact name is found first, even among near-duplicates', async () => {
    const tools = [
      tool('get_weather', 'Current conditions for one city.', { city: { type: 'string' } }),
      tool('get_weather_forecast', 'Get weather forecast: get the weather for the next days, get weather by city.'),
      tool('weather_alerts', 'Severe weather alerts; use it to get weather warnings.'),
      tool('math.factorial', 'Computes n! for a non-negative integer n.'),
      tool('factorial_table', 'A table of factorial values; factorial of every n up to a bound.'),
      ...bigCatalog(200, 'crm'),
    ];
    const snapshotId = await save(tools);
    for (const t of tools.slice(0, 40)) expect((await discover(snapshotId, t.name)).hits[0]?.name, t.name).toBe(t.name);
    expect((await discover(snapshotId, 'get weather')).hits[0]?.name).toBe('get_weather');
    expect((await discover(snapshotId, 'factorial')).hits[0]?.name).toBe('math.factorial');
  });

  it('empty at session start: the first search right after a snapshot is created waits for indexing instead of answering empty', async () => {
    // Announced: the snapshot.created consumer starts indexing; searches arrive while it runs.
    const announced = [...bigCatalog(3000, 'erp'), tool('zz_quasar_probe', 'Measures the quasar flux of a star.')];
    const announcedId = await save(announced);
    await announce(announcedId, announced.length);
    const racing = await Promise.all([
      discover(announcedId, 'quasar flux'),
      discover(announcedId, 'zz_quasar_probe'),
      discover(announcedId, 'create an invoice'),
    ]);
    expect(racing[0].hits[0]?.name).toBe('zz_quasar_probe');
    expect(racing[1].hits[0]?.name).toBe('zz_quasar_probe');
    expect(racing[2].hits.length).toBeGreaterThan(0);
    for (const r of racing) expect(r).toMatchObject({ totalTools: announced.length, emptyReason: '' });

    // Never announced (its event lost or not yet delivered): the first search indexes on demand.
    const silent = [...bigCatalog(3000, 'wms'), tool('zz_pulsar_probe', 'Times the pulsar period.')];
    const silentId = await save(silent);
    const first = await discover(silentId, 'pulsar period');
    expect(first.hits[0]?.name).toBe('zz_pulsar_probe');
    expect(first.totalTools).toBe(silent.length);
  });

  it('short names: tools named with 2-3 characters are found', async () => {
    const tools = [
      tool('ls', 'List directory contents.', { path: { type: 'string' } }),
      tool('git', 'Run a git command in a repository.'),
      tool('git_status', 'Show the working tree status of a git repository.'),
      tool('cd', 'Change the working directory.'),
      tool('rm', 'Remove files or directories.'),
      tool('jq', 'Filter and transform JSON with a jq program.'),
      tool('do', 'Run a task now.'),
      tool('list_directory', 'List the files and folders in a directory (ls, dir).'),
      ...bigCatalog(100, 'ops'),
    ];
    const snapshotId = await save(tools);
    for (const name of ['ls', 'git', 'cd', 'rm', 'jq', 'do']) expect((await discover(snapshotId, name)).hits[0]?.name, name).toBe(name);
    expect((await discover(snapshotId, 'use git to commit')).hits[0]?.name).toBe('git');
    expect((await discover(snapshotId, 'jq filter')).hits[0]?.name).toBe('jq');
    expect((await discover(snapshotId, 'run ls on /tmp', 3)).hits.map((h) => h.name)).toContain('ls');
  });

  it('empty result without a reason: an empty result says why (NO_MATCH, EMPTY_SNAPSHOT) and what to try next', async () => {
    const snapshotId = await save([tool('get_weather', 'Current conditions for one city.'), tool('send_email', 'Send an email message.')]);
    const none = await discover(snapshotId, 'zzqx frobnicate');
    expect(none.hits).toEqual([]);
    expect(none.emptyReason).toBe('NO_MATCH');
    expect(none.totalTools).toBe(2);
    expect(none.hint).toMatch(/\S/);
    expect(none.hint).toContain('2 tools');

    const emptyId = await save([]);
    const empty = await discover(emptyId, 'weather');
    expect(empty.hits).toEqual([]);
    expect(empty.emptyReason).toBe('EMPTY_SNAPSHOT');
    expect(empty.totalTools).toBe(0);
    expect(empty.hint).toMatch(/no tools/i);

    // A result with hits carries neither.
    expect(await discover(snapshotId, 'weather')).toMatchObject({ emptyReason: '', hint: '' });
  });
});

describe('a snapshot whose index other snapshots drop between its indexing and its search', () => {
  /** The embedded backend of one index (MAX_INDEXED_SNAPSHOTS 1) whose first `drops` searches of `victim` are preceded by indexing `other`: the interleaving of concurrent requests, made certain. */
  function racingBackend(victim: string, other: { id: string; tools: readonly BoundToolDefinition[] }, drops: number): SearchBackend {
    const inner = new EmbeddedBackend(1, { headRerank: false });
    let left = drops;
    return {
      index: (id, tools) => inner.index(id, tools),
      isIndexed: (id) => inner.isIndexed(id),
      async search(id, query, limit) {
        if (id === victim && left > 0) {
          left--;
          await inner.index(other.id, other.tools);
        }
        return inner.search(id, query, limit);
      },
    };
  }

  it('indexes it again and answers, rather than an empty NO_MATCH for a tool asked for by its exact name', async () => {
    const a = [tool('get_weather', 'Current conditions for one city.'), tool('send_email', 'Send an email message.')];
    const b = [tool('create_invoice', 'Create an invoice.')];
    const [aId, bId] = [await save(a), await save(b)];
    const service = new DiscoveryService(store, racingBackend(aId, { id: bId, tools: b }, 1), createLogger('discovery-int-test', 'silent'));
    const res = await service.discover(aId, 'get_weather', 10);
    expect(res.hits[0]?.name).toBe('get_weather');
    expect(res.emptyReason).toBe('');
  });

  it('says UNAVAILABLE, naming MAX_INDEXED_SNAPSHOTS, when it keeps losing the index', async () => {
    const a = [tool('get_weather', 'Current conditions for one city.')];
    const b = [tool('create_invoice', 'Create an invoice.')];
    const [aId, bId] = [await save(a), await save(b)];
    const service = new DiscoveryService(
      store,
      racingBackend(aId, { id: bId, tools: b }, DISCOVER_INDEX_ATTEMPTS),
      createLogger('discovery-int-test', 'silent'),
    );
    await expect(service.discover(aId, 'get_weather', 10)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('MAX_INDEXED_SNAPSHOTS'),
    });
  });
});
