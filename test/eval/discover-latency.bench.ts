// npx tsx test/eval/discover-latency.bench.ts [--calls N] [--rounds N]
// Where discover_tools' latency through gRPC goes (docs/DESIGN.md "Performance budget": p50 under 2 ms
// at 3,000 tools). In one run, each in its own server process on this machine:
//   bare     a grpc-js server of the same DiscoveryService proto whose DiscoverTools answers an
//            empty result at once (no OpenTelemetry, no domain code; bare-grpc.ts): the floor of
//            one gRPC call
//   bare10   the same server answering ten hits of the service's size (bare-grpc.ts TEN_HITS):
//            the floor of a call that returns a full page
//   nomatch  the real discovery service (startEvalService, the eval corpus as one snapshot) on a
//            request that matches nothing: the call path without a search's work
//   dev      the same service on the dev requests, limit 10, in order (each request is seen once a
//            round; later rounds find the service's caches warm)
// Each figure is the p50 and p90 of `--calls` calls (default 1,500) after 1,000 untimed ones, for
// `--rounds` rounds (default 2): the first round shows the cost of code the JIT has not settled yet.
// Ratios between the rows hold from one run to the next; the absolute figures move with the
// machine's load.
import { join } from 'node:path';
import { NO_MATCH_QUERY, discoverCaller, startBareServer, type DiscoverCall } from './bare-grpc';
import {
  corpusDefinitions,
  DEFAULT_EVAL_DIR,
  evalFlags,
  percentile,
  readJsonl,
  startEvalService,
  type CorpusRecord,
  type QueryRecord,
} from './support';

/** p50 and p90 (ms) of `n` calls, the i-th asking `query(i)`. */
async function time(call: DiscoverCall, n: number, query: (i: number) => string): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call(query(i));
    times.push(performance.now() - started);
  }
  return `p50 ${percentile(times, 50).toFixed(3)} ms, p90 ${percentile(times, 90).toFixed(3)} ms`;
}

async function main(): Promise<void> {
  const opts = evalFlags('discover-latency.bench', "where discover_tools' latency through gRPC goes", process.argv.slice(2), [
    { name: 'calls', value: 'N', description: 'timed calls a figure (default 1500)', atLeast: 1 },
    { name: 'rounds', value: 'N', description: 'rounds of every figure (default 2)', atLeast: 1 },
  ]);
  const calls = Number(opts.get('calls') ?? 1500);
  const rounds = Number(opts.get('rounds') ?? 2);
  const queries = readJsonl<QueryRecord>(join(DEFAULT_EVAL_DIR, 'queries.dev.jsonl')).map((q) => q.query);
  const defs = corpusDefinitions(readJsonl<CorpusRecord>(join(DEFAULT_EVAL_DIR, 'corpus.jsonl')));
  const warmUp = 1000;

  const bare = await startBareServer();
  try {
    await time(bare.call, warmUp, () => NO_MATCH_QUERY);
    for (let r = 0; r < rounds; r++) {
      console.log(`round ${r + 1} bare    ${await time(bare.call, calls, () => NO_MATCH_QUERY)}`);
      console.log(`round ${r + 1} bare10  ${await time(bare.call, calls, (i) => queries[i % queries.length])}`);
    }
  } finally {
    bare.stop();
  }

  const svc = await startEvalService('discovery');
  try {
    const snapshotId = (await svc.snapshots.save(defs)).snapshot.snapshotId;
    const real = discoverCaller(svc.address, snapshotId);
    // (the warm-up asks the corpus's descriptions, never the timed requests, as eval:discovery does)
    await time(
      real.call,
      warmUp,
      (i) => (defs[(i * 7919) % defs.length].description ?? '').split(/\s+/).slice(0, 10).join(' ') || 'warm up',
    );
    for (let r = 0; r < rounds; r++) {
      console.log(`round ${r + 1} nomatch ${await time(real.call, calls, () => NO_MATCH_QUERY)}`);
      console.log(`round ${r + 1} dev     ${await time(real.call, calls, (i) => queries[i % queries.length])}`);
    }
    real.close();
  } finally {
    await svc.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
