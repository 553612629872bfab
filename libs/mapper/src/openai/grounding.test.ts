import { describe, expect, it } from 'vitest';
import { checkLeaves, evidenceOf, groundedConfidence } from './grounding.js';

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer' },
    alerts: { type: 'boolean' },
  },
};

describe("the model mapper's backing of each value", () => {
  it('a value written in the request or context is stated (accents, case and thousands commas folded)', () => {
    const ev = evidenceOf('Weather in ZÜRICH for 1,000 days', { region: { name: 'Canton of Zug' }, n: 7 });
    const leaves = checkLeaves({ city: 'zurich', days: 1000, region: ['canton of zug'], n: 7 }, weather, ev, {});
    expect(leaves.map((l) => l.backing)).toEqual(['stated', 'stated', 'stated', 'stated']);
  });

  it('a value shorter than 3 characters is stated only as a whole word', () => {
    const ev = evidenceOf('add 17 and 25, then b', undefined);
    const leaves = checkLeaves({ x: 'a', y: 'b', z: 'an' }, {}, ev, {});
    expect(leaves.map((l) => l.backing)).toEqual(['invented', 'stated', 'invented']);
  });

  it("an unstated enum member or boolean is a choice; the rule engine's own value backs one; anything else is invented", () => {
    const ev = evidenceOf('weather in Paris', undefined);
    const leaves = checkLeaves({ city: 'London', unit: 'fahrenheit', alerts: true, days: 3, note: '' }, weather, ev, { days: 3 });
    expect(Object.fromEntries(leaves.map((l) => [l.pointer, l.backing]))).toEqual({
      '/city': 'invented',
      '/unit': 'choice',
      '/alerts': 'choice',
      '/days': 'rules',
      '/note': 'invented',
    });
  });
});

describe("the model mapper's confidence: min(self-report, G × A)", () => {
  const stated = [{ pointer: '/city', backing: 'stated' as const }];
  const choice = [...stated, { pointer: '/unit', backing: 'choice' as const }];
  it.each([
    ['every value stated, the rule engine agrees', stated, 0, 0.99, 0.99],
    ['every value stated, the rule engine ranks it second', stated, 1, 0.99, 0.9],
    ['one unstated choice, the rule engine agrees: still runs', choice, 0, 1, 0.75],
    ['one unstated choice, the rule engine disagrees: does not run', choice, 2, 1, 0.675],
    ['one invented value: never runs, whatever the self-report', [{ pointer: '/x', backing: 'invented' as const }], 0, 0.99, 0],
    ['the self-report caps it', stated, 0, 0.4, 0.4],
    ['no arguments at all', [], 0, 0.95, 0.95],
  ])('%s', (_name, leaves, rank, self, expected) => {
    expect(groundedConfidence(leaves, rank, self).confidence).toBeCloseTo(expected, 9);
  });
});
