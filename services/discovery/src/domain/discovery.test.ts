import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BoundToolDefinition } from '@toolsurface/core';
import { cutDescription, HIT_DESCRIPTION_MAX, toResult } from './discovery';

describe('cutDescription', () => {
  it('keeps a hit description within the bound and never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', ' ', '😀', '天', '\u0301', 'é'), { maxLength: 700 }), (chars) => {
        const cut = cutDescription(chars.join(''));
        expect(cut.length).toBeLessThanOrEqual(HIT_DESCRIPTION_MAX);
        // a well-formed string: every high surrogate followed by a low one, no low one alone
        expect(cut.isWellFormed()).toBe(true);
      }),
      { numRuns: 500 },
    );
    const cut = cutDescription('xx' + '😀'.repeat(200));
    expect(cut.endsWith('😀…')).toBe(true);
  });
});

describe('toResult', () => {
  const def = (name: string, description: string | undefined, title?: string): BoundToolDefinition => ({
    name,
    title,
    description,
    inputSchema: { type: 'object', properties: {} },
    capability: 'test',
    originalName: name,
  });
  it('gives a tool with an empty or missing description its title as the hit description', () => {
    const byName = new Map([
      ['a', def('a', '', 'Alpha tool')],
      ['b', def('b', undefined, 'Beta tool')],
      ['c', def('c', 'Gamma does things.', 'Gamma tool')],
    ]);
    const res = toResult(
      ['a', 'b', 'c'].map((name) => ({ name, score: 1 })),
      byName,
      3,
    );
    expect(res.hits.map((h) => h.description)).toEqual(['Alpha tool', 'Beta tool', 'Gamma does things.']);
  });
});
