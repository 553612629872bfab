// Pure helpers of tools/bench/mcp.bench.ts: percentiles, medians and the CPU time of a process
// from the text of /proc/<pid>/stat. No I/O here (mcp-bench-stats.test.ts tests them).

/** The value at share `p` (0-1) of `xs` sorted ascending (nearest rank below); NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The median of `xs` (the mean of the middle two for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** What the bench reads of /proc/<pid>/stat: the parent's PID and user + system CPU time in clock ticks. */
export interface ProcStat {
  ppid: number;
  /** utime + stime, clock ticks (sysconf CLK_TCK, 100 on Linux). */
  cpuTicks: number;
}

/**
 * Parses the text of /proc/<pid>/stat. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so fields are counted from the last ")": ppid is field 4, utime
 * field 14 and stime field 15 (proc(5)). Returns undefined for text that is not such a line.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // after ")": state (field 3), ppid (4), ..., utime (14), stime (15)
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (![ppid, utime, stime].every(Number.isInteger)) return undefined;
  return { ppid, cpuTicks: utime + stime };
}
