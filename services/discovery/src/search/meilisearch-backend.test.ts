// The Meilisearch backend without a Meilisearch server: its pure parts (documents, settings, filter,
// queries, merging), then its flow through the real `meilisearch` client against an in-memory fake
// server (fake-meilisearch.ts), including the whole backend contract. Ranking by a real server is
// covered only by backend-contract.test.ts with MEILI_URL set.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backendContract, HOSTILE_QUERIES, randomSnapshotId, SNAPSHOT_A_TOOLS, tool } from './backend.contract';
import { FakeMeilisearch } from './fake-meilisearch';
import {
  baseName,
  buildDocuments,
  buildSearchQueries,
  cleanQuery,
  collectParams,
  DEFAULT_INDEX_UID,
  documentId,
  exactTier,
  lastDottedSegment,
  meiliSettings,
  MeilisearchBackend,
  mergeHits,
  nameWords,
  snapshotFilter,
} from './meilisearch-backend';

const HEX = 'ab'.repeat(32);
const SNAP = `snap_${HEX}`;

describe('snapshotFilter', () => {
  it('quotes a validated snapshot id', () => {
    expect(snapshotFilter(SNAP)).toBe(`snapshot_id = "${SNAP}"`);
  });

  it('refuses anything that is not snap_ and 64 lower-case hex digits', () => {
    for (const bad of [
      '',
      'snap_',
      'snap_xyz',
      `snap_${HEX.toUpperCase()}`,
      `snap_${HEX}0`,
      `snap_${HEX}" OR snapshot_id EXISTS OR "`,
      `snap_${HEX}\n`,
      ` snap_${HEX}`,
      `x" OR 1=1 OR snapshot_id = "snap_${HEX}`,
    ]) {
      expect(() => snapshotFilter(bad), JSON.stringify(bad)).toThrow(/not a snapshot id/);
    }
  });

  it('names document ids after the snapshot hash', () => {
    expect(documentId(SNAP, 0)).toBe(`${HEX}-0`);
    expect(documentId(SNAP, 12)).toBe(`${HEX}-12`);
    expect(() => documentId('snap_1', 0)).toThrow();
  });
});

describe('names', () => {
  it('splits identifiers into lower-case words', () => {
    expect(nameWords('getCurrentWeather')).toBe('get current weather');
    expect(nameWords('get_current_weather')).toBe('get current weather');
    expect(nameWords('HTTPServer.start-now')).toBe('http server start now');
    expect(nameWords('Hotels_4_SearchHotel')).toBe('hotels 4 search hotel');
    expect(nameWords('  Currency   Converter ')).toBe('currency converter');
    expect(nameWords('天气预报 tool')).toBe('天气预报 tool');
    expect(nameWords('!!! ... ***')).toBe('');
  });

  it('finds the own name of qualified and dotted names', () => {
    expect(baseName('fs:read_file')).toBe('read_file');
    expect(baseName('bfcl:math.factorial:10fae9e4')).toBe('math.factorial');
    expect(lastDottedSegment('math.factorial')).toBe('factorial');
    expect(lastDottedSegment('factorial')).toBeUndefined();
    expect(lastDottedSegment('.hidden')).toBeUndefined();
  });

  it('ranks exact-name tiers like the embedded index', () => {
    expect(exactTier('get_weather', 'get_weather', undefined)).toBe(4);
    expect(exactTier('read_file', 'fs:read_file', undefined)).toBe(4);
    expect(exactTier('Get Weather', 'get_weather', undefined)).toBe(3);
    expect(exactTier('getWeather', 'get_weather', undefined)).toBe(3);
    expect(exactTier('currency converter', 'fx_convert_v2', 'Currency Converter')).toBe(2);
    expect(exactTier('factorial', 'math.factorial', undefined)).toBe(1);
    expect(exactTier('weather', 'get_weather', undefined)).toBe(0);
    expect(exactTier('   ', 'get_weather', undefined)).toBe(0);
  });
});

describe('buildDocuments', () => {
  const tools = [
    tool('zeta.run', 'Runs zeta.', {
      title: 'Zeta Runner',
      inputSchema: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['fast', 'safe'], description: 'How to run' },
          opts: { type: 'object', properties: { depth: { type: 'integer', description: 'Max depth' } } },
          list: { type: 'array', items: { anyOf: [{ type: 'object', properties: { tag: { type: 'string', description: 'A tag' } } }] } },
        },
      },
    }),
    tool('alpha_getItem', 'Gets an item.'),
  ];

  it('makes one document per tool, ids by name order, with the snapshot id', () => {
    const docs = buildDocuments(SNAP, tools);
    expect(docs.map((d) => [d.id, d.name])).toEqual([
      [`${HEX}-0`, 'alpha_getItem'],
      [`${HEX}-1`, 'zeta.run'],
    ]);
    expect(docs.every((d) => d.snapshot_id === SNAP)).toBe(true);
    expect(docs[0]).toMatchObject({
      name_words: 'alpha get item',
      name_last: 'alpha get item',
      title: '',
      description: 'Gets an item.',
      param_names: [],
      param_descriptions: [],
    });
    expect(docs[1]).toMatchObject({
      name_words: 'zeta run',
      name_last: 'run',
      title: 'Zeta Runner',
      param_names: ['mode', 'opts', 'depth', 'list', 'tag'],
      param_descriptions: ['How to run', 'fast', 'safe', 'Max depth', 'A tag'],
    });
    // Schemas are not stored: documents hold only what is searched or returned.
    expect(Object.keys(docs[1]).sort()).toEqual([
      'description',
      'id',
      'name',
      'name_last',
      'name_words',
      'param_descriptions',
      'param_names',
      'snapshot_id',
      'title',
    ]);
  });

  it('gives every replica the same ids whatever the input order', () => {
    expect(buildDocuments(SNAP, [...tools].reverse())).toEqual(buildDocuments(SNAP, tools));
  });

  it('caps huge texts and parameter lists', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(40_000) }]),
    );
    const [doc] = buildDocuments(SNAP, [tool('big', 'd'.repeat(50_000), { inputSchema: { type: 'object', properties } })]);
    expect(doc.description.length).toBe(32_000);
    expect(doc.param_names.length).toBe(1000);
    expect(doc.param_descriptions.length).toBe(1000);
    expect(doc.param_descriptions[0].length).toBe(32_000);
  });

  it('survives odd schemas', () => {
    expect(collectParams(null)).toEqual({ names: [], texts: [] });
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    expect(collectParams(cyclic).names.length).toBeLessThanOrEqual(8);
  });

  it('refuses a malformed snapshot id', () => {
    expect(() => buildDocuments('snap_nothex', tools)).toThrow();
  });
});

describe('meiliSettings', () => {
  it('searches names before titles before descriptions before parameters', () => {
    const s = meiliSettings();
    expect(s.searchableAttributes).toEqual([
      'name',
      'name_words',
      'name_last',
      'title',
      'description',
      'param_names',
      'param_descriptions',
    ]);
    expect(s.filterableAttributes).toEqual(['snapshot_id']);
    expect(s.rankingRules).toEqual(['words', 'typo', 'attribute', 'proximity', 'exactness']);
    expect(s.typoTolerance).toEqual({ enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } });
    expect(s.displayedAttributes).toEqual(['id', 'snapshot_id', 'name', 'title']);
    expect(s.embedders).toBeUndefined(); // an operator's embedder settings are left alone
  });
});

describe('buildSearchQueries', () => {
  it('puts user text only in q, and the validated snapshot filter on every query', () => {
    const marker = 'snapshot_id = "x" OR 1=1';
    const queries = buildSearchQueries('ix', SNAP, `weather ${marker}`, 7);
    expect(queries).toHaveLength(3);
    for (const q of queries) {
      expect(q.filter).toBe(`snapshot_id = "${SNAP}"`);
      expect(q.indexUid).toBe('ix');
      const { q: _text, ...rest } = q;
      expect(JSON.stringify(rest)).not.toContain('1=1');
    }
    expect(queries[0]).toMatchObject({
      q: `weather ${marker}`,
      limit: 7,
      matchingStrategy: 'frequency',
      showRankingScore: true,
      attributesToRetrieve: ['name', 'title'],
    });
    expect(queries[0].hybrid).toBeUndefined();
    expect(queries[1]).toMatchObject({
      q: 'weather snapshot id x or 1 1',
      matchingStrategy: 'all',
      attributesToSearchOn: ['name_words', 'name_last'],
    });
    expect(queries[2]).toMatchObject({ attributesToSearchOn: ['title'] });
  });

  it('adds hybrid search to the ranking query only when an embedder is set', () => {
    const queries = buildSearchQueries('ix', SNAP, 'weather', 5, { embedder: 'tools', semanticRatio: 0.3 });
    expect(queries[0].hybrid).toEqual({ embedder: 'tools', semanticRatio: 0.3 });
    expect(queries[1].hybrid).toBeUndefined();
    expect(queries[2].hybrid).toBeUndefined();
  });

  it('sends nothing for a query without a word (it would list the whole snapshot)', () => {
    for (const q of ['', '   ', '!!!', '*', '"', '🔥🌦️', '\u0000'])
      expect(buildSearchQueries('ix', SNAP, q, 5), JSON.stringify(q)).toEqual([]);
  });

  it('skips the exact-name probes for long requests and cuts q', () => {
    expect(
      buildSearchQueries('ix', SNAP, 'find the weather in a city for me and then send it by email to my team please now', 5),
    ).toHaveLength(1);
    expect(buildSearchQueries('ix', SNAP, 'weather '.repeat(2000), 5)[0].q!.length).toBeLessThanOrEqual(4000);
  });

  it('refuses a malformed snapshot id', () => {
    expect(() => buildSearchQueries('ix', 'snap_" OR 1=1', 'weather', 5)).toThrow();
  });

  it('cleans control characters, lone surrogates, huge words and the negative operator', () => {
    expect(cleanQuery('a\u0000b\u001fc')).toBe('a b c');
    expect(cleanQuery('x\ud800y\udc00')).toBe('x\ufffdy\ufffd');
    expect(cleanQuery('ok 😀')).toBe('ok 😀');
    expect(cleanQuery(`convert ${'z'.repeat(200)} to -pdf - now --x`)).toBe('convert to pdf now x');
    expect(cleanQuery('"read file" quickly')).toBe('"read file" quickly');
    expect(buildSearchQueries('ix', SNAP, 'a'.repeat(4000), 5)).toEqual([]);
  });
});

describe('mergeHits', () => {
  const h = (name: string, score: number, title?: string) => ({ name, title: title ?? '', _rankingScore: score });

  it('puts exact-name tiers first, then the ranking order', () => {
    const main = [h('get_weather_forecast', 0.9), h('weather_alerts', 0.8), h('get_weather', 0.7)];
    expect(mergeHits('get_weather', [main, [], []], 10).map((x) => x.name)).toEqual([
      'get_weather',
      'get_weather_forecast',
      'weather_alerts',
    ]);
    // A tier hit only the name probe found still comes first; the limit holds.
    const probe = [h('math.factorial', 0.5)];
    const out = mergeHits('factorial', [[h('factorial_table', 0.9), h('stats.permutations', 0.8)], probe, []], 2);
    expect(out).toEqual([
      { name: 'math.factorial', score: 1 },
      { name: 'factorial_table', score: 0.9 },
    ]);
    // Higher tiers beat lower ones.
    const tiers = mergeHits('convert', [[h('x.convert', 0.9), h('convert', 0.1)], [], [h('y', 0.2, 'Convert')]], 10).map((x) => x.name);
    expect(tiers).toEqual(['convert', 'y', 'x.convert']);
  });

  it('drops duplicates and non-tier probe hits, and clamps scores', () => {
    const out = mergeHits('weather', [[h('a', 2), h('a', 0.5), { name: 'b', title: '' }], [h('c', 0.9)], []], 10);
    expect(out).toEqual([
      { name: 'a', score: 1 },
      { name: 'b', score: 0 },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the fake server, through the real client. Each fake answers one host.

const fakes = new Map<string, FakeMeilisearch>();
let hostSeq = 0;
function newFake(): { fake: FakeMeilisearch; url: string } {
  const host = `fake-meili-${hostSeq++}.test:7700`;
  const fake = new FakeMeilisearch();
  fake.taskDelay = 2;
  fakes.set(host, fake);
  return { fake, url: `http://${host}` };
}

beforeAll(() => {
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const host = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).host;
    const fake = fakes.get(host);
    if (!fake) throw new TypeError(`fetch failed: no fake server at ${host}`);
    return fake.fetch(input, init);
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('MeilisearchBackend (fake server)', () => {
  it('creates the index with primary key id, applies its settings and waits for both tasks', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url, apiKey: 'k' });
    await backend.init();
    const ix = fake.indexes.get(DEFAULT_INDEX_UID)!;
    expect(ix.primaryKey).toBe('id');
    expect(ix.settings).toEqual(JSON.parse(JSON.stringify(meiliSettings())));
    expect([...fake.tasks.values()].map((t) => [t.type, t.status])).toEqual([
      ['indexCreation', 'succeeded'],
      ['settingsUpdate', 'succeeded'],
    ]);
    const count = fake.requests.length;
    await backend.init();
    expect(fake.requests.length).toBe(count); // once
  });

  it('reuses an existing index and refuses one with another primary key', async () => {
    const { fake, url } = newFake();
    fake.indexes.set('mine', { uid: 'mine', primaryKey: 'id', settings: {}, docs: new Map() });
    await new MeilisearchBackend({ url, indexUid: 'mine' }).init();
    expect([...fake.tasks.values()].map((t) => t.type)).toEqual(['settingsUpdate']);
    fake.indexes.set('theirs', { uid: 'theirs', primaryKey: 'sku', settings: {}, docs: new Map() });
    await expect(new MeilisearchBackend({ url, indexUid: 'theirs' }).init()).rejects.toThrow(/primary key "sku"/);
  });

  it('checks the embedder at start and then searches hybrid', async () => {
    const { fake, url } = newFake();
    await expect(new MeilisearchBackend({ url, embedder: 'tools' }).init()).rejects.toThrow(/MEILI_EMBEDDER "tools" is not configured/);
    fake.indexes.get(DEFAULT_INDEX_UID)!.settings['embedders'] = { tools: { source: 'userProvided', dimensions: 3 } };
    const backend = new MeilisearchBackend({ url, embedder: 'tools', semanticRatio: 0.25 });
    await backend.init();
    const s = randomSnapshotId();
    await backend.index(s, SNAPSHOT_A_TOOLS);
    await backend.search(s, 'weather', 5);
    const [main, ...probes] = fake.multiSearches().at(-1)!.queries;
    expect(main['hybrid']).toEqual({ embedder: 'tools', semanticRatio: 0.25 });
    for (const p of probes) expect(p['hybrid']).toBeUndefined();
  });

  it('retries init after a failure', async () => {
    const { fake, url } = newFake();
    fakes.delete(new URL(url).host);
    const backend = new MeilisearchBackend({ url, requestTimeoutMs: 1000 });
    await expect(backend.init()).rejects.toThrow();
    fakes.set(new URL(url).host, fake);
    await backend.init();
    expect(fake.indexes.has(DEFAULT_INDEX_UID)).toBe(true);
  });

  it('resolves index() only once the documents task succeeded, in one task with primary key id', async () => {
    const { fake, url } = newFake();
    fake.taskDelay = 4;
    const backend = new MeilisearchBackend({ url });
    const s = randomSnapshotId();
    await backend.index(s, SNAPSHOT_A_TOOLS);
    const adds = [...fake.tasks.values()].filter((t) => t.type === 'documentAdditionOrUpdate');
    expect(adds.map((t) => t.status)).toEqual(['succeeded']);
    expect(fake.indexes.get(DEFAULT_INDEX_UID)!.docs.size).toBe(SNAPSHOT_A_TOOLS.length);
    const post = fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/documents'))!;
    expect(post.search).toBe('?primaryKey=id');
    expect(await backend.isIndexed(s)).toBe(true);
  });

  it('rejects index() when the task fails, and indexes on the next try', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url });
    const s = randomSnapshotId();
    fake.failNextDocuments = 'invalid_document_fields';
    await expect(backend.index(s, SNAPSHOT_A_TOOLS)).rejects.toThrow(/did not succeed .*invalid_document_fields/);
    expect(await backend.isIndexed(s)).toBe(false);
    expect(await backend.search(s, 'get_weather', 5)).toEqual([]);
    await backend.index(s, SNAPSHOT_A_TOOLS);
    expect((await backend.search(s, 'get_weather', 5))[0]?.name).toBe('get_weather');
  });

  it('rejects index() when the task outlasts MEILI_TASK_TIMEOUT_MS', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url, taskTimeoutMs: 200 });
    await backend.init();
    fake.taskDelay = 1_000_000;
    await expect(backend.index(randomSnapshotId(), SNAPSHOT_A_TOOLS)).rejects.toThrow(/still processing after 200 ms/);
  });

  it('counts a snapshot indexed by another replica, without indexing it again', async () => {
    const { fake, url } = newFake();
    const one = new MeilisearchBackend({ url });
    const two = new MeilisearchBackend({ url });
    const s = randomSnapshotId();
    expect(await two.isIndexed(s)).toBe(false);
    await one.index(s, SNAPSHOT_A_TOOLS);
    expect(await two.isIndexed(s)).toBe(true);
    await two.index(s, SNAPSHOT_A_TOOLS);
    expect([...fake.tasks.values()].filter((t) => t.type === 'documentAdditionOrUpdate')).toHaveLength(1);
    expect((await two.search(s, 'factorial', 3))[0]?.name).toBe('math.factorial');
  });

  it('sends only the validated snapshot filter, whatever the query', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url });
    const s = randomSnapshotId();
    await backend.index(s, SNAPSHOT_A_TOOLS);
    for (const q of HOSTILE_QUERIES) await backend.search(s, q.replaceAll('%B%', randomSnapshotId()), 10);
    const sent = fake.multiSearches().flatMap((m) => m.queries);
    expect(sent.length).toBeGreaterThan(HOSTILE_QUERIES.length);
    for (const q of sent) {
      expect(q['filter']).toBe(`snapshot_id = "${s}"`);
      expect(Object.keys(q).sort()).toEqual(expect.arrayContaining(['filter', 'indexUid', 'q']));
    }
    // Queries without a word are not sent at all.
    const before = fake.requests.length;
    expect(await backend.search(s, '*** ???', 10)).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it('forgets a snapshot whose documents are gone, so that it is indexed again', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url });
    const s = randomSnapshotId();
    await backend.index(s, SNAPSHOT_A_TOOLS);
    fake.indexes.get(DEFAULT_INDEX_UID)!.docs.clear();
    expect(await backend.search(s, 'weather', 5)).toEqual([]);
    expect(await backend.isIndexed(s)).toBe(false);
    await backend.index(s, SNAPSHOT_A_TOOLS);
    expect((await backend.search(s, 'get_weather', 5))[0]?.name).toBe('get_weather');
  });

  it('answers nothing for a malformed snapshot id without a request, and refuses to index one', async () => {
    const { fake, url } = newFake();
    const backend = new MeilisearchBackend({ url });
    expect(await backend.search('snap_" OR 1=1', 'weather', 5)).toEqual([]);
    expect(await backend.isIndexed('snap_" OR 1=1')).toBe(false);
    expect(fake.requests).toEqual([]);
    await expect(backend.index('snap_nope', SNAPSHOT_A_TOOLS)).rejects.toThrow(/not a snapshot id/);
  });
});

const contractFake = newFake();
backendContract(
  'meilisearch client against an in-memory fake server (wire and flow only, not Meilisearch ranking)',
  () => new MeilisearchBackend({ url: contractFake.url }),
);
