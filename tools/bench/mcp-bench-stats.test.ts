import { describe, expect, it } from 'vitest';
import { median, parseProcStat, percentile } from './mcp-bench-stats';

describe('mcp bench statistics', () => {
  it('takes percentiles by nearest rank below, without reordering the input', () => {
    const xs = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(xs, 0.5)).toBe(6);
    expect(percentile(xs, 0.99)).toBe(10);
    expect(percentile(xs, 0)).toBe(1);
    expect(xs[0]).toBe(5);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reads ppid and utime + stime from /proc/<pid>/stat, a command name with spaces and ")" included', () => {
    const line = '4242 (node (x) y) S 4200 4242 4200 0 -1 4194560 9000 0 0 0 1234 56 0 0 20 0 11 0 999 0 0';
    expect(parseProcStat(line)).toEqual({ ppid: 4200, cpuTicks: 1290 });
    expect(parseProcStat('garbage')).toBeUndefined();
    expect(parseProcStat('1 (init) S x')).toBeUndefined();
  });
});
