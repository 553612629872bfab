import { describe, it, expect } from 'vitest';
import { argumentProblems, scoreArguments } from './checker.js';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    amount: { type: 'number' },
    count: { type: 'integer' },
    unit: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    budget: { type: 'object', properties: { min: { type: 'integer' }, max: { type: 'integer' } } },
  },
  required: ['city', 'amount'],
};

describe('scoreArguments (eval README rules)', () => {
  it('accepts a value in the acceptable list', () => {
    expect(scoreArguments({ city: 'Boston', amount: 5 }, { city: ['Boston', 'Boston, MA'], amount: [5] }, schema)).toBe(true);
  });

  it('compares strings after lower-casing and removing spaces and ,./-_*^', () => {
    expect(scoreArguments({ city: 'boston,ma', amount: 5 }, { city: ['Boston, MA'], amount: [5] }, schema)).toBe(true);
    expect(scoreArguments({ city: 'New-York_City', amount: 5 }, { city: ['new york city'], amount: [5] }, schema)).toBe(true);
    expect(scoreArguments({ city: 'Bostonn', amount: 5 }, { city: ['Boston'], amount: [5] }, schema)).toBe(false);
  });

  it('accepts an integer where a number is expected, but not a string for a number', () => {
    expect(scoreArguments({ city: 'x', amount: 20 }, { city: ['x'], amount: [20.0] }, schema)).toBe(true);
    expect(scoreArguments({ city: 'x', amount: '20' }, { city: ['x'], amount: [20] }, schema)).toBe(false);
  });

  it('rejects a missing required argument, allows omitting one whose list holds ""', () => {
    expect(scoreArguments({ city: 'x' }, { city: ['x'], amount: [5] }, schema)).toBe(false);
    expect(scoreArguments({ city: 'x', amount: 5 }, { city: ['x'], amount: [5], unit: ['', 'cm'] }, schema)).toBe(true);
    expect(scoreArguments({ city: 'x', amount: 5 }, { city: ['x'], amount: [5], unit: ['cm'] }, schema)).toBe(false);
    // required by the schema even where the ground truth lists ""
    expect(scoreArguments({ city: 'x' }, { city: ['x'], amount: ['', 5] }, schema)).toBe(false);
  });

  it('rejects arguments outside the schema or outside the expected call', () => {
    expect(scoreArguments({ city: 'x', amount: 5, other: 1 }, { city: ['x'], amount: [5] }, schema)).toBe(false);
    expect(scoreArguments({ city: 'x', amount: 5, count: 2 }, { city: ['x'], amount: [5] }, schema)).toBe(false);
  });

  it('compares lists element by element and nested objects key by key', () => {
    expect(
      scoreArguments(
        { city: 'x', amount: 1, tags: ['A', 'b'] },
        {
          city: ['x'],
          amount: [1],
          tags: [
            ['a', 'b'],
            ['b', 'a'],
          ],
        },
        schema,
      ),
    ).toBe(true);
    expect(scoreArguments({ city: 'x', amount: 1, tags: ['a'] }, { city: ['x'], amount: [1], tags: [['a', 'b']] }, schema)).toBe(false);
    expect(
      scoreArguments(
        { city: 'x', amount: 1, budget: { min: 1, max: 2 } },
        { city: ['x'], amount: [1], budget: [{ min: [1], max: [2] }] },
        schema,
      ),
    ).toBe(true);
    expect(
      scoreArguments({ city: 'x', amount: 1, budget: { min: 1 } }, { city: ['x'], amount: [1], budget: [{ min: [1], max: [2] }] }, schema),
    ).toBe(false);
    expect(
      scoreArguments(
        { city: 'x', amount: 1, budget: { min: 1 } },
        { city: ['x'], amount: [1], budget: [{ min: [1], max: ['', 2] }] },
        schema,
      ),
    ).toBe(true);
  });

  it('works without a schema (no schema checks)', () => {
    expect(scoreArguments({ a: true }, { a: [true], b: [''] })).toBe(true);
    expect(scoreArguments({ a: false }, { a: [true] })).toBe(false);
  });
});

describe('argumentProblems (why a mapping fails the checker)', () => {
  it('names the argument and the value at fault, and nothing when the mapping passes', () => {
    expect(argumentProblems({ city: 'Boston', amount: 5 }, { city: ['Boston'], amount: [5] }, schema)).toEqual([]);
    expect(argumentProblems({ city: 'Austin', amount: 5, unit: 'km' }, { city: ['Boston', 'Boston, MA'], amount: [5] }, schema)).toEqual([
      'unit: "km", want it left out',
      'city: "Austin", want "Boston" or "Boston, MA"',
    ]);
    expect(argumentProblems({ amount: 5, zone: 'x' }, { city: ['Boston'], amount: [5], unit: [''] }, schema)).toEqual([
      'zone: outside the schema',
      'city: missing, want "Boston"',
    ]);
  });
});
