import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitClauses } from './clauses.js';

describe('splitClauses', () => {
  it('splits at sentence ends, semicolons, line breaks and numbered lists', () => {
    expect(splitClauses('Transfer $5000 to my savings account. And calculate the interest after 5 years.')).toEqual([
      'Transfer $5000 to my savings account.',
      'And calculate the interest after 5 years.',
    ]);
    expect(splitClauses('find flights to Paris; book a hotel there')).toEqual(['find flights to Paris', 'book a hotel there']);
    expect(splitClauses('Do these:\n1. read /tmp/a.txt\n2) write a summary to /tmp/b.md')).toEqual([
      'Do these:',
      'read /tmp/a.txt',
      'write a summary to /tmp/b.md',
    ]);
  });

  it('splits at step words after punctuation or "and", not inside a clause', () => {
    expect(splitClauses('Get the weather in Paris, then book a table for two')).toEqual([
      'Get the weather in Paris',
      'book a table for two',
    ]);
    expect(splitClauses('Find the repository and then draft an intro document')).toEqual([
      'Find the repository',
      'draft an intro document',
    ]);
    expect(splitClauses('First, get the stock price. Second, plot it')).toEqual(['get the stock price.', 'plot it']);
    // "first", "next" and "then" inside a clause are words, not boundaries
    expect(splitClauses('the area of the first circle next Friday')).toEqual(['the area of the first circle next Friday']);
    // plain "and" joins one step as often as two: no split
    expect(splitClauses('the GCD and the LCM of 12 and 18')).toEqual(['the GCD and the LCM of 12 and 18']);
  });

  it('keeps decimals, versions, paths and clock times whole', () => {
    expect(splitClauses('convert 3.5 kg to pounds for v1.2.3 in /root/a.b/c.md')).toEqual([
      'convert 3.5 kg to pounds for v1.2.3 in /root/a.b/c.md',
    ]);
    // a clock time's minutes open no numbered list ("10:00 AM" was split after its colon)
    expect(splitClauses('book a train leaving at 10:00 AM from Boston to New York')).toEqual([
      'book a train leaving at 10:00 AM from Boston to New York',
    ]);
  });

  it('loses no word and returns trimmed, non-empty clauses for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const clauses = splitClauses(text);
        for (const c of clauses) {
          expect(c).toBe(c.trim());
          expect(c).not.toBe('');
        }
        // every word of a clause is a word of the request (splitting drops markers, never adds text)
        const words = new Set(text.split(/\s+/));
        for (const c of clauses) for (const w of c.split(/\s+/)) expect([...words].some((x) => x.includes(w))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
