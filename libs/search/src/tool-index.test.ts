import { describe, expect, it } from 'vitest';
import { splitQualifiedName } from '@toolsurface/analysis';
import { ToolIndex } from './tool-index.js';
import type { SearchableTool } from './types.js';
import { SMALL } from './tool-index.test-data.js';

/** Whether this runtime's ICU segments Thai by dictionary (a Node built with small ICU does not: the analyzer then falls back to character grams). */
const THAI_SEGMENTED =
  typeof Intl.Segmenter === 'function' &&
  [...new Intl.Segmenter('und', { granularity: 'word' }).segment('บริการรีดผ้า')].filter((s) => s.isWordLike).length > 1;
if (!THAI_SEGMENTED)
  console.log('skipped: the Thai segmentation tests need Node with full ICU (Intl.Segmenter with dictionary word breaks)');

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

describe('splitQualifiedName', () => {
  it('finds the tool name inside namespaced and hashed ids', () => {
    expect(splitQualifiedName('bfcl:math.factorial:10fae9e4')).toEqual({ base: 'math.factorial', qualifiers: ['bfcl'] });
    expect(splitQualifiedName('github:create_issue')).toEqual({ base: 'create_issue', qualifiers: ['github'] });
    expect(splitQualifiedName('plain_name')).toEqual({ base: 'plain_name', qualifiers: [] });
  });
});

// The failures public reports keep showing for tool search in peer products, one case each.
