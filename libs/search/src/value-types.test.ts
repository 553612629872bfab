import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { readOperations, valueTypeTerms } from './value-types.js';

/** The words of the operations a request writes between numbers. */
const operationWords = (query: string): string[] => readOperations(query).words;

describe('valueTypeTerms', () => {
  it('finds a date in English and Chinese wordings', () => {
    for (const q of [
      'the forecast on March 4th, 2023',
      'on the 4th of march',
      'due 2023-03-08',
      'on 3/8/2023',
      'tomorrow in Paris',
      'next Wednesday',
      'this weekend',
      '明天北京的天气',
      '3月8日的航班',
    ]) {
      expect(valueTypeTerms(q), q).toContain('date');
    }
  });

  it('finds a clock time', () => {
    for (const q of ['move it to 4:30 PM', 'remind me at 9pm', 'at 11:00 a.m. sharp', 'the 16:45 train'])
      expect(valueTypeTerms(q), q).toContain('time');
  });

  it('finds nothing in requests without such values', () => {
    for (const q of ['market 12 stocks', 'a ratio of 3/4', 'version 1.2.3', 'find 5 apples', 'get the weather'])
      expect(valueTypeTerms(q), q).toEqual([]);
  });

  it('lets a request that holds a date prefer the tool that takes a date', () => {
    const tools = [
      {
        name: 'city_weather',
        description: 'Weather conditions and forecast for a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      {
        name: 'city_weather_v2',
        description: 'Weather report of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' }, date: { type: 'string', description: 'Day, YYYY-MM-DD' } } },
      },
    ];
    const query = 'weather in Campbell on March 4th, 2023';
    expect(ToolIndex.build(tools).search(query, 2)[0].name).toBe('city_weather_v2');
    // without the value type the other tool wins: the date is what decides
    expect(ToolIndex.build(tools, { valueTypeWeight: 0 }).search(query, 2)[0].name).toBe('city_weather');
  });
});

describe('readOperations', () => {
  it('reads an arithmetic operation written between two numbers', () => {
    expect(operationWords('How much is 394 times 213?')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('compute 443 * 349')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('what is 2.5×4')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('how much is 1 + 1 ?')).toEqual(['add', 'sum', 'math', 'calculate']);
    expect(operationWords('100 minus 40')).toEqual(['subtract', 'math', 'calculate']);
    expect(operationWords('12 − 5 = ?')).toEqual(['subtract', 'math', 'calculate']);
    expect(operationWords('84 divided by 7')).toEqual(['divide', 'quotient', 'math', 'calculate']);
  });

  it('reads no operation in dates, ranges, versions or a word alone', () => {
    for (const q of [
      'on 2023-10-01',
      'on 3/8/2023',
      'pages 10-20',
      'version 1.2-3',
      'what time is it',
      'three times a day',
      'C++ tutorials for 5 days',
      'a 3 x 4 grid',
      'Call me at 555 - 1234',
      'Call +44 20 - 7946 - 0958 please',
      'a 9 - 5 shift',
      'aspect ratio 16 / 9',
      'Remind me 3 times 2 hours before the meeting',
      'from 10:30 + 5 minutes',
    ])
      expect(operationWords(q), q).toEqual([]);
  });

  it('lets "394 times 213" reach a multiplying tool, while "times" alone is still about time', () => {
    const tools = [
      {
        name: 'calc_product',
        description: 'Calculates the product of two numbers.',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      },
      {
        name: 'get_current_time',
        description: 'Current time in a time zone.',
        inputSchema: { type: 'object', properties: { timezone: { type: 'string' } } },
      },
    ];
    const index = ToolIndex.build(tools);
    expect(index.search('How much is 394 times 213?', 2)[0].name).toBe('calc_product');
    expect(index.search('compute 443 * 349', 2)[0].name).toBe('calc_product');
    // "time" is no synonym of multiplying: a question about the time does not reach the calculator
    expect(index.search('what time is it in Tokyo', 2).map((h) => h.name)).toEqual(['get_current_time']);
  });
});

describe('impliedToolWords', () => {
  it('passes the implied words to the head reranker, first', () => {
    const seen: string[] = [];
    const tools = [
      { name: 'write_file', description: 'Write a file.' },
      { name: 'write_note', description: 'Write a markdown note.' },
    ];
    const headReranker = { rerank: (query: string, head: readonly { name: string }[]) => (seen.push(query), head.map(() => 0)) };
    ToolIndex.build(tools, { headReranker }).search('save it as Markdown to /root/md/a.md', 2);
    ToolIndex.build(tools, { headReranker }).search('write a markdown note', 2);
    expect(seen).toEqual(['write file save it as Markdown to /root/md/a.md', 'write a markdown note']);
  });
});
