// BENCHMARKS.md table of what rate limits in NATS cost on bench:execute-tool (its rateLimits
// figures, tools/bench/execute-tool-limits.ts). Rendered by benchmarks-md.ts; no imports, so the
// generator stays free of the bench's gRPC and NATS clients.

/** One latency round: the three principals' calls interleaved (ms). */
export interface RateLimitRound {
  unlimitedP50: number;
  unlimitedP99: number;
  leasedP50: number;
  leasedP99: number;
  oneTokenP50: number;
  oneTokenP99: number;
}

/** `rateLimits` of test/eval/results/execute-tool.bench.json. */
export interface RateLimitResults {
  /** The dispatch app measured (the audit as shipped). */
  target: string;
  /** Calls of each principal in a latency round. */
  calls: number;
  rounds: RateLimitRound[];
  /** 8 concurrent callers on one principal, turns summed over the rounds. */
  callsPerSecond: { unlimited: number; leased: number; oneToken: number };
  ratio: { leasedCallsPerSecond: number; oneTokenCallsPerSecond: number };
}

/** A figure shown with `digits` decimals, or an error naming what is missing. */
function shown(x: unknown, digits: number, what: string, fail: (message: string) => Error): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw fail(`results: rateLimits ${what} is missing or not a number`);
  return x.toFixed(digits);
}

/**
 * The leased and one-token-a-call principals against the unlimited one of the same rounds: p50
 * ratios of each round, then the 8-caller throughput ratio. `fail` builds the caller's error type.
 */
export function rateLimitTable(
  r: RateLimitResults | undefined,
  run: { date: string; loadavg1: number },
  fail: (message: string) => Error,
): string[] {
  if (!r?.rounds?.length) throw fail('results: no rateLimits rounds (run bench:execute-tool with --json)');
  const ratios = (p50: (x: RateLimitRound) => number, what: string) =>
    r.rounds.map((x, i) => shown(p50(x) / x.unlimitedP50, 3, `rounds[${i}].${what}`, fail)).join(', ');
  const ms = (p: (x: RateLimitRound) => number, what: string) =>
    r.rounds.map((x, i) => shown(p(x), 3, `rounds[${i}].${what}`, fail)).join(', ');
  const cps = r.callsPerSecond;
  return [
    `Run of ${run.date}, load average ${shown(run.loadavg1, 1, 'loadavg1', fail)} when it ended; the \`${r.target}\` app (audit as shipped),`,
    `${r.rounds.length} rounds of ${shown(r.calls, 0, 'calls', fail)} calls a principal, the principals taking turns call by call; figures listed by round.`,
    '',
    '| measure | unlimited | leased (large leases) | one token a call (100 per 50 ms) |',
    '|---|---:|---:|---:|',
    `| p50, ms | ${ms((x) => x.unlimitedP50, 'unlimitedP50')} | ${ms((x) => x.leasedP50, 'leasedP50')} | ${ms((x) => x.oneTokenP50, 'oneTokenP50')} |`,
    `| p99, ms | ${ms((x) => x.unlimitedP99, 'unlimitedP99')} | ${ms((x) => x.leasedP99, 'leasedP99')} | ${ms((x) => x.oneTokenP99, 'oneTokenP99')} |`,
    `| p50 ratio to unlimited | 1 | ${ratios((x) => x.leasedP50, 'leasedP50')} | ${ratios((x) => x.oneTokenP50, 'oneTokenP50')} |`,
    `| calls/s, 8 callers on one principal | ${shown(cps?.unlimited, 0, 'callsPerSecond.unlimited', fail)} | ${shown(cps?.leased, 0, 'callsPerSecond.leased', fail)} | ${shown(cps?.oneToken, 0, 'callsPerSecond.oneToken', fail)} |`,
    `| calls/s ratio to unlimited | 1 | ${shown(r.ratio?.leasedCallsPerSecond, 3, 'ratio.leasedCallsPerSecond', fail)} | ${shown(r.ratio?.oneTokenCallsPerSecond, 3, 'ratio.oneTokenCallsPerSecond', fail)} |`,
  ];
}
