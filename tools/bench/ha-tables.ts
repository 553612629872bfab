// BENCHMARKS.md tables of the audit path: what the spool costs on bench:execute-tool, and the
// fault suite's table (test/fault/jetstream-faults.e2e.test.ts). Rendered by benchmarks-md.ts.
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

/** One fault of test/eval/results/faults.json. */
export interface FaultResultRow {
  fault: string;
  calls: number;
  ran: number;
  errors: Record<string, number>;
  audited: number;
  ranWithoutEvent: number;
  duplicates: number;
  recoveryMs: number;
}

/** test/eval/results/faults.json: the fault suite's last run. */
export interface FaultResults {
  phaseMs: number;
  callers: number;
  rows: FaultResultRow[];
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

/** The fault suite's table. */
export function faultsTable(r: FaultResults): string[] {
  const errors = (e: Record<string, number>) =>
    Object.entries(e)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  return [
    `${r.callers} callers, ${r.phaseMs / 1000} s per fault, 3-node cluster, R3, two replicas of each service.`,
    '',
    '| fault | calls made | ran on backend | errors callers saw | audit events (unique) | ran without event | duplicates | calls succeed again after |',
    '|---|---:|---:|---|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) =>
        `| ${x.fault} | ${x.calls} | ${x.ran} | ${errors(x.errors)} | ${x.audited} | ${x.ranWithoutEvent} | ${x.duplicates} | ${(x.recoveryMs / 1000).toFixed(1)} s |`,
    ),
  ];
}
