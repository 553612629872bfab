import { describe, it, expect } from 'vitest';
import { mapArguments } from './arguments.js';
import type { MapperTool } from './types.js';

/** Fixed "today" so relative dates are deterministic. */
const now = new Date(Date.UTC(2024, 2, 1));

/** Builds a one-tool schema. */
function tool(properties: Record<string, unknown>, required: string[] = [], description = ''): MapperTool {
  return { name: 't', description, inputSchema: { type: 'object', properties, required } };
}

describe('mapArguments: numbers', () => {
  it('maps integers written as name=value', () => {
    const t = tool({ a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }, ['a', 'b', 'c']);
    const m = mapArguments(t, 'Find the roots of a quadratic equation with coefficients a=1, b=-3, c=2.');
    expect(m.arguments).toEqual({ a: 1, b: -3, c: 2 });
    expect(m.missingArguments).toEqual([]);
    expect(m.filledRatio).toBe(1);
  });

  it('maps numbers with units, currency and percent by name and unit', () => {
    const t = tool(
      {
        distance: { type: 'number', description: 'Distance in kilometers.' },
        budget: { type: 'number', description: 'Budget in US dollars.' },
        rate: { type: 'number', description: 'Annual interest rate as a decimal.' },
        years: { type: 'integer', description: 'Number of years.' },
      },
      ['distance', 'budget', 'rate', 'years'],
    );
    const m = mapArguments(t, 'I can spend $20 on a 5 km trip; the rate is 3.5% for 4 years.');
    expect(m.arguments).toEqual({ distance: 5, budget: 20, rate: 0.035, years: 4 });
  });

  it('uses the phrase around the value ("base of 10", "for 5 years") and number words', () => {
    const t = tool({ base: { type: 'integer' }, height: { type: 'integer' }, tickets: { type: 'integer', description: 'Number of tickets.' } }, ['base', 'height', 'tickets']);
    const m = mapArguments(t, 'Buy three tickets and compute a triangle with a height of 5 and a base of 10.');
    expect(m.arguments).toEqual({ base: 10, height: 5, tickets: 3 });
  });

  it('integers in reading order onto positional parameters ("add 17 and 25" onto a, b)', () => {
    const t = tool({ a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } }, ['a', 'b'], 'Adds two numbers');
    const m = mapArguments(t, 'add 17 and 25');
    expect(m.arguments).toEqual({ a: 17, b: 25 });
    expect(m.missingArguments).toEqual([]);
    // one number for two parameters: the second is missing, not invented
    expect(mapArguments(t, 'add 17').missingArguments).toEqual(['b']);
  });

  it('assigns listed names to listed values in order ("base and height are 6 and 10")', () => {
    const t = tool({ base: { type: 'integer' }, height: { type: 'integer' } }, ['base', 'height']);
    expect(mapArguments(t, 'the base and height are 6cm and 10cm').arguments).toEqual({ base: 6, height: 10 });
  });
});

describe('mapArguments: booleans and enums', () => {
  it('sets a flag when its name is written and clears it when negated', () => {
    const t = tool({ detailed: { type: 'boolean' }, has_garage: { type: 'boolean' } }, []);
    expect(mapArguments(t, 'Show the standings with details, no garage needed').arguments).toEqual({ detailed: true, has_garage: false });
  });

  it('matches enum values, including near spellings and abbreviations', () => {
    const t = tool({ genre: { type: 'string', enum: ['Comedy', 'Thriller', 'Sci-fi', 'dontcare'] } }, ['genre']);
    expect(mapArguments(t, 'find me a thriler tonight').arguments).toEqual({ genre: 'Thriller' });
    expect(mapArguments(t, 'some science fiction please').arguments).toEqual({ genre: 'Sci-fi' });
    expect(mapArguments(t, 'any movie').arguments).toEqual({ genre: 'dontcare' });
  });

  it('matches enum language codes by the language written out ("French" for "fr")', () => {
    const t = tool({ source_language: { type: 'string', enum: ['en', 'fr', 'de'] }, target_language: { type: 'string', enum: ['en', 'fr', 'de'] }, voice: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] } }, ['source_language', 'target_language']);
    expect(mapArguments(t, 'translate this from English to French').arguments).toEqual({ source_language: 'en', target_language: 'fr' });
    expect(mapArguments(tool({ language: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] } }, ['language']), 'read it aloud in Spanish').arguments).toEqual({ language: 'es-ES' });
  });

  it('does not take the words that label a value as the value ("order ID is 123")', () => {
    const t = tool({ order_id: { type: 'string', description: 'The order ID.' } }, ['order_id']);
    expect(mapArguments(t, 'Check my order, the order ID is 123456789').arguments).toEqual({ order_id: '123456789' });
    const u = tool({ component: { type: 'string', description: 'The component UUID.' } }, ['component']);
    expect(mapArguments(u, 'analysis of the component UUID AB1010CD please').arguments).toEqual({ component: 'AB1010CD' });
  });
});

describe('mapArguments: strings', () => {
  it('takes quoted spans and names', () => {
    const t = tool({ title: { type: 'string', description: 'Title of the play.' }, artist: { type: 'string' } }, ['title']);
    expect(mapArguments(t, "Book tickets for 'Read The Tempest' by Katy Perry").arguments).toEqual({ title: 'Read The Tempest', artist: 'Katy Perry' });
  });

  it('formats places as the description asks ("City, State")', () => {
    const t = tool({ city: { type: 'string', description: "The city, in the format 'City, State' such as 'Berkeley, CA'." } }, ['city']);
    expect(mapArguments(t, 'Find a salon in Boston, MA').arguments).toEqual({ city: 'Boston, MA' });
    expect(mapArguments(t, 'Find a salon in berkeley').arguments).toEqual({ city: 'Berkeley, CA' });
    const plain = tool({ location: { type: 'string', description: 'The city.' } }, ['location']);
    expect(mapArguments(plain, 'weather in Paris').arguments).toEqual({ location: 'Paris' });
  });

  it('separates origin and destination', () => {
    const t = tool({ start_location: { type: 'string' }, end_location: { type: 'string' } }, ['start_location', 'end_location']);
    expect(mapArguments(t, 'Directions from Sydney to Melbourne').arguments).toEqual({ start_location: 'Sydney', end_location: 'Melbourne' });
  });

  it('finds paths, URLs and e-mail addresses', () => {
    const t = tool({ file_path: { type: 'string' }, url: { type: 'string' }, email: { type: 'string', description: 'E-mail address' } }, ['file_path', 'url', 'email']);
    const m = mapArguments(t, 'Save https://example.com/a?b=1 to /root/out/report.md and mail alice@example.com');
    expect(m.arguments).toEqual({ file_path: '/root/out/report.md', url: 'https://example.com/a?b=1', email: 'alice@example.com' });
  });
});

describe('mapArguments: dates and times', () => {
  it('converts written dates to ISO 8601 (or the described format)', () => {
    const iso = tool({ date: { type: 'string', format: 'date' } }, ['date']);
    expect(mapArguments(iso, 'on March 3rd 2024', undefined, { now }).arguments).toEqual({ date: '2024-03-03' });
    expect(mapArguments(iso, 'on the 4th of July', undefined, { now }).arguments).toEqual({ date: '2024-07-04' });
    const us = tool({ date: { type: 'string', description: "Date in the format 'MM/DD/YYYY'." } }, ['date']);
    expect(mapArguments(us, 'on 2024-03-15', undefined, { now }).arguments).toEqual({ date: '03/15/2024' });
  });

  it('resolves relative dates against "today is" and converts times', () => {
    const t = tool({ date: { type: 'string', description: 'YYYY-MM-DD' }, time: { type: 'string', description: "Time as 'HH:MM'." } }, ['date', 'time']);
    expect(mapArguments(t, 'tomorrow at 5 pm. today is 2023.10.1', undefined, { now }).arguments).toEqual({ date: '2023-10-02', time: '17:00' });
  });

  it('builds date-times', () => {
    const t = tool({ start: { type: 'string', format: 'date-time' } }, ['start']);
    expect(mapArguments(t, 'start on March 19, 2024 at 2:30 PM', undefined, { now }).arguments).toEqual({ start: '2024-03-19T14:30:00' });
  });
});

describe('mapArguments: arrays and objects', () => {
  it('parses list literals, written lists and enum items', () => {
    const v = tool({ vector: { type: 'array', items: { type: 'integer' } } }, ['vector']);
    expect(mapArguments(v, 'similarity of vector [3, 2, 1]').arguments).toEqual({ vector: [3, 2, 1] });
    const tags = tool({ tags: { type: 'array', items: { type: 'string' } } }, ['tags']);
    expect(mapArguments(tags, 'tags: red, green and blue').arguments).toEqual({ tags: ['red', 'green', 'blue'] });
    const avoid = tool({ avoid: { type: 'array', items: { type: 'string', enum: ['tolls', 'highways', 'ferries'] } } }, []);
    expect(mapArguments(avoid, 'avoid highways and toll roads').arguments).toEqual({ avoid: ['highways', 'tolls'] });
  });

  it('fills nested objects from the same text', () => {
    const t = tool({ budget: { type: 'object', properties: { min: { type: 'integer', description: 'Minimum price.' }, max: { type: 'integer', description: 'Maximum price.' } }, required: ['min', 'max'] } }, ['budget']);
    expect(mapArguments(t, 'a villa with a budget from $300,000 to $400,000').arguments).toEqual({ budget: { min: 300000, max: 400000 } });
  });
});

describe('mapArguments: context, defaults and refusals', () => {
  it('maps a context object by name, including snake/camel variants', () => {
    const t = tool({ user_id: { type: 'integer' }, apiKey: { type: 'string' } }, ['user_id', 'apiKey']);
    expect(mapArguments(t, 'fetch my profile', { userId: '42', api_key: 'k-1' }).arguments).toEqual({ user_id: 42, apiKey: 'k-1' });
  });

  it('reads a context string as more text', () => {
    const t = tool({ city: { type: 'string' } }, ['city']);
    expect(mapArguments(t, 'what is the weather', 'I live in Chicago').arguments).toEqual({ city: 'Chicago' });
  });

  it('defaults from the schema: a required parameter the request leaves out takes its schema default', () => {
    const t = tool({ q: { type: 'string', description: 'Search term' }, page_size: { type: 'integer', default: 20 }, order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } }, ['q', 'page_size', 'order']);
    const m = mapArguments(t, 'search for "solar panels"');
    expect(m.arguments).toEqual({ q: 'solar panels', page_size: 20, order: 'desc' });
    expect(m.missingArguments).toEqual([]);
    // a value in the request wins over the default
    expect(mapArguments(t, 'search for "solar panels", page size 5, ascending').arguments).toEqual({ q: 'solar panels', page_size: 5, order: 'asc' });
  });

  it('does not fill optional defaults nor invent required values', () => {
    const t = tool({ q: { type: 'string', description: 'Search term' }, limit: { type: 'integer', default: 10 }, unit: { type: 'string', enum: ['c', 'f'], default: 'c' } }, ['q']);
    const m = mapArguments(t, 'hello');
    expect(m.arguments).toEqual({});
    expect(m.missingArguments).toEqual(['q']);
    expect(m.filledRatio).toBe(0);
  });

  it('never emits an argument outside the schema, and never throws', () => {
    const t = tool({ n: { type: 'integer' } }, ['n']);
    const m = mapArguments(t, 'x=5, n=3, y="z"', { extra: 1 });
    expect(m.arguments).toEqual({ n: 3 });
    expect(() => mapArguments({ name: 'bad', inputSchema: { properties: 5 } as unknown as Record<string, unknown> }, null as unknown as string)).not.toThrow();
  });
});
