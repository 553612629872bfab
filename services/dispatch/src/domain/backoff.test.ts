import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffMs } from './backoff';

describe('backoffMs', () => {
  it('doubles from 500 ms and never waits more than 30 s', () => {
    expect([0, 1, 2, 3].map((a) => backoffMs(a, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(10, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(1000, () => 1)).toBe(BACKOFF_CAP_MS);
  });

  it('keeps at least half the step when jittered', () => {
    expect(backoffMs(3, () => 0)).toBe(2000);
    expect(backoffMs(100, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });
});
