import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitQualifiedName } from '@toolsurface/analysis';
import { ToolIndex, type HeadReranker, type ToolIndexOptions } from './tool-index.js';
import type { SearchableTool } from './types.js';

/** Whether this runtime's ICU segments Thai by dictionary (a Node built with small ICU does not: the analyzer then falls back to character grams). */
const THAI_SEGMENTED =
  typeof Intl.Segmenter === 'function' &&
  [...new Intl.Segmenter('und', { granularity: 'word' }).segment('บริการรีดผ้า')].filter((s) => s.isWordLike).length > 1;
if (!THAI_SEGMENTED)
  console.log('skipped: the Thai segmentation tests need Node with full ICU (Intl.Segmenter with dictionary word breaks)');

const SMALL: SearchableTool[] = [
  {
    name: 'get_current_weather',
    title: 'Current Weather',
    description: 'Get the current weather conditions for a city.',
    inputSchema: {
      type: 'object',
      properties: { location: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    },
  },
  {
    name: 'math.factorial',
    description: 'Calculate the factorial of a given number.',
    inputSchema: { type: 'object', properties: { number: { type: 'integer' } } },
  },
  {
    name: 'search_flights',
    description: 'Search for flights between two airports on a date.',
    inputSchema: { type: 'object', properties: { origin: { type: 'string' }, destination: { type: 'string' } } },
  },
  {
    name: 'bing_search',
    description: '使用必应搜索指定的关键词，并返回搜索结果列表',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: '搜索关键词' } } },
  },
  { name: 'send_email', description: 'Send an e-mail message to a recipient.' },
  { name: 'weather', description: 'Weather forecast for the next days.' },
];

describe('ToolIndex on a small catalog', () => {
  const index = ToolIndex.build(SMALL);

  it('reports its size', () => {
    expect(index.size).toBe(SMALL.length);
    expect(ToolIndex.build([]).size).toBe(0);
  });

  it('ranks by content and respects the limit', () => {
    expect(index.search('current temperature in Paris', 3)[0].name).toBe('get_current_weather');
    expect(index.search('book a plane ticket from SFO to JFK', 3)[0].name).toBe('search_flights');
    expect(index.search('factorial of 10', 3)[0].name).toBe('math.factorial');
    expect(index.search('weather', 1)).toHaveLength(1);
    expect(index.search('weather', 0)).toEqual([]);
  });

  it('puts the exact name, last dotted segment or title first', () => {
    expect(index.search('weather', 5)[0].name).toBe('weather');
    expect(index.search('get_current_weather', 5)[0].name).toBe('get_current_weather');
    expect(index.search('getCurrentWeather', 5)[0].name).toBe('get_current_weather');
    expect(index.search('factorial', 5)[0].name).toBe('math.factorial');
    expect(index.search('Current Weather', 5)[0].name).toBe('get_current_weather');
  });

  it('reaches a Chinese description from Chinese and from English', () => {
    expect(index.search('帮我搜索一下关键词', 3)[0].name).toBe('bing_search');
    expect(index.search('请问北京的天气', 3)[0].name).toMatch(/weather/);
  });

  it.runIf(THAI_SEGMENTED)('finds a Thai-described tool from a Thai request that shares its words', () => {
    const tools = [
      {
        name: 'get_service_id',
        description: 'ค้นหาแม่บ้านที่ให้บริการรีดผ้าและทำความสะอาด',
        inputSchema: { type: 'object', properties: { service: { type: 'integer' } } },
      },
      { name: 'book_massage', description: 'จองบริการนวดแผนไทย', inputSchema: { type: 'object', properties: { time: { type: 'string' } } } },
      { name: 'send_email', description: 'Send an email.', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } },
    ];
    const index = ToolIndex.build(tools);
    // "help me find a maid who offers ironing"
    expect(index.search('ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้า', 3)[0].name).toBe('get_service_id');
    // "book a Thai massage"
    expect(index.search('ช่วยจองนวดแผนไทยให้หน่อย', 3)[0].name).toBe('book_massage');
  });

  it.runIf(THAI_SEGMENTED)("gives a Thai-named tool the name prior when a request holds its name's words", () => {
    // (the name's words are read as the request's are; a name read as one run met none of them)
    const one = (name: string, description: string): SearchableTool => ({
      name,
      description,
      inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    });
    // (the other tool's description repeats the name's words; the named tool's says them in English)
    const tools = [
      one('จองนวดแผนไทย', 'Book a massage.'),
      one('massage_booking', 'จองนวดแผนไทย บริการนวดแผนไทย จองนวด นวดแผนไทย แผนไทย'),
      one('send_email', 'Send an email.'),
    ];
    // "book a Thai massage, urgent" (lexical stages alone: the static table's cosine favours the
    // Thai description over the English one whatever the name says)
    expect(ToolIndex.build(tools, { semanticWeight: 0 }).search('จองนวดแผนไทย ด่วน', 2)[0].name).toBe('จองนวดแผนไทย');
  });

  it('reads no words out of an encoded blob in the request', () => {
    const tools = [
      {
        name: 'extract_image_from_base64',
        description: 'Decode a base64 image and describe it.',
        inputSchema: { type: 'object', properties: { data: { type: 'string' } } },
      },
      { name: 'vbo_render', description: 'Render a VBO buffer.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
      {
        name: 'aa_ggo_lookup',
        description: 'Look up AA GGO records.',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      },
    ];
    const q = 'What does this base64 image mean?\niVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlw';
    expect(
      ToolIndex.build(tools)
        .search(q, 3)
        .map((h) => h.name),
    ).toEqual(['extract_image_from_base64']);
  });

  it('reads 当前/目前 as "current"', () => {
    const tools = [
      {
        name: 'get_weather_forecast',
        description: 'Weather forecast for the next days in a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      {
        name: 'get_current_weather',
        description: 'Current weather conditions in a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    expect(ToolIndex.build(tools).search('我想知道上海目前的天气状况', 2)[0].name).toBe('get_current_weather');
  });

  it('reads a CJK word the table translates through the word, not again through its characters', () => {
    const tools = [
      {
        name: 'list_tickets',
        description: 'List the open support tickets of a company.',
        inputSchema: { type: 'object', properties: { company: { type: 'string' } } },
      },
      {
        name: 'card_image',
        description: '获取卡片的图片',
        inputSchema: { type: 'object', properties: { id: { type: 'string', description: '卡片编号' } } },
      },
      { name: 'recipes', description: '获取所有菜谱', inputSchema: { type: 'object', properties: {} } },
      { name: 'buy_train_ticket', description: 'Buy a train ticket.' },
      { name: 'send_email', description: 'Send an e-mail message to a recipient.' },
      { name: 'translate_text', description: 'Translate a text into another language.' },
    ];
    const index = ToolIndex.build(tools);
    // 获取 (get) is all the Chinese descriptions share with the request; 工单 (ticket) is what it
    // asks for. Counted again as 获 and 取, the verb would put both Chinese tools first.
    expect(index.search('获取阿迪达斯的工单', 3)[0].name).toBe('list_tickets');
    // a request in the words of a Chinese description still finds it first
    expect(index.search('获取卡片的图片', 3)[0].name).toBe('card_image');
    expect(index.search('获取所有菜谱', 3)[0].name).toBe('recipes');
  });

  it('puts the English tool a long Chinese request asks for before Chinese descriptions that share only scattered characters with it', () => {
    const obj = (props: Record<string, string>) => ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])),
    });
    const tools = [
      {
        name: 'get-stations-code-in-city',
        description: '通过中文城市名查询该城市 **所有** 火车站的名称及其对应的 `station_code`，结果是一个包含多个车站信息的列表。',
        inputSchema: obj({ city: '中文城市名称' }),
      },
      {
        name: 'get-station-code-of-citys',
        description:
          '通过中文城市名查询代表该城市的 `station_code`。此接口主要用于在用户提供**城市名**作为出发地或到达地时，为接口准备 `station_code` 参数。',
        inputSchema: obj({ citys: '要查询的城市，比如"北京"。若要查询多个城市，请用|分割，比如"北京|上海"。' }),
      },
      { name: 'get-bbc-news', description: '获取 BBC 新闻，提供全球新闻、英国新闻、商业、政治、健康、教育、科技、娱乐等资讯' },
      {
        name: 'get-zhihu-trending',
        description: '获取知乎热榜，包含时事热点、社会话题、科技动态、娱乐八卦等多领域的热门问答和讨论的中文资讯',
      },
      {
        name: 'get_current_weather',
        description: 'Get the current weather in a given location.',
        inputSchema: obj({ location: 'The city and state, e.g. San Francisco, CA', unit: 'The unit of temperature' }),
      },
      {
        name: 'get_forecast',
        description: 'Weather forecast for the next days in a city.',
        inputSchema: obj({ city: 'City name', days: 'Number of days' }),
      },
      {
        name: 'get_ticker_news',
        description: 'Get the latest news articles and press releases about one company from its stock ticker symbol.',
        inputSchema: obj({ ticker: 'Stock ticker symbol, e.g. AAPL' }),
      },
      {
        name: 'search_flights',
        description: 'Search for flights between two airports on a date.',
        inputSchema: obj({ origin: 'Origin airport code', destination: 'Destination airport code', date: 'Departure date' }),
      },
      {
        name: 'send_email',
        description: 'Send an e-mail message to a recipient with a subject and a body.',
        inputSchema: obj({ to: 'Recipient address', subject: 'Subject line', body: 'Message text' }),
      },
      {
        name: 'create_event',
        description: 'Create a calendar event with a title, a start time and an end time.',
        inputSchema: obj({ title: 'Event title', start: 'Start time', end: 'End time' }),
      },
    ];
    // (市 of 广州市 and 北京市, 中 of 中国, 查 and 用 read alone would give the station tools more than 天气 → weather gives the weather tool)
    const index = ToolIndex.build(tools, { semantic: false });
    expect(index.search('能帮我查一下中国广州市和北京市现在的天气状况吗？请使用公制单位。', 2)[0].name).toBe('get_current_weather');
    // a request in the words of a Chinese description still finds it first
    expect(index.search('查询城市的火车站名称', 2)[0].name).toBe('get-stations-code-in-city');
  });

  it('gives finite scores to a tool whose parameter name is one CJK character (its field one word long)', () => {
    const tools = [
      { name: 'lookup', description: 'Look up a person.', inputSchema: { type: 'object', properties: { 名: { type: 'string' } } } },
      { name: 'other', description: 'Look up a city by 名 name.' },
    ];
    const hits = ToolIndex.build(tools).search('名', 5);
    expect(hits.map((h) => h.name).sort()).toEqual(['lookup', 'other']);
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
  });

  it('reaches an English tool from a Korean word with a particle after it', () => {
    const tools = [
      {
        name: 'news_search',
        description: 'Search recent news articles.',
        inputSchema: { type: 'object', properties: { keyword: { type: 'string' } } },
      },
      {
        name: 'appliance_control',
        description: 'Turn a home appliance on or off.',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
      },
    ];
    // (뉴스를: "news" with its object particle)
    expect(ToolIndex.build(tools).search('최근 박지성에 관한 뉴스를 찾아줘', 2)[0].name).toBe('news_search');
    expect(ToolIndex.build(tools, { synonyms: false }).search('최근 박지성에 관한 뉴스를 찾아줘', 2)).toEqual([]);
  });

  it('returns finite, non-negative scores in descending order', () => {
    const hits = index.search('weather forecast for a city', 10);
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 0; i < hits.length; i++) {
      expect(Number.isFinite(hits[i].score)).toBe(true);
      expect(hits[i].score).toBeGreaterThanOrEqual(0);
      if (i > 0) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    }
  });

  it('never throws on hostile input', () => {
    const inputs: unknown[] = [
      '',
      ' ',
      'x'.repeat(10_000),
      'weather '.repeat(2_000),
      '🔥🌧️☔️ 😀',
      '天气'.repeat(3_000),
      '(.*+?^${}()|[]\\/',
      '\u0000\uffff\ud800',
      'constructor __proto__ hasOwnProperty toString',
      null,
      undefined,
      42,
      {},
    ];
    for (const q of inputs) {
      for (const limit of [0, 1, 10, -5, 1.7, Number.NaN, Number.POSITIVE_INFINITY, 1e9]) {
        const hits = index.search(q as string, limit);
        expect(Array.isArray(hits)).toBe(true);
        expect(hits.length).toBeLessThanOrEqual(Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0);
        for (const h of hits) expect(Number.isFinite(h.score) && h.score >= 0).toBe(true);
      }
    }
  });

  it('indexes tools with odd or missing fields', () => {
    const odd = ToolIndex.build([
      { name: 'a' },
      { name: '', description: '' },
      { name: 'b', inputSchema: { properties: null } as unknown as Record<string, unknown> },
      { name: 'c', inputSchema: { properties: { p: { items: { properties: { deep: {} } } } } } },
      { name: 'd', description: 'x'.repeat(200_000) },
    ]);
    expect(odd.size).toBe(5);
    expect(odd.search('deep', 5)[0].name).toBe('c');
  });

  it('demotes a tool named like one ranked above it (same name under another server or casing)', () => {
    const tools: SearchableTool[] = [
      { name: 'srv1:get_weather', description: 'Get the current weather for a city.' },
      { name: 'srv2:getWeather', description: 'Get the current weather for a city today.' },
      { name: 'weather_forecast', description: 'Get the weather forecast for a city.' },
    ];
    const on = ToolIndex.build(tools, { diversity: 0 })
      .search('current weather for a city', 3)
      .map((h) => h.name);
    const off = ToolIndex.build(tools, { diversity: 0, sameNameDemotion: 0 })
      .search('current weather for a city', 3)
      .map((h) => h.name);
    expect(off.slice(0, 2).sort()).toEqual(['srv1:get_weather', 'srv2:getWeather']);
    expect(on[1]).toBe('weather_forecast');
  });

  it('orders tools the words cannot tell apart by meaning (semantic stage), and keeps exact names first', () => {
    // each request shares one word with both tools: lexically the shorter description wins
    const cases: [string, SearchableTool[], string][] = [
      [
        'open something funny to watch',
        [
          { name: 'open_file', description: 'Open a file.' },
          { name: 'open_comedy', description: 'Open a comedy video.' },
        ],
        'open_comedy',
      ],
      [
        'book somewhere to stay tonight',
        [
          { name: 'book_table', description: 'Book a table.' },
          { name: 'book_hotel', description: 'Book a hotel room.' },
        ],
        'book_hotel',
      ],
    ];
    for (const [request, tools, meant] of cases) {
      const other = tools.find((t) => t.name !== meant)!.name;
      expect(
        ToolIndex.build(tools, { semantic: false })
          .search(request, 2)
          .map((h) => h.name),
      ).toEqual([other, meant]);
      expect(
        ToolIndex.build(tools, { semanticWeight: 0 })
          .search(request, 2)
          .map((h) => h.name),
      ).toEqual([other, meant]);
      expect(
        ToolIndex.build(tools)
          .search(request, 2)
          .map((h) => h.name),
      ).toEqual([meant, other]);
      // a request that is a tool's name still returns that tool first, whatever the meaning says
      expect(ToolIndex.build(tools).search(other, 2)[0].name).toBe(other);
    }
  });
});

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

describe('splitQualifiedName', () => {
  it('finds the tool name inside namespaced and hashed ids', () => {
    expect(splitQualifiedName('bfcl:math.factorial:10fae9e4')).toEqual({ base: 'math.factorial', qualifiers: ['bfcl'] });
    expect(splitQualifiedName('github:create_issue')).toEqual({ base: 'create_issue', qualifiers: ['github'] });
    expect(splitQualifiedName('plain_name')).toEqual({ base: 'plain_name', qualifiers: [] });
  });
});

// The failures public reports keep showing for tool search in peer products, one case each.
describe('failure kinds of tool search', () => {
  const CATALOG: SearchableTool[] = [
    { name: 'ls', description: 'List directory contents.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'git', description: 'Run a git command in a repository.' },
    { name: 'git_status', description: 'Show the working tree status of a git repository.' },
    { name: 'github_search', description: 'Search GitHub repositories, issues and code.' },
    { name: 'cd', description: 'Change the working directory.' },
    { name: 'rm', description: 'Remove files or directories.' },
    { name: 'jq', description: 'Filter and transform JSON with a jq program.' },
    { name: 'ps', description: 'Report the running processes.' },
    { name: 'do', description: 'Run a task now.' },
    { name: 'fs.ls', description: 'List a folder of the virtual file system; like ls.' },
    { name: 'list_directory', description: 'List the files and folders in a directory (ls, dir).' },
    { name: 'remove_file', description: 'Delete a file: rm for one file.' },
    { name: 'get_weather', description: 'Current weather for a city.' },
    { name: 'get_weather_forecast', description: 'Get weather forecast: get the weather for the next days, get weather by city.' },
    { name: 'weather_alerts', description: 'Severe weather alerts; use it to get weather warnings and get weather news.' },
    { name: 'getWeatherHistory', description: 'Weather of past days for a city: get weather history.' },
  ];
  const index = ToolIndex.build(CATALOG);
  const first = (q: string): string | undefined => index.search(q, 5)[0]?.name;

  it('exact name: a tool asked for by its exact name is found first, ahead of tools whose text repeats the name', () => {
    for (const t of CATALOG) expect(first(t.name), t.name).toBe(t.name);
    // the same name in other spellings
    expect(first('get weather')).toBe('get_weather');
    expect(first('getWeather')).toBe('get_weather');
    expect(first('GET_WEATHER')).toBe('get_weather');
    expect(first('get_weather_history')).toBe('getWeatherHistory');
    // written as one word: the analyzer joins a request's camelCase words, not a tool's name
    expect(first('getweatherhistory')).toBe('getWeatherHistory');
    expect(first('getweather')).toBe('get_weather');
    // the last segment of a dotted name
    expect(
      index
        .search('ls', 5)
        .map((h) => h.name)
        .slice(0, 2),
    ).toEqual(['ls', 'fs.ls']);
  });

  it('short names: tools named with 2-3 characters are found alone, in a request, and when the name is a stop word', () => {
    for (const name of ['ls', 'cd', 'rm', 'jq', 'ps', 'git', 'do']) expect(first(name), name).toBe(name);
    expect(first('LS')).toBe('ls');
    // named inside a request: among the first three (fs.ls and list_directory rightly compete)
    const top3 = (q: string): string[] => index.search(q, 3).map((h) => h.name);
    expect(top3('run ls on /tmp')).toContain('ls');
    expect(top3('ls -la')).toContain('ls');
    expect(top3('show running processes with ps')).toContain('ps');
    expect(first('use git to commit')).toBe('git');
    expect(first('jq filter')).toBe('jq');
    expect(first('rm the old file')).toBe('rm');
    // "do" and "it" are stop words: a request made only of them is still read
    expect(first('do it')).toBe('do');
  });

  it('short names: a name a description writes in camelCase (GitHub, arXiv, YouTube) is found as one word, and the other way round', () => {
    const brands = ToolIndex.build([
      { name: 'search_code', description: 'Search code on GitHub.' },
      {
        name: 'get_paper',
        description: 'Get one paper.',
        inputSchema: { type: 'object', properties: { paper_id: { type: 'string', description: 'arXiv paper ID' } } },
      },
      { name: 'play_video', description: 'Play a YouTube video.' },
      { name: 'git_commit', description: 'Record changes in a git repository.' },
      { name: 'hub_status', description: 'Status of the hub.' },
      { name: 'youtube_dl', description: 'Download media.' },
      { name: 'get_weather', description: 'Current weather.' },
    ]);
    const top = (q: string): string | undefined => brands.search(q, 5)[0]?.name;
    // split into "git" and "hub" alone, "github" matched no tool and "arxiv" only by its digits
    expect(top('github')).toBe('search_code');
    expect(top('Github code')).toBe('search_code');
    expect(top('arxiv')).toBe('get_paper');
    expect(top('play a youtube video')).toBe('play_video');
    // a request that writes the camelCase form finds a tool named with the joined word
    expect(
      brands
        .search('YouTube', 2)
        .map((h) => h.name)
        .sort(),
    ).toEqual(['play_video', 'youtube_dl']);
  });

  it('no match: a search with no word in common with any tool returns [] (the service turns it into a reason and a hint)', () => {
    expect(index.search('zzqx frobnicate', 5)).toEqual([]);
    expect(ToolIndex.build([]).search('weather', 5)).toEqual([]);
  });
});

describe('deprecated tools', () => {
  // server-filesystem's own texts
  const fs: SearchableTool[] = [
    {
      name: 'read_file',
      title: 'Read File (Deprecated)',
      description: 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
    },
    {
      name: 'read_text_file',
      title: 'Read Text File',
      description: 'Read the complete contents of a file from the file system as text. Handles various text encodings.',
    },
    { name: 'npmDeprecated', description: 'Check if packages are deprecated' },
  ];

  it('ranks a tool that says it is deprecated after the one that replaces it, and still first by its exact name', () => {
    const index = ToolIndex.build(fs);
    for (const q of ['read a file', 'read the contents of a file', 'read a text file'])
      expect(
        index.search(q, 2).map((h) => h.name),
        q,
      ).toEqual(['read_text_file', 'read_file']);
    expect(index.search('read_file', 1)[0].name).toBe('read_file');
    // a tool about deprecation is not itself deprecated
    expect(index.search('is this npm package deprecated', 1)[0].name).toBe('npmDeprecated');
    // deprecatedDemotion 0 turns it off
    expect(ToolIndex.build(fs, { deprecatedDemotion: 0 }).search('read a file', 1)[0].name).toBe('read_file');
  });

  it('lists a tool once and keeps it for later searches when its postings add 0 (field weights of 5e-324)', () => {
    // (a doc listed again on each posting that adds 0 would overflow the reused list, and the one
    // left out would keep its score past the search, so no later search would find it)
    const tools: SearchableTool[] = [
      ...Array.from({ length: 9 }, (_, i) => ({ name: `t${i}`, description: 'red blue' })),
      { name: 'target', description: 'green' },
    ];
    const tiny = 5e-324;
    const opts: ToolIndexOptions = {
      semantic: false,
      fieldWeights: { name: tiny, title: tiny, description: tiny, params: tiny, paramDescriptions: tiny },
    };
    const index = ToolIndex.build(tools, opts);
    const names = index.search('red blue green', 20).map((h) => h.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('target');
    expect(index.search('green', 20).map((h) => h.name)).toEqual(['target']);
    expect(index.search('target', 20)[0]?.name).toBe('target');
  });

  it('lists a tool once for its exact name when a full demotion takes its score to 0', () => {
    // (the exact-name tier must not list it a second time: its score would read as that of a tool no term reached)
    const index = ToolIndex.build(fs, { deprecatedDemotion: 1 });
    for (const q of ['read_file', 'Read File (Deprecated)']) {
      const names = index.search(q, 10).map((h) => h.name);
      expect(names[0], q).toBe('read_file');
      expect(new Set(names).size, q).toBe(names.length);
    }
  });

  it('lets a deprecated tool gain no place over a tool that is not deprecated, whatever the head stage does', () => {
    const words = ['read', 'write', 'file', 'text', 'issue', 'create', 'delete', 'list', 'search', 'note'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...words), fc.boolean()), { minLength: 6, maxLength: 25 }),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 25, maxLength: 25 }),
        fc.constantFrom(...words),
        (specs, stageScores, word) => {
          const tools: SearchableTool[] = specs.map(([a, b, old], i) => ({
            name: `${a}_${b}_${i}`,
            description: `${old ? 'DEPRECATED: ' : ''}${a} a ${b} and more ${b}`,
          }));
          const stage: HeadReranker = { rerank: (_q, head) => head.map((_, i) => stageScores[i % stageScores.length]) };
          const q = `${word} a ${words[(words.indexOf(word) + 1) % words.length]}`;
          const before = ToolIndex.build(tools, { semantic: false })
            .search(q, 15)
            .map((h) => h.name);
          const after = ToolIndex.build(tools, { semantic: false, headReranker: stage })
            .search(q, 15)
            .map((h) => h.name);
          const isOld = (name: string): boolean => tools.find((t) => t.name === name)!.description!.startsWith('DEPRECATED');
          // (how many tools that are not deprecated stand above it)
          const above = (list: string[], name: string): number => list.slice(0, list.indexOf(name)).filter((n) => !isOld(n)).length;
          for (const name of after)
            if (isOld(name) && before.includes(name)) expect(above(after, name), name).toBeGreaterThanOrEqual(above(before, name));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the order with a head stage that prefers the deprecated tool (the service runs one)', () => {
    // a stage scoring each tool alone knows nothing of deprecation: the order must hold after it,
    // or the discovery service, which runs one, ranks read_file first
    const likesDeprecated: HeadReranker = { rerank: (_q, head) => head.map((h) => (h.name === 'read_file' ? 10 : 0)) };
    const index = ToolIndex.build(fs, { headReranker: likesDeprecated });
    for (const q of ['read a file', 'read a text file'])
      expect(
        index.search(q, 2).map((h) => h.name),
        q,
      ).toEqual(['read_text_file', 'read_file']);
  });
});

describe('clause guarantee with repeated names', () => {
  // names should be unique, but a repeated name is indexed as separate tools: moving one copy
  // must neither drop the other nor depend on where the other lies
  const verbs = ['get', 'create', 'delete', 'list', 'convert'];
  const objects = ['invoice', 'flight', 'weather', 'playlist', 'recipe', 'ticket'];
  const catalog: SearchableTool[] = [];
  for (const v of verbs)
    for (const o of objects)
      for (const copy of [0, 1])
        catalog.push({
          name: `${v}_${o}`,
          description: `${v} the ${o} ${copy === 0 ? 'records for a customer account' : 'details by its identifier and date'}`,
        });
  const on = ToolIndex.build(catalog);
  const off = ToolIndex.build(catalog, { clauseSlots: 0 });
  const multiset = (hits: { name: string }[]): string[] => hits.map((h) => h.name).sort();

  it('returns the same hits as without it, only re-ordered, and the first k of a longer list', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(...verbs),
            fc.constantFrom(...objects),
            fc.constantFrom('customer account records', 'details by identifier', 'for the date'),
          ),
          { minLength: 2, maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 80 }),
        (steps, k) => {
          const q = steps.map(([v, o, rest]) => `${v} the ${o} ${rest}`).join('. Then ');
          const all = on.search(q, 100);
          expect(multiset(all)).toEqual(multiset(off.search(q, 100)));
          expect(on.search(q, k)).toEqual(all.slice(0, k));
        },
      ),
      { numRuns: 150 },
    );
  });
});
