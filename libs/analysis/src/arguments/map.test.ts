import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import type { MapperTool } from '../types.js';
import { tool } from './test-tool.js';

describe('mapArguments: context, defaults and refusals', () => {
  it('defaults from the schema: a required parameter the request leaves out takes its schema default', () => {
    const t = tool(
      {
        q: { type: 'string', description: 'Search term' },
        page_size: { type: 'integer', default: 20 },
        order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      },
      ['q', 'page_size', 'order'],
    );
    const m = mapArguments(t, 'search for "solar panels"');
    expect(m.arguments).toEqual({ q: 'solar panels', page_size: 20, order: 'desc' });
    expect(m.missingArguments).toEqual([]);
    // a value in the request wins over the default
    expect(mapArguments(t, 'search for "solar panels", page size 5, order asc').arguments).toEqual({
      q: 'solar panels',
      page_size: 5,
      order: 'asc',
    });
  });

  it('does not fill optional defaults nor invent required values', () => {
    const t = tool(
      {
        q: { type: 'string', description: 'Search term' },
        limit: { type: 'integer', default: 10 },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      ['q'],
    );
    const m = mapArguments(t, 'hello');
    expect(m.arguments).toEqual({});
    expect(m.missingArguments).toEqual(['q']);
    expect(m.filledRatio).toBe(0);
  });

  it('never emits an argument outside the schema, and never throws', () => {
    const t = tool({ n: { type: 'integer' } }, ['n']);
    const m = mapArguments(t, 'x=5, n=3, y="z"', { extra: 1 });
    expect(m.arguments).toEqual({ n: 3 });
    expect(() =>
      mapArguments({ name: 'bad', inputSchema: { properties: 5 } as unknown as Record<string, unknown> }, null as unknown as string),
    ).not.toThrow();
  });
});

describe('mapArguments: very long requests', () => {
  it('keeps the first MAX_SPANS spans of a request that holds thousands, and still maps what it says first', async () => {
    const { analyze, MAX_SPANS } = await import('../extract.js');
    const doc = analyze('7 '.repeat(9000));
    expect(doc.spans.length).toBe(MAX_SPANS);
    expect(Math.max(...doc.spans.map((s) => s.start))).toBe(2 * (MAX_SPANS - 1));
    const t = tool({ width: { type: 'integer', description: 'Width.' } }, ['width']);
    expect(mapArguments(t, 'width=5 ' + '1 2 and 3, '.repeat(1500)).arguments).toEqual({ width: 5 });
  });
});

describe('mapArguments: a schema of very many properties', () => {
  // (MAX_SEARCHED_PARAMS: without the bound a tool of 5,000 properties takes 4.6 s a request, with it 0.2 s)
  const props: Record<string, unknown> = Object.fromEntries(
    Array.from({ length: 1000 }, (_, i) => [`field_${i}`, { type: 'string', description: `Field ${i}` }]),
  );
  props['city'] = { type: 'string', description: 'City name' };
  props['days'] = { type: 'integer', description: 'Number of days' };
  const tool: MapperTool = {
    name: 'huge',
    description: 'A tool of many fields',
    inputSchema: { type: 'object', properties: props, required: ['city', 'days'] },
  };

  it('still searches the request for its required parameters, however late in the schema, and reads name=value pairs of any', () => {
    const r = mapArguments(tool, 'Forecast for Paris for 3 days, field_900=abc');
    expect(r.arguments['city']).toBe('Paris');
    expect(r.arguments['days']).toBe(3);
    expect(r.arguments['field_900']).toBe('abc');
    expect(r.missingArguments).toEqual([]);
  });
});

describe('mapArguments: characters that are not written', () => {
  it('reads a word or number through a zero-width space, soft hyphen, word joiner or byte-order mark', () => {
    // (copied text carries them: "Par<ZWSP>is" read as the city "Par")
    const weather = tool({ city: { type: 'string', description: 'City name' } }, ['city'], 'Get the weather of a city');
    for (const mark of ['\u200B', '\u00AD', '\u2060', '\uFEFF'])
      expect(mapArguments(weather, `weather in Par${mark}is`).arguments, JSON.stringify(mark)).toEqual({ city: 'Paris' });
    const add = tool({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b'], 'Adds two numbers');
    expect(mapArguments(add, 'add 1\u00AD7 and 2\u200B5').arguments).toEqual({ a: 17, b: 25 });
  });
});
