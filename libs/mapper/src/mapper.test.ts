import { describe, it, expect } from 'vitest';
import { CONFIDENCE_THRESHOLD } from '@toolsurface/core';
import { UnifiedMapper, PreferredToolNotInSnapshotError } from './index.js';
import type { MapperTool, Retriever } from './index.js';

/** A small hand-made surface. */
const tools: MapperTool[] = [
  {
    name: 'calculate_triangle_area',
    description: 'Calculate the area of a triangle given its base and height.',
    inputSchema: {
      type: 'object',
      properties: {
        base: { type: 'integer', description: 'The base of the triangle.' },
        height: { type: 'integer', description: 'The height of the triangle.' },
        unit: { type: 'string', default: 'cm' },
      },
      required: ['base', 'height'],
    },
  },
  {
    name: 'calculate_circle_area',
    description: 'Calculate the area of a circle given its radius.',
    inputSchema: {
      type: 'object',
      properties: { radius: { type: 'number', description: 'The radius of the circle.' } },
      required: ['radius'],
    },
  },
  {
    name: 'get_current_weather',
    description: 'Get the current weather in a given city.',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: "The city, e.g. 'Boston, MA'." },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
    },
  },
  {
    name: 'book_hotel',
    description: 'Book a hotel room in a city for a number of nights.',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        nights: { type: 'integer', description: 'Number of nights.' },
        check_in_date: { type: 'string', format: 'date' },
      },
      required: ['city', 'nights', 'check_in_date'],
    },
  },
  {
    name: 'search_hotels',
    description: 'Search hotels in a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

/** Word-overlap retriever over name + description (stands in for the search index). */
function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );
}
const retrieve: Retriever = (q, limit) => {
  const qw = words(q);
  return tools
    .map((t) => ({ name: t.name, score: [...words(`${t.name} ${t.description}`)].filter((w) => qw.has(w)).length }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
};

const mapper = new UnifiedMapper(tools, retrieve, { now: new Date(Date.UTC(2024, 2, 1)) });

describe('UnifiedMapper', () => {
  it('executes a clear request with all required arguments filled', () => {
    const r = mapper.map({ request: 'What is the area of a triangle with a base of 10 and a height of 5?' });
    expect(r.decision).toBe('execute');
    expect(r.tool).toBe('calculate_triangle_area');
    expect(r.confidence).toBeGreaterThanOrEqual(CONFIDENCE_THRESHOLD);
    expect(r.arguments).toEqual({ base: 10, height: 5 });
    expect(r.candidates[0].name).toBe('calculate_triangle_area');
    expect(r.candidates.length).toBeLessThanOrEqual(5);
    expect(r.explanation).toMatch(/calculate_triangle_area/);
    // a place, a count and a date: mapped in full (whether it clears 0.7 is the calibration's call)
    const hotel = mapper.map({ request: 'Book a hotel room in Chicago for 3 nights starting March 3rd 2024' });
    expect(hotel.tool).toBe('book_hotel');
    expect(hotel.arguments).toEqual({ city: 'Chicago', nights: 3, check_in_date: '2024-03-03' });
    expect(hotel.missingArguments).toEqual([]);
  });

  it('re-ranks retrieval with how well arguments fill (triangle vs circle)', () => {
    const r = mapper.map({ request: 'What is the area of a triangle with a base of 10 and a height of 5?' });
    expect(r.tool).toBe('calculate_triangle_area');
    expect(r.arguments).toEqual({ base: 10, height: 5 });
  });

  it('refuses with low_confidence when no tool serves the request', () => {
    const r = mapper.map({ request: 'Who discovered electricity?' });
    expect(r.decision).toBe('low_confidence');
    expect(r.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(r.explanation.length).toBeGreaterThan(0);
  });

  it('reports missing_arguments, with nothing invented, when the confident tool lacks a required value', () => {
    const r = mapper.map({ request: 'Book a hotel room in Chicago for 3 nights', preferredTools: ['book_hotel'] });
    expect(r.tool).toBe('book_hotel');
    expect(r.decision).toBe('missing_arguments');
    expect(r.missingArguments).toEqual(['check_in_date']);
    expect(r.arguments).not.toHaveProperty('check_in_date');
    expect(r.explanation).toMatch(/check_in_date/);
  });

  it('boosts preferred tools that are in the snapshot', () => {
    const plain = mapper.map({ request: 'hotel in Chicago' });
    const preferred = mapper.map({ request: 'hotel in Chicago', preferredTools: ['search_hotels'] });
    expect(preferred.tool).toBe('search_hotels');
    const other = plain.tool === 'search_hotels' ? 'book_hotel' : 'search_hotels';
    expect(mapper.map({ request: 'hotel in Chicago', preferredTools: [other] }).tool).toBe(other);
  });

  it('throws PreferredToolNotInSnapshotError for preferred tools outside the snapshot', () => {
    try {
      mapper.map({ request: 'weather in Boston', preferredTools: ['get_current_weather', 'no_such_tool'] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PreferredToolNotInSnapshotError);
      expect((err as PreferredToolNotInSnapshotError).names).toEqual(['no_such_tool']);
    }
  });

  it('uses the context object and context string', () => {
    const r = mapper.map({ request: 'What is the weather right now?', context: { city: 'Boston, MA' } });
    expect(r.tool).toBe('get_current_weather');
    expect(r.arguments).toEqual({ city: 'Boston, MA' });
    const s = mapper.map({ request: 'What is the weather right now?', context: 'I am in Denver' });
    // the description's example 'Boston, MA' asks for "City, State"
    expect(s.arguments).toEqual({ city: 'Denver, CO' });
  });

  it('takes a per-call reference time for relative dates', () => {
    const r = mapper.map({ request: 'Book a hotel room in Chicago for 2 nights from tomorrow' }, { now: new Date(Date.UTC(2025, 0, 31)) });
    expect(r.arguments).toMatchObject({ city: 'Chicago', nights: 2, check_in_date: '2025-02-01' });
  });

  it('agreement: the chosen tool is the first listed candidate and has the highest listed confidence', () => {
    const requests = [
      'Book a hotel room in Chicago for 3 nights starting March 3rd 2024',
      'hotel in Chicago',
      'area of a circle',
      'What is the area of a triangle with a base of 10 and a height of 5?',
      'weather',
      'Who discovered electricity?',
    ];
    for (const request of requests) {
      const r = mapper.map({ request });
      if (r.tool === null) continue;
      expect(r.candidates[0].name, request).toBe(r.tool);
      expect(r.candidates[0].confidence).toBe(r.confidence);
      for (const c of r.candidates) expect(c.confidence).toBeLessThanOrEqual(r.confidence);
    }
  });

  it('reads a number past Number.MAX_VALUE as no value: the tool is still named, and nothing runs', () => {
    // (Infinity, which JSON writes as null, failed the whole mapping: no tool, "describe the task")
    const r = mapper.map({ request: `What is the area of a circle with a radius of ${'9'.repeat(400)}?` });
    expect(r.tool).toBe('calculate_circle_area');
    expect(r.decision).not.toBe('execute');
    expect(JSON.parse(JSON.stringify(r.arguments))).toEqual(r.arguments);
  });

  it("runs no call whose arguments break the tool's schema, and says which value", () => {
    // the values are read right; the schema allows none of them (dispatch would refuse the call)
    const capped: MapperTool[] = [
      {
        name: 'add',
        description: 'Adds two numbers',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'integer', maximum: 10 }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
    ];
    const m = new UnifiedMapper(capped, () => [{ name: 'add', score: 1 }]);
    const r = m.map({ request: 'add 17 and 25' });
    expect(r.tool).toBe('add');
    expect(r.arguments).toEqual({ a: 17, b: 25 });
    expect(r.decision).toBe('low_confidence');
    expect(r.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(r.explanation).toMatch(/^Not run:.*\/a must be <= 10/);
    expect(m.map({ request: 'add 7 and 25' }).decision).toBe('execute');
  });

  it('maps a value holding a lone surrogate (JSON context can carry "\\ud800") like any other', () => {
    // (comparing argument values as canonical JSON threw on it: no tool, "describe the task")
    const r = mapper.map({
      request: 'What is the area of a triangle with a base of 10 and a height of 5?',
      context: { unit: 'c\uD800m' },
    });
    expect(r.tool).toBe('calculate_triangle_area');
    expect(r.arguments).toEqual({ base: 10, height: 5, unit: 'c\uD800m' });
  });

  it('never throws on odd input', () => {
    const odd: unknown[] = [
      { request: '' },
      { request: 42 },
      {},
      { request: 'x'.repeat(50_000) },
      { request: 'weather', context: [1, 2] },
      { request: 'weather', preferredTools: 'nope' },
    ];
    for (const input of odd) expect(() => mapper.map(input as never)).not.toThrow();
    const broken = new UnifiedMapper(tools, () => {
      throw new Error('index down');
    });
    expect(broken.map({ request: 'weather in Boston' }).decision).toBe('low_confidence');
    expect(new UnifiedMapper([], retrieve).map({ request: 'anything' }).tool).toBeNull();
  });
});
