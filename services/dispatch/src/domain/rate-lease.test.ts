import { describe, expect, it } from 'vitest';
import { grantTokens, leaseTerms, parseSharedBucket } from './rate-lease';

describe('leaseTerms', () => {
  it('takes 1% of the limit per lease (at least one token), spent within 1% of the window and 1 s', () => {
    expect(leaseTerms({ calls: 10, perMs: 60_000 })).toEqual({ size: 1, ttlMs: 600 });
    expect(leaseTerms({ calls: 1000, perMs: 3_600_000 })).toEqual({ size: 10, ttlMs: 1000 });
    expect(leaseTerms({ calls: 500, perMs: 1000 })).toEqual({ size: 5, ttlMs: 10 });
  });
});

describe('grantTokens', () => {
  const rate = { calls: 10, perMs: 10_000 };
  it('starts a missing bucket full and grants what is asked, up to what it holds', () => {
    expect(grantTokens(undefined, rate, 4, 1000)).toEqual({ granted: 4, next: { tokens: 6, atMs: 1000 } });
    expect(grantTokens({ tokens: 2.5, atMs: 1000 }, rate, 4, 1000)).toEqual({ granted: 2, next: { tokens: 0.5, atMs: 1000 } });
  });
  it('refills evenly and says when the next token comes', () => {
    expect(grantTokens({ tokens: 0, atMs: 0 }, rate, 1, 500)).toEqual({ retryAfterMs: 500 });
    expect(grantTokens({ tokens: 0, atMs: 0 }, rate, 1, 1000)).toEqual({ granted: 1, next: { tokens: 0, atMs: 1000 } });
    // Never past the limit, however long the pause.
    expect(grantTokens({ tokens: 0, atMs: 0 }, rate, 100, 1e9)).toMatchObject({ granted: 10 });
  });
  it('refills nothing for a clock behind the stored time, and keeps the stored time', () => {
    expect(grantTokens({ tokens: 0.5, atMs: 5000 }, rate, 1, 1000)).toEqual({ retryAfterMs: 500 });
    expect(grantTokens({ tokens: 3, atMs: 5000 }, rate, 1, 1000)).toEqual({ granted: 1, next: { tokens: 2, atMs: 5000 } });
  });
});

describe('parseSharedBucket', () => {
  it('reads a stored bucket and nothing else', () => {
    expect(parseSharedBucket({ tokens: 1, atMs: 2 })).toEqual({ tokens: 1, atMs: 2 });
    expect(parseSharedBucket({ tokens: '1', atMs: 2 })).toBeUndefined();
    expect(parseSharedBucket(null)).toBeUndefined();
  });
});
