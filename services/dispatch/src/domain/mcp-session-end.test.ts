import { describe, expect, it } from 'vitest';
import { sessionEnded, sessionIntervals } from './mcp-session-end';

const t = { idleMs: 3_600_000, graceMs: 30_000 };

describe('sessionEnded', () => {
  it('ends a session idle for the idle timeout, not a millisecond earlier', () => {
    expect(sessionEnded({ touchedAtMs: 0 }, 3_599_999, t)).toBeUndefined();
    expect(sessionEnded({ touchedAtMs: 0 }, 3_600_000, t)).toBe('idle');
  });

  it('ends a session whose stream closed and stayed closed for the grace period', () => {
    const rec = { touchedAtMs: 1_000, streamId: 's1', streamClosedAtMs: 2_000 };
    expect(sessionEnded(rec, 31_999, t)).toBeUndefined();
    expect(sessionEnded(rec, 32_000, t)).toBe('stream-closed');
  });

  it('keeps a session whose stream is open (no close time), and ignores closes with a grace of 0', () => {
    expect(sessionEnded({ touchedAtMs: 1_000, streamId: 's1' }, 60_000, t)).toBeUndefined();
    expect(sessionEnded({ touchedAtMs: 1_000, streamId: 's1', streamClosedAtMs: 2_000 }, 600_000, { ...t, graceMs: 0 })).toBeUndefined();
  });
});

describe('sessionIntervals', () => {
  it('touches once a minute and sweeps every 15 s by default', () => {
    expect(sessionIntervals(t)).toEqual({ touchMs: 60_000, sweepMs: 15_000 });
  });

  it('scales down with short timeouts, sweeping at most every 250 ms', () => {
    expect(sessionIntervals({ idleMs: 2_000, graceMs: 1_000 })).toEqual({ touchMs: 500, sweepMs: 500 });
    expect(sessionIntervals({ idleMs: 400, graceMs: 0 })).toEqual({ touchMs: 100, sweepMs: 250 });
  });
});
