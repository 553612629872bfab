// The fault suite's table (test/fault), as the suite prints it and as BENCHMARKS.md shows it
// (tools/bench/benchmarks-md.ts renders it from test/eval/results/faults.json).

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
