import { describe, expect, it } from 'vitest';
import { requiredParams } from '@toolsurface/analysis';
import {
  LexicalHeadReranker,
  HEAD_FEATURE_NAMES,
  HEAD_QUERY_MAX_CHARS,
  REQUEST_VALUES_MAX_CHARS,
  cjkShare,
  headScorer,
  requestValues,
  type HeadRerankWeights,
} from './head-rerank.js';
import { HEAD_RERANK } from './head-rerank-weights.js';
import { buildProfile, nameWordStats } from './tool-features.js';

const TOOLS = [
  {
    name: 'get_weather',
    description: 'Get the current weather for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  },
  {
    name: 'delete_file',
    description: 'Delete a file at a path.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'convert_currency',
    description: 'Convert an amount between two currencies.',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } } },
  },
  { name: 'weather.history', description: 'Past weather records of a city on a date.' },
];
const STATS = { size: TOOLS.length, docFreq: (t: string): number => (t === 'weather' ? 2 : 1) };

describe('LexicalHeadReranker', () => {
  it('refuses weights fitted for other features (a stale fit)', () => {
    expect(() => new LexicalHeadReranker(TOOLS, { featureNames: ['bias'], weights: [1] })).toThrow(/fit-head-rerank/);
    expect(HEAD_RERANK.featureNames).toEqual(HEAD_FEATURE_NAMES);
  });

  it('scores by the linear weights plus the hidden layer: Σ w·x + Σ output·tanh(bias + input·(x − mean) / scale)', () => {
    const linear = { featureNames: ['a', 'b'], weights: [2, -1] };
    expect(headScorer(linear)([3, 4])).toBe(2);
    const layer = { units: 2, mean: [1, 0], scale: [2, 1], input: [1, 0, 0, 3], bias: [0.5, 0], output: [1, -2] };
    // z = [(3 − 1) / 2, 4] = [1, 4]; unit 0: tanh(0.5 + 1 × 1), unit 1: tanh(0 + 4 × 3)
    expect(headScorer({ ...linear, hidden: layer })([3, 4])).toBeCloseTo(2 + Math.tanh(1.5) - 2 * Math.tanh(12), 12);
    // at the mean the hidden layer gives only its biases
    expect(headScorer({ ...linear, hidden: layer })([1, 0])).toBeCloseTo(2 - 0 + Math.tanh(0.5), 12);
  });

  it('refuses a hidden layer of the wrong size or with a value that is not finite, naming the fit script', () => {
    const dim = HEAD_FEATURE_NAMES.length;
    const good: HeadRerankWeights = {
      featureNames: HEAD_FEATURE_NAMES,
      weights: HEAD_FEATURE_NAMES.map(() => 0),
      hidden: {
        units: 2,
        mean: Array(dim).fill(0),
        scale: Array(dim).fill(1),
        input: Array(dim * 2).fill(0.1),
        bias: [0, 0],
        output: [1, 1],
      },
    };
    expect(() => new LexicalHeadReranker(TOOLS, good)).not.toThrow();
    const bad: [string, HeadRerankWeights][] = [
      ['input too short', { ...good, hidden: { ...good.hidden!, input: Array(dim).fill(0) } }],
      ['a NaN bias', { ...good, hidden: { ...good.hidden!, bias: [0, NaN] } }],
      ['a zero scale', { ...good, hidden: { ...good.hidden!, scale: [0, ...Array(dim - 1).fill(1)] } }],
      ['no units', { ...good, hidden: { ...good.hidden!, units: 0, bias: [], output: [], input: [] } }],
      ['a linear weight missing', { ...good, weights: good.weights.slice(1) }],
      ['an infinite linear weight', { ...good, weights: [Infinity, ...good.weights.slice(1)] }],
    ];
    for (const [why, w] of bad) expect(() => new LexicalHeadReranker(TOOLS, w), why).toThrow(/fit-head-rerank/);
  });

  it('re-orders by the hidden layer where the linear weights are silent', () => {
    const dim = HEAD_FEATURE_NAMES.length;
    const meaning = HEAD_FEATURE_NAMES.indexOf('wordMeaning');
    const input = Array(dim).fill(0);
    input[meaning] = 1;
    const byMeaning: HeadRerankWeights = {
      featureNames: HEAD_FEATURE_NAMES,
      weights: Array(dim).fill(0),
      hidden: { units: 1, mean: Array(dim).fill(0), scale: Array(dim).fill(1), input, bias: [0], output: [1] },
    };
    const head = [
      { name: 'convert_currency', score: 1 },
      { name: 'get_weather', score: 1 },
    ];
    const s = new LexicalHeadReranker(TOOLS, byMeaning).rerank('Is it going to rain in Oslo tomorrow?', head, STATS)!;
    expect(s[1]).toBeGreaterThan(s[0]);
  });

  it('builds a profile only for the tools a head holds, and the rest when warmed', () => {
    const stage = new LexicalHeadReranker(TOOLS);
    stage.rerank(
      'weather in Paris',
      [
        { name: 'get_weather', score: 3 },
        { name: 'weather.history', score: 2 },
      ],
      STATS,
    );
    expect(stage.profilesBuilt).toBe(2);
    expect(stage.warm(1000)).toBe(true);
    expect(stage.profilesBuilt).toBe(4);
  });

  it('scores the same whether profiles were built lazily or by warm', () => {
    const head = [
      { name: 'convert_currency', score: 2 },
      { name: 'get_weather', score: 1.5 },
      { name: 'delete_file', score: 1 },
    ];
    const lazy = new LexicalHeadReranker(TOOLS).rerank('convert 100 dollars to euros', head, STATS);
    const warmed = new LexicalHeadReranker(TOOLS);
    warmed.warm(1000);
    expect(warmed.rerank('convert 100 dollars to euros', head, STATS)).toEqual(lazy);
  });

  it('leaves the order (undefined) for a head holding a name outside the snapshot or one that several tools share', () => {
    expect(
      new LexicalHeadReranker(TOOLS).rerank(
        'weather',
        [
          { name: 'nope', score: 9 },
          { name: 'get_weather', score: 1 },
        ],
        STATS,
      ),
    ).toBeUndefined();
    const twice = new LexicalHeadReranker([...TOOLS, { name: 'get_weather', description: 'Stock quotes.' }]);
    expect(
      twice.rerank(
        'weather',
        [
          { name: 'weather.history', score: 2 },
          { name: 'get_weather', score: 1 },
        ],
        STATS,
      ),
    ).toBeUndefined();
    expect(
      twice.rerank(
        'weather',
        [
          { name: 'weather.history', score: 2 },
          { name: 'convert_currency', score: 1 },
        ],
        STATS,
      ),
    ).toHaveLength(2);
  });

  it('reads a description or title that is not a string as no text, in warm and in rerank', () => {
    const odd = [...TOOLS, { name: 'odd', description: 42 as unknown as string, title: { x: 1 } as unknown as string }];
    const stage = new LexicalHeadReranker(odd);
    expect(
      stage.rerank(
        'weather',
        [
          { name: 'odd', score: 2 },
          { name: 'get_weather', score: 1 },
        ],
        STATS,
      ),
    ).toHaveLength(2);
    expect(() => new LexicalHeadReranker(odd).warm(1000)).not.toThrow();
  });

  it('reads only the first HEAD_QUERY_MAX_CHARS characters of a request', () => {
    const stage = new LexicalHeadReranker(TOOLS);
    const head = [
      { name: 'get_weather', score: 2 },
      { name: 'convert_currency', score: 1 },
    ];
    const q = 'weather in Paris '.repeat(60).slice(0, HEAD_QUERY_MAX_CHARS);
    expect(stage.rerank(q + ' convert currency dollars'.repeat(2000), head, STATS)).toEqual(stage.rerank(q, head, STATS));
  });

  it('reads the words of the first 100 properties of a schema level, so a schema of thousands costs no more', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [
        `field_${i}`,
        { type: 'string', description: i === 4999 ? 'The zebra of the record.' : 'The alpaca of the record.' },
      ]),
    );
    const huge = { name: 'huge', description: 'A huge form.', inputSchema: { type: 'object', properties } };
    const profile = buildProfile(huge, nameWordStats([huge]));
    expect(profile.allStems.has('alpaca')).toBe(true);
    expect(profile.allStems.has('zebra')).toBe(false);
    expect(profile.paramCount).toBe(5000);
  });

  it('gives the word-meaning feature from the mean word vectors: higher for a tool that means what the request asks, 0 without a table', () => {
    const meaning = HEAD_FEATURE_NAMES.indexOf('wordMeaning');
    expect(meaning).toBe(HEAD_FEATURE_NAMES.indexOf('scriptMismatch') - 1);
    const head = [
      { name: 'convert_currency', score: 1 },
      { name: 'get_weather', score: 1 },
    ];
    // no word of the request is a word of either tool: only their meaning tells them apart
    const f = new LexicalHeadReranker(TOOLS).features('Is it going to rain in Oslo tomorrow?', head, STATS);
    expect(f[1]![meaning]).toBeGreaterThan(f[0]![meaning] + 0.1);
    const none = new LexicalHeadReranker(TOOLS, HEAD_RERANK, false).features('Is it going to rain in Oslo tomorrow?', head, STATS);
    expect(none.map((x) => x![meaning])).toEqual([0, 0]);
    // the other features do not depend on the table
    expect(none.map((x) => x!.slice(0, meaning))).toEqual(f.map((x) => x!.slice(0, meaning)));
    expect(none.map((x) => x!.slice(meaning + 1))).toEqual(f.map((x) => x!.slice(meaning + 1)));
  });

  it("gives the script-mismatch feature: how far the CJK share of the request is from that of the tool's title and description", () => {
    expect(cjkShare('Get the current weather')).toBe(0);
    expect(cjkShare('获取天气')).toBe(1);
    expect(cjkShare('BBC 新闻')).toBeCloseTo(2 / 5, 12);
    expect(cjkShare('2024-01-01 !!')).toBe(0);
    const mismatch = HEAD_FEATURE_NAMES.indexOf('scriptMismatch');
    expect(mismatch).toBeGreaterThan(0);
    const tools = [...TOOLS, { name: 'get-bbc-news', description: '获取 BBC 新闻，提供全球新闻、英国新闻、商业、政治等资讯' }];
    const head = [
      { name: 'get-bbc-news', score: 1 },
      { name: 'get_weather', score: 1 },
    ];
    const stage = new LexicalHeadReranker(tools);
    expect(stage.features('latest world news', head, STATS).map((x) => x![mismatch])).toEqual([cjkShare(tools[4].description), 0]);
    expect(stage.features('今天的新闻', head, STATS).map((x) => x![mismatch])).toEqual([1 - cjkShare(tools[4].description), 1]);
  });

  it('reads words without their accents on both sides, skips hash-like parts of names, and never throws from warm', () => {
    const meaning = HEAD_FEATURE_NAMES.indexOf('wordMeaning');
    const cv = [{ name: 'make_cv', description: 'Créer un résumé professionnel.' }, ...TOOLS];
    const stage = new LexicalHeadReranker(cv);
    const head = [{ name: 'make_cv', score: 1 }];
    // "résumé" is "resume", not the fragment "sum"
    expect(stage.features('help me write my resume', head, STATS)[0]![meaning]).toBeGreaterThan(
      stage.features('add up the total sum', head, STATS)[0]![meaning],
    );
    expect(stage.features('help me write my résumé', head, STATS)[0]![meaning]).toBeCloseTo(
      stage.features('help me write my resume', head, STATS)[0]![meaning],
      6,
    );
    // an id's hash ("7e30dad4": no "dad") adds no words
    const hashed = new LexicalHeadReranker([{ ...TOOLS[0], name: 'svc:get_weather:7e30dad4' }]);
    const plain = new LexicalHeadReranker([TOOLS[0]]);
    expect(hashed.features('rain in Oslo', [{ name: 'svc:get_weather:7e30dad4', score: 1 }], STATS)[0]![meaning]).toBeCloseTo(
      plain.features('rain in Oslo', [{ name: 'get_weather', score: 1 }], STATS)[0]![meaning],
      6,
    );
    // a schema that throws once read more often than the profile reads it: the tool is left out, warm does not throw
    let reads = 0;
    const schema = {
      type: 'object',
      get properties() {
        if (++reads > 4) throw new Error('boom');
        return { city: { type: 'string' } };
      },
    };
    const odd = new LexicalHeadReranker([{ name: 'odd', description: 'Weather.', inputSchema: schema }, ...TOOLS]);
    expect(() => odd.warm(1000)).not.toThrow();
  });

  it('counts the required parameters a request holds no value for (requiredUnmet, at most 3) and marks a tool with none (noRequired)', () => {
    const unmet = HEAD_FEATURE_NAMES.indexOf('requiredUnmet');
    const none = HEAD_FEATURE_NAMES.indexOf('noRequired');
    const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
    const tools = [
      {
        name: 'history',
        description: 'Past weather of a city on a date.',
        inputSchema: obj({ city: { type: 'string' }, date: { type: 'string', format: 'date' } }, ['city', 'date']),
      },
      { name: 'fetch', description: 'Fetch a web page.', inputSchema: obj({ url: { type: 'string', format: 'uri' } }, ['url']) },
      {
        name: 'units',
        description: 'Convert a length.',
        inputSchema: obj({ value: { type: 'number' }, unit: { type: 'string', enum: ['meters', 'feet'] } }, ['value', 'unit']),
      },
      {
        name: 'paged',
        description: 'List pages.',
        inputSchema: obj({ page: { type: 'integer', default: 1 }, note: { type: 'string', description: 'Free text.' } }, ['page', 'note']),
      },
      {
        name: 'many',
        description: 'Four dates.',
        inputSchema: obj(Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [`${k}_date`, { type: 'string', format: 'date' }])), [
          'a_date',
          'b_date',
          'c_date',
          'd_date',
        ]),
      },
      { name: 'free', description: 'No required parameter.', inputSchema: obj({ q: { type: 'string' } }, []) },
    ];
    const stage = new LexicalHeadReranker(tools);
    const head = tools.map((t) => ({ name: t.name, score: 1 }));
    const read = (q: string) => stage.features(q, head, STATS).map((x) => [x![unmet], x![none]]);
    // history: the city is any words, the date needs a date; fetch: a URL; units: a number and one of its enum words;
    // paged: the page has a default, the note is free text; many: four dates, counted up to 3
    expect(read('weather in Paris')).toEqual([
      [1, 0],
      [1, 0],
      [2, 0],
      [0, 0],
      [3, 0],
      [0, 1],
    ]);
    expect(read('weather in Paris on 2024-05-01, see https://example.org, 12 feet')).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 1],
    ]);
    // a quoted value can be any of them
    expect(read('fetch "the front page"')[1]).toEqual([0, 0]);
    expect([...requestValues('mail bob@example.org by 5 pm').kinds].sort()).toEqual(expect.arrayContaining(['email', 'time']));
  });

  it('reads an enum as whole words: a short value inside another word does not count, a value of one letter or a boolean is no test, a number value takes any number', () => {
    const unmet = HEAD_FEATURE_NAMES.indexOf('requiredUnmet');
    const enumTool = (name: string, values: unknown[], type = 'string') => ({
      name,
      description: 'A tool.',
      inputSchema: { type: 'object', properties: { v: { type, enum: values } }, required: ['v'] },
    });
    const tools = [
      enumTool('country', ['us', 'uk']),
      enumTool('power', ['on', 'off']),
      enumTool('letters', ['', 'a', '+']),
      enumTool('flag', [true, false], 'boolean'),
      enumTool('order', ['asc', 'desc', null]),
      enumTool('size', [1, 2, 3], 'integer'),
      enumTool('speed', ['high speed', 'slow']),
    ];
    const stage = new LexicalHeadReranker(tools);
    const head = tools.map((t) => ({ name: t.name, score: 1 }));
    const read = (q: string) => stage.features(q, head, STATS).map((x) => x![unmet]);
    expect(read('show the status of London in 3 days')).toEqual([1, 1, 0, 0, 1, 0, 1]);
    expect(read('ship to the UK, power it ON, sort asc by High-Speed trains')).toEqual([0, 0, 0, 0, 0, 1, 0]);
  });

  it('reads an enum as the mapper does: a value in another form, a synonym or a zone named by its city counts as written', () => {
    const unmet = HEAD_FEATURE_NAMES.indexOf('requiredUnmet');
    const enumTool = (name: string, values: unknown[]) => ({
      name,
      description: 'A tool.',
      inputSchema: { type: 'object', properties: { v: { type: 'string', enum: values } }, required: ['v'] },
    });
    // (the last: an enum past the 64 values a tool the mapper's reading takes, read as whole words)
    const many = ['add', 'delete', ...Array.from({ length: 98 }, (_, i) => `extra${i}`)];
    const tools = [
      enumTool('todo', ['add', 'delete']),
      enumTool('zone', ['Europe/London', 'Asia/Tokyo']),
      enumTool('therapist', ['Family Counselor', 'Psychiatrist']),
      enumTool('big_todo', many),
    ];
    const stage = new LexicalHeadReranker(tools);
    const head = tools.map((t) => ({ name: t.name, score: 1 }));
    const read = (q: string) => stage.features(q, head, STATS).map((x) => x![unmet]);
    // none of the values written as whole words (the quick word test alone read 1, 1, 1)
    expect(read('remove the milk item, at 4pm London time, some family counseling')).toEqual([0, 0, 0, 1]);
    expect(read('show me the weather')).toEqual([1, 1, 1, 1]);
    expect(read('delete the milk item')).toEqual([0, 1, 1, 0]);
    // a tool's first 8 required enums are read the mapper's way, the 9th as whole words
    const nine = Array.from({ length: 9 }, (_, i) => `op${i}`);
    const wide = {
      name: 'wide',
      description: 'A tool.',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(nine.map((k) => [k, { type: 'string', enum: ['add', 'delete'] }])),
        required: nine,
      },
    };
    expect(new LexicalHeadReranker([wide]).features('remove it', [{ name: 'wide', score: 1 }], STATS)[0]![unmet]).toBe(1);
    // past the other bounds (a description over 500 characters, a value of more than 8 words), whole words again
    const bounded = (name: string, v: Record<string, unknown>) => ({
      name,
      description: 'A tool.',
      inputSchema: { type: 'object', properties: { v }, required: ['v'] },
    });
    const past = [
      bounded('long_note', { type: 'string', enum: ['add', 'delete'], description: 'What to do. '.repeat(50) }),
      bounded('long_value', { type: 'string', enum: ['add', 'delete', 'one two three four five six seven eight nine'] }),
    ];
    expect(
      new LexicalHeadReranker(past)
        .features(
          'remove it',
          past.map((t) => ({ name: t.name, score: 1 })),
          STATS,
        )
        .map((x) => x![unmet]),
    ).toEqual([1, 1]);
    const within = [bounded('short_note', { type: 'string', enum: ['add', 'delete'], description: 'What to do.' })];
    expect(new LexicalHeadReranker(within).features('remove it', [{ name: 'short_note', score: 1 }], STATS)[0]![unmet]).toBe(0);
    // (where the request cannot be analysed, the words alone: requestValues keeps no doc)
    expect(requestValues('remove it').doc).toBeDefined();
  });

  it('reads only the required parameters of a schema, whatever its size (requiredParams), and at most 3 of them as unmet', () => {
    let reads = 0;
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++)
      Object.defineProperty(properties, `field_${i}`, { enumerable: true, get: () => (reads++, { type: 'string', format: 'date' }) });
    const schema = { type: 'object', properties, required: ['field_7', 'field_8', 'no_such_field', 'field_9', 'field_10', 7, 'field_7'] };
    expect(requiredParams(schema, 32).map((p) => [p.name, p.semantic, p.type])).toEqual(
      ['field_7', 'field_8', 'field_9', 'field_10'].map((n) => [n, 'date', 'string']),
    );
    expect(reads).toBe(4);
    expect(requiredParams(schema, 2).map((p) => p.name)).toEqual(['field_7', 'field_8']);
    expect(requiredParams({ type: 'object', properties: { a: {} }, required: 'a' }, 32)).toEqual([]);
    const tool = { name: 'big', description: 'A big form.', inputSchema: schema };
    const f = new LexicalHeadReranker([tool]).features('fill in the big form', [{ name: 'big', score: 1 }], STATS)[0]!;
    expect(f[HEAD_FEATURE_NAMES.indexOf('requiredUnmet')]).toBe(3);
    expect(f[HEAD_FEATURE_NAMES.indexOf('noRequired')]).toBe(0);
    // a value after the first REQUEST_VALUES_MAX_CHARS characters is not read
    expect(requestValues('x '.repeat(REQUEST_VALUES_MAX_CHARS / 2) + ' on 2024-05-01').kinds.has('date')).toBe(false);
    expect(requestValues('on 2024-05-01').kinds.has('date')).toBe(true);
  });

  it('puts the tool whose required parameters the request fills before one that asks for a date it does not give (the shipped weights)', () => {
    const tools = [
      {
        name: 'weather_history',
        description: 'Get the weather of a city on a past date.',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, date: { type: 'string', format: 'date' } },
          required: ['city', 'date'],
        },
      },
      {
        name: 'current_weather',
        description: 'Get the weather of a city now.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const stats = { size: 3000, docFreq: (t: string): number => (t === 'weather' ? 30 : 10) };
    const s = new LexicalHeadReranker(tools).rerank(
      'What is the weather in Paris?',
      [
        { name: 'weather_history', score: 5 },
        { name: 'current_weather', score: 5 },
      ],
      stats,
    )!;
    expect(s[1]).toBeGreaterThan(s[0]);
  });

  it('prefers the tool whose name and description cover the request when the search scores are close', () => {
    const s = new LexicalHeadReranker(TOOLS).rerank(
      'convert 100 US dollars into euros',
      [
        { name: 'delete_file', score: 1.01 },
        { name: 'convert_currency', score: 1 },
      ],
      STATS,
    );
    expect(s?.[1]).toBeGreaterThan(s?.[0] ?? Infinity);
  });
});
