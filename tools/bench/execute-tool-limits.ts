// The rate-limit rounds of bench:execute-tool: the same echo call as a principal under a limit
// taken in large leases and as one under a tight limit leased one token at a time, interleaved
// with the unlimited principal, so their ratios are the limiter's cost under the machine's load.
import { Metadata } from '@grpc/grpc-js';
import { CallToolRequest, type CallToolResponse, type DispatchServiceClient } from '@toolsurface/proto';
import type { AdmissionLimit } from '@toolsurface/core';
import type { RateLimitResults } from './rate-limit-table';

/** The principals of the rounds: surface ID and agent ID of each. */
export const LIMITED_SURFACES = [
  { surfaceId: 'bench-limited', id: 'l' },
  { surfaceId: 'bench-strict', id: 's' },
] as const;

/**
 * Neither limit refuses in the bench (at most a few thousand calls a second run here): only their
 * cost shows. The first is taken in large leases; the second, 100 per 50 ms, in leases of one
 * token, so every call of `s` makes one compare-and-set round trip to NATS.
 */
export const BENCH_LIMITS: AdmissionLimit[] = [
  {
    id: 'bench-rate',
    principals: ['agent:l'],
    capabilities: ['*'],
    tools: ['*'],
    rate: { calls: 10_000_000, perSeconds: 60, per: 'principal' },
  },
  {
    id: 'bench-strict',
    principals: ['agent:s'],
    capabilities: ['*'],
    tools: ['*'],
    rate: { calls: 100, perSeconds: 0.05, per: 'principal' },
  },
];

const N = 3000;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)]!;

/** A caller of execute_tool(echo) on one surface that fails on any error, refusals included. */
function caller(client: DispatchServiceClient, surfaceId: string): () => Promise<CallToolResponse> {
  const req = CallToolRequest.fromPartial({
    surfaceId,
    name: 'execute_tool',
    argumentsJson: '{"name":"echo","arguments":{"message":"hi"}}',
    callId: 'x',
  });
  return () =>
    new Promise<CallToolResponse>((res, rej) =>
      client.callTool(req, new Metadata(), { deadline: Date.now() + 5000 }, (e, r) => {
        if (e) rej(e);
        else if (r.isError) rej(new Error(`${surfaceId}: ${r.message}`));
        else res(r);
      }),
    );
}

/** Runs the rounds against one dispatch; `unlimitedSurface` is the principal without a limit. */
export async function measureRateLimits(
  client: DispatchServiceClient,
  unlimitedSurface: string,
  target: string,
  log: (line: string) => void,
): Promise<RateLimitResults> {
  const calls = [caller(client, unlimitedSurface), ...LIMITED_SURFACES.map((s) => caller(client, s.surfaceId))];
  const result: RateLimitResults = {
    target,
    calls: N,
    rounds: [],
    callsPerSecond: { unlimited: 0, leased: 0, oneToken: 0 },
    ratio: { leasedCallsPerSecond: 0, oneTokenCallsPerSecond: 0 },
  };
  // One call of each principal in turn, so a change in the machine's load hits all three alike.
  for (let round = 0; round < 2; round++) {
    const ms: number[][] = [[], [], []];
    for (let i = 0; i < N; i++)
      for (const [k, call] of calls.entries()) {
        const s = performance.now();
        await call();
        ms[k]!.push(performance.now() - s);
      }
    const [u, l, o] = ms as [number[], number[], number[]];
    const r = {
      unlimitedP50: pct(u, 0.5),
      unlimitedP99: pct(u, 0.99),
      leasedP50: pct(l, 0.5),
      leasedP99: pct(l, 0.99),
      oneTokenP50: pct(o, 0.5),
      oneTokenP99: pct(o, 0.99),
    };
    result.rounds.push(r);
    log(
      `[${target}] rate-limited round ${round}: unlimited p50 ${r.unlimitedP50.toFixed(3)} | leased p50 ${r.leasedP50.toFixed(3)} p99 ${r.leasedP99.toFixed(3)} ms, ratio ${(r.leasedP50 / r.unlimitedP50).toFixed(3)} | one token a call p50 ${r.oneTokenP50.toFixed(3)} p99 ${r.oneTokenP99.toFixed(3)} ms, ratio ${(r.oneTokenP50 / r.unlimitedP50).toFixed(3)}`,
    );
  }
  // 8 concurrent callers on one principal, 3 s a turn; the order reverses in the second round.
  const totals = calls.map(() => ({ done: 0, ms: 0 }));
  for (let round = 0; round < 2; round++) {
    const order = round % 2 ? [2, 1, 0] : [0, 1, 2];
    for (const k of order) {
      const start = performance.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() - start < 3000) {
            await calls[k]!();
            done++;
          }
        }),
      );
      totals[k]!.done += done;
      totals[k]!.ms += performance.now() - start;
    }
  }
  const [tu, tl, to] = totals.map((t) => t.done / (t.ms / 1000)) as [number, number, number];
  result.callsPerSecond = { unlimited: tu, leased: tl, oneToken: to };
  result.ratio = { leasedCallsPerSecond: tl / tu, oneTokenCallsPerSecond: to / tu };
  log(
    `[${target}] rate-limited throughput: unlimited ${tu.toFixed(0)} | leased ${tl.toFixed(0)} (ratio ${(tl / tu).toFixed(3)}) | one token a call ${to.toFixed(0)} calls/s (ratio ${(to / tu).toFixed(3)})`,
  );
  return result;
}
