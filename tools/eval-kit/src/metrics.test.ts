import { describe, expect, it } from 'vitest';
import { mrrAtK, ndcgAtK, recallAtK } from './metrics.js';

describe('recallAtK', () => {
  it('is the share of distinct relevant names in the top k', () => {
    expect(recallAtK(['a', 'b', 'c'], ['a'], 1)).toBe(1);
    expect(recallAtK(['b', 'a', 'c'], ['a'], 1)).toBe(0);
    expect(recallAtK(['b', 'a', 'c'], ['a', 'c'], 2)).toBe(0.5);
    expect(recallAtK(['b', 'a', 'c'], ['a', 'c'], 3)).toBe(1);
  });

  it('credits each relevant name once and caps multi-tool Recall@1 below 1', () => {
    expect(recallAtK(['a', 'a', 'a'], ['a', 'b'], 3)).toBe(0.5);
    expect(recallAtK(['a', 'b'], ['a', 'b'], 1)).toBe(0.5);
    expect(recallAtK(['a'], ['a', 'a'], 1)).toBe(1);
  });

  it('is 0 for nothing relevant, empty rankings or k <= 0', () => {
    expect(recallAtK(['a'], [], 5)).toBe(0);
    expect(recallAtK([], ['a'], 5)).toBe(0);
    expect(recallAtK(['a'], ['a'], 0)).toBe(0);
  });
});

describe('ndcgAtK', () => {
  it('is 1 for a perfect ranking', () => {
    expect(ndcgAtK(['a', 'b', 'x'], ['a', 'b'], 10)).toBeCloseTo(1, 12);
    expect(ndcgAtK(['b', 'a'], ['a', 'b'], 10)).toBeCloseTo(1, 12);
  });

  it('discounts by log2(rank + 1) with binary gains', () => {
    // one relevant at rank 2: (1 / log2 3) / 1
    expect(ndcgAtK(['x', 'a'], ['a'], 10)).toBeCloseTo(1 / Math.log2(3), 12);
    // relevant at ranks 1 and 3 of two: (1 + 1/2) / (1 + 1/log2 3)
    expect(ndcgAtK(['a', 'x', 'b'], ['a', 'b'], 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
  });

  it('credits a repeated name once and ignores hits past k', () => {
    expect(ndcgAtK(['a', 'a'], ['a', 'b'], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAtK(['x', 'y', 'a'], ['a'], 2)).toBe(0);
  });

  it('normalizes by min(k, |relevant|)', () => {
    expect(ndcgAtK(['a'], ['a', 'b', 'c'], 1)).toBe(1);
  });
});

describe('mrrAtK', () => {
  it('is the reciprocal rank of the first relevant name within k', () => {
    expect(mrrAtK(['a'], ['a'], 10)).toBe(1);
    expect(mrrAtK(['x', 'y', 'a'], ['a', 'b'], 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAtK(['x', 'y', 'a'], ['a'], 2)).toBe(0);
    expect(mrrAtK([], ['a'], 10)).toBe(0);
  });
});
