import { describe, expect, it } from 'vitest';
import { formatMs, percentile } from './stats';

describe('percentile (nearest rank)', () => {
  it('picks the p50 and p99 of a sample', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('formatMs', () => {
  it('keeps two decimals under 10 ms, one under 1 s, groups thousands, seconds from 10 s', () => {
    expect(formatMs(0.4234)).toBe('0.42 ms');
    expect(formatMs(12.34)).toBe('12.3 ms');
    expect(formatMs(1234.5)).toBe('1,235 ms');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMs(NaN)).toBe('-');
  });
});
