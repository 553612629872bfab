import { describe, expect, it } from 'vitest';
import { analyze } from './extract.js';

describe('analyze: known cities', () => {
  const places = (text: string) =>
    analyze(text, new Date('2026-12-03T00:00:00Z'))
      .spans.filter((s) => s.kind === 'place')
      .map((s) => s.city);
  it('reads a known city as a whole word whatever stands around it, and not inside another word', () => {
    for (const [text, city] of [
      ['weather in new york today', 'New York'],
      ['(Boston), please', 'Boston'],
      ['a Chicago-based team', 'Chicago'],
      ['😀Paris trip', 'Paris'],
      ["St. Louis's museums", 'St. Louis'],
      ['I am travelling to NYC', 'New York'],
    ] as const)
      expect(places(text), text).toContain(city);
    for (const text of ['bostonian food', 'the parisian style', 'a newyorker']) expect(places(text), text).toEqual([]);
  });
});
