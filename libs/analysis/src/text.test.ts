import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from './text.js';

/** Levenshtein distance, the textbook table. */
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

describe('editDistance', () => {
  it('is the Levenshtein distance up to its bound, and more than the bound past it (misspelt names and enum values rest on it)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀'), maxLength: 90 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const exact = levenshtein(a, b);
        if (exact <= max) expect(editDistance(a, b, max)).toBe(exact);
        else expect(editDistance(a, b, max)).toBeGreaterThan(max);
      }),
      { numRuns: 400 },
    );
    expect(editDistance('acceleeration', 'acceleration', 1)).toBe(1);
    expect(editDistance('weather', 'whether', 1)).toBe(2);
  });
});
