// BENCHMARKS.md's table of what the audit spool costs on bench:execute-tool. Rendered by
// benchmarks-md.ts, beside the fault suite's table (faultsTable in @toolsurface/devkit, which the
// suite itself prints).
import type { RateLimitResults } from './rate-limit-table';

/** One target's figures in test/eval/results/execute-tool.bench.json (ms, calls/s, µs). */
export interface ExecuteToolFigures {
  gatewayP50: number[];
  gatewayP99: number[];
  directP50: number[];
  callsPerSecond: number;
  cpuPerCallUs: number;
  addedP50Ms: number;
}

/** test/eval/results/execute-tool.bench.json: the spooled audit beside the best-effort publish, one run. */
export interface ExecuteToolResults {
  date: string;
  client: string;
  loadavg1: number;
  spool: ExecuteToolFigures;
  noSpool: ExecuteToolFigures;
  ratio: { gatewayP50: number; callsPerSecond: number; cpuPerCall: number };
  /** The rate-limit rounds, on the spooled app. */
  rateLimits?: RateLimitResults;
}

/** The middle value, or the mean of the two middle ones. */
function median(xs: number[]): number {
  const o = [...xs].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? (o[m] ?? NaN) : ((o[m - 1] ?? NaN) + (o[m] ?? NaN)) / 2;
}

/** The spool's cost: both audit paths side by side with their ratio. */
export function auditCostTable(r: ExecuteToolResults): string[] {
  const row = (label: string, a: number, b: number, digits: number, ratio: number) =>
    `| ${label} | ${a.toFixed(digits)} | ${b.toFixed(digits)} | ×${ratio.toFixed(2)} |`;
  return [
    `Run of ${r.date}, callers ${r.client}, load average ${r.loadavg1.toFixed(1)} when it ended.`,
    '',
    '| measure | spool (as shipped) | no spool (best effort) | ratio |',
    '|---|---:|---:|---:|',
    row('gateway p50, ms (median of rounds)', median(r.spool.gatewayP50), median(r.noSpool.gatewayP50), 3, r.ratio.gatewayP50),
    row(
      'gateway p99, ms (median of rounds)',
      median(r.spool.gatewayP99),
      median(r.noSpool.gatewayP99),
      3,
      median(r.spool.gatewayP99) / median(r.noSpool.gatewayP99),
    ),
    row('added by the gateway, p50, ms', r.spool.addedP50Ms, r.noSpool.addedP50Ms, 3, r.spool.addedP50Ms / r.noSpool.addedP50Ms),
    row('calls/s, 8 callers', r.spool.callsPerSecond, r.noSpool.callsPerSecond, 0, r.ratio.callsPerSecond),
    row('CPU a call, µs', r.spool.cpuPerCallUs, r.noSpool.cpuPerCallUs, 0, r.ratio.cpuPerCall),
  ];
}
