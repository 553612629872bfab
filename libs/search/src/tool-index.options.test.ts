// ToolIndex's options (out of range, the translation table), nested searches, buildAsync and warm.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolIndex, type HeadReranker } from './tool-index.js';
import type { SearchableTool } from './types.js';
import { SMALL } from './tool-index.test-data.js';

describe('ToolIndex options out of range', () => {
  const weather: SearchableTool[] = [
    { name: 'get_weather', description: 'Weather for a city.' },
    { name: 'weather.get', description: 'Weather for a city today.' },
    { name: 'srv1:get_weather', description: 'Weather for a city.' },
    { name: 'forecast', description: 'Weather forecast for a city, day by day.' },
  ];
  it('reads NaN or infinite demotion settings as their defaults', () => {
    const plain = ToolIndex.build(weather, { semantic: false });
    for (const opts of [{ diversity: NaN }, { sameNameDemotion: NaN }, { diversity: Infinity, sameNameDemotion: -Infinity }]) {
      for (const q of ['get weather', 'weather city', 'get_weather']) {
        const hits = ToolIndex.build(weather, { ...opts, semantic: false }).search(q, 10);
        if (Number.isNaN(opts.diversity ?? 0) || Number.isNaN(opts.sameNameDemotion ?? 0)) expect(hits).toEqual(plain.search(q, 10));
        for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
      }
    }
  });
  it('keeps scores non-negative and in order with a negative k1 or NaN field weights, exact names first', () => {
    for (const opts of [{ k1: -2.95 }, { k1: NaN }, { fieldWeights: { description: NaN } }]) {
      const hits = ToolIndex.build(weather, { ...opts, semantic: false }).search('get_weather', 10);
      expect(hits[0].name).toBe('get_weather');
      for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0);
      for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    }
  });
  it('finds the matching tool with finite, non-negative, ordered scores whatever a weight, threshold, depth or term cap is set to', () => {
    const knobs = [
      'k1',
      'synonymWeight',
      'relatedWeight',
      'knownWordExpansionFactor',
      'nameCoverageWeight',
      'cjkUnigramWeight',
      'diversityThreshold',
      'translationWeight',
      'maxQueryTerms',
      'valueTypeWeight',
      'namespaceWeight',
      'impliedWordWeight',
      'placeWordWeight',
      'semanticDepth',
      'headDepth',
      'fieldWeights.name',
      'fieldWeights.description',
      'fieldWeights.params',
      'fieldB.name',
      'fieldB.description',
    ] as const;
    // a head stage that keeps the order, so every depth runs it
    const stage: HeadReranker = { rerank: (_q, head) => head.map((h) => h.score) };
    fc.assert(
      fc.property(
        fc.constantFrom(...knobs),
        fc.oneof(fc.double(), fc.constantFrom(-1, 0, -Infinity, Infinity, NaN, 1e12, 1e308, Number.MAX_VALUE)),
        fc.constantFrom(
          'factorial of 5',
          'weather in Paris tomorrow at 5 pm',
          'send an email',
          '必应搜索',
          'math factorial',
          'math.factorial',
        ),
        (knob, value, q) => {
          const [key, field] = knob.split('.');
          const opts = field === undefined ? { [key]: value } : { [key]: { [field]: value } };
          const hits = ToolIndex.build(SMALL, { ...opts, headReranker: stage }).search(q, 10);
          expect(hits.length, `${knob}=${value} ${q}`).toBeGreaterThan(0);
          for (const h of hits) expect(Number.isFinite(h.score) && h.score >= 0, `${knob}=${value} ${h.name} ${h.score}`).toBe(true);
          for (let i = 1; i < hits.length; i++) expect(hits[i].score, `${knob}=${value} ${q}`).toBeLessThanOrEqual(hits[i - 1].score);
          if (q === 'math.factorial') expect(hits[0].name).toBe('math.factorial');
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('a search started from within a search', () => {
  it('gives the inner search and every later one the results of a fresh index (a head reranker that searches the same index)', () => {
    const tools: SearchableTool[] = [
      { name: 'get_weather', description: 'Get the weather forecast for a city' },
      { name: 'average_temperature', description: 'Average temperature of a city over days' },
      { name: 'read_file', description: 'Read a file from disk' },
      { name: 'write_file', description: 'Write text to a file on disk' },
      { name: 'list_files', description: 'List the files in a directory' },
    ];
    const keep: HeadReranker = { rerank: (_q, head) => head.map((_, i) => -i) };
    const fresh = (q: string) => ToolIndex.build(tools, { semantic: false, headReranker: keep }).search(q, 5);
    // eslint-disable-next-line prefer-const -- the reranker above reads it before it is assigned below
    let index: ToolIndex | undefined;
    let inner: unknown;
    const searching: HeadReranker = {
      rerank: (_q, head) => {
        inner ??= index!.search('weather', 5);
        return head.map((_, i) => -i);
      },
    };
    index = ToolIndex.build(tools, { semantic: false, headReranker: searching });
    expect(index.search('read a file from disk', 5)).toEqual(fresh('read a file from disk'));
    expect(inner).toEqual(fresh('weather'));
    expect(index.search('read file', 5)).toEqual(fresh('read file'));
  });
});

describe('ToolIndex.buildAsync', () => {
  /** A catalog of distinct tools with parameters, many of whose texts repeat (as real catalogs' do). */
  const catalog = (n: number): SearchableTool[] =>
    Array.from({ length: n }, (_, i) => ({
      name: i % 7 === 0 ? `ns${i % 5}.tool_${i}` : `tool${i}_getReport`,
      title: i % 3 === 0 ? `Report tool ${i}` : undefined,
      description: `Gets report ${i} of team ${i % 31}: fetches records, updates rows${i % 11 === 0 ? ' (deprecated)' : ''}.`,
      inputSchema: {
        type: 'object',
        properties: { [`param_${i % 40}`]: { type: 'string', description: `Setting ${i % 13} of the report.` }, city: { type: 'string' } },
      },
    }));

  it('makes the index build makes: the same hits and scores for any request', async () => {
    const tools = catalog(600);
    const sync = ToolIndex.build(tools, { semantic: false });
    const sliced = await ToolIndex.buildAsync(tools, { semantic: false }, 1);
    expect(sliced.size).toBe(sync.size);
    expect(sliced.termOccurrences).toBe(sync.termOccurrences);
    const requests = [
      'get report 42',
      'tool_7',
      'ns0.tool_0',
      'Report tool 3',
      'update rows of team 5',
      'setting 12 city',
      'getReport',
      'zzz',
    ];
    for (const q of requests) expect(sliced.search(q, 20), q).toEqual(sync.search(q, 20));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (q) => {
        expect(sliced.search(q, 10)).toEqual(sync.search(q, 10));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the event loop back between wide tools too, and reads at most 1,000 parameters of a tool', async () => {
    const wide = (i: number): SearchableTool => ({
      name: `wide_${i}`,
      description: `A tool of many settings, number ${i}.`,
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 5_000 }, (_, j) => [`setting${j}x${i}`, { type: 'string', description: `Setting ${j}.` }]),
        ),
      },
    });
    const ran: string[] = [];
    const building = ToolIndex.buildAsync([wide(0), wide(1), wide(2), wide(3)], { semantic: false }, 1).then((index) => {
      ran.push('built');
      return index;
    });
    setImmediate(() => ran.push('other request'));
    const index = await building;
    expect(ran).toEqual(['other request', 'built']);
    expect(index.search('setting10x2', 3)[0]?.name).toBe('wide_2');
    expect(index.search('setting4000x2', 3)).toEqual([]);
  });

  it('gives the event loop back while it builds: work queued after it starts runs before it ends', async () => {
    const ran: string[] = [];
    const building = ToolIndex.buildAsync(catalog(3000), { semantic: false }, 1).then(() => ran.push('built'));
    setImmediate(() => ran.push('other request'));
    await building;
    expect(ran).toEqual(['other request', 'built']);
  });
});

describe('ToolIndex.warm', () => {
  it('does the per-tool work ahead of searches, in slices, and changes no result', () => {
    // near-duplicates (signatures), names and descriptions (semantic encodings) all in play
    const tools: SearchableTool[] = [...SMALL];
    for (let i = 0; i < 40; i++)
      tools.push({
        name: `tool_${i}_weather`,
        description: `Report ${i % 3 === 0 ? 'the weather' : 'flight prices'} for a city ${i % 5}.`,
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      });
    const cold = ToolIndex.build(tools);
    const warmed = ToolIndex.build(tools);
    expect(warmed.warm(0)).toBe(false);
    let slices = 0;
    while (!warmed.warm(1)) slices++;
    expect(slices).toBeLessThan(1000);
    expect(warmed.warm(0)).toBe(true);
    for (const q of ['weather in city 3', 'flight prices', 'factorial of 10', 'tool_7_weather', '搜索 weather'])
      expect(warmed.search(q, 10)).toEqual(cold.search(q, 10));
    expect(ToolIndex.build([]).warm(0)).toBe(true);
  });
});

describe('ToolIndex translations option', () => {
  const tools: SearchableTool[] = [
    { name: 'get_tickets', description: 'Get the support tickets of a customer.' },
    { name: 'get_orders', description: 'Get the orders of a customer.' },
  ];

  it('reads a Chinese word through the default table, and not with the table off or replaced', () => {
    expect(
      ToolIndex.build(tools, { semantic: false })
        .search('查看工单', 2)
        .map((h) => h.name),
    ).toEqual(['get_tickets']);
    expect(ToolIndex.build(tools, { semantic: false, translations: false }).search('查看工单', 2)).toEqual([]);
    expect(ToolIndex.build(tools, { semantic: false, synonyms: false }).search('查看工单', 2)).toEqual([]);
    const own = ToolIndex.build(tools, { semantic: false, translations: [['工单', 'order']] });
    expect(own.search('查看工单', 2).map((h) => h.name)).toEqual(['get_orders']);
  });
});
