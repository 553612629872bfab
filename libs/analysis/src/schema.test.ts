import { describe, expect, it } from 'vitest';
import { paramsOf } from './schema.js';

describe('paramsOf', () => {
  it('lists every other parameter as a sibling up to 100, so a schema of thousands of properties holds a bounded number of names', () => {
    const small = {
      type: 'object',
      properties: { city: { type: 'string' }, state: { type: 'string' }, units: { type: 'string' } },
      required: ['city', 'units'],
    };
    const [city] = paramsOf(small);
    expect(city.siblings).toEqual(['state', 'units']);
    const names = Array.from({ length: 5000 }, (_, i) => `p${i}`);
    const huge = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names };
    const params = paramsOf(huge);
    expect(params).toHaveLength(5000);
    expect(params[0].siblings).toEqual(names.slice(1, 101));
    expect(params[4999].siblings).toEqual(names.slice(0, 100));
    expect(params.reduce((a, p) => a + p.siblings.length, 0)).toBe(5000 * 100);
  });
});
