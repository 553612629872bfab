// npx tsx test/eval/discover-latency.bench.ts [--calls N] [--rounds N]
// Where discover_tools' latency through gRPC goes (DESIGN.md "Performance budget": p50 under 2 ms
// at 3,000 tools). In one run, each in its own server process on this machine:
//   bare     a grpc-js server of the same DiscoveryService proto whose DiscoverTools answers an
//            empty result at once (no OpenTelemetry, no domain code): the floor of one gRPC call
//   nomatch  the real discovery service (startEvalService, the eval corpus as one snapshot) on a
//            request that matches nothing: the call path without a search's work
//   dev      the same service on the dev requests, limit 10, in order (each request is seen once a
//            round; later rounds find the service's caches warm)
// Each figure is the p50 and p90 of `--calls` calls (default 1,500) after 1,000 untimed ones, for
// `--rounds` rounds (default 2): the first round shows the cost of code the JIT has not settled yet.
// Ratios between the rows hold from one run to the next; the absolute figures move with the
// machine's load.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials, Server, ServerCredentials } from '@grpc/grpc-js';
import { DiscoveryServiceClient, DiscoveryServiceService, type DiscoverToolsResponse } from '@toolsurface/proto';
import { findFreePort } from '@toolsurface/stack';
import { corpusDefinitions, DEFAULT_EVAL_DIR, flags, percentile, readJsonl, startEvalService, type CorpusRecord, type QueryRecord } from './support';

/** The bare server (run as `… --bare-server PORT` in a child process): prints "ready" once bound. */
function bareServer(port: number): void {
  const server = new Server();
  const empty = { hits: [], totalTools: 3091, emptyReason: 'NO_MATCH', hint: 'Nothing among 3091 tools matched.' };
  server.addService(DiscoveryServiceService, {
    discoverTools: (_call: unknown, cb: (err: null, res: unknown) => void) => cb(null, empty),
    getToolSchema: (_call: unknown, cb: (err: null, res: unknown) => void) => cb(null, {}),
  });
  server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
    console.log('ready');
  });
}

type Call = (query: string) => Promise<DiscoverToolsResponse>;

function caller(address: string, snapshotId: string): { call: Call; close(): void } {
  const client = new DiscoveryServiceClient(address, credentials.createInsecure());
  const call: Call = (query) => new Promise((resolve, reject) => client.discoverTools({ snapshotId, query, limit: 10 }, (err, res) => (err ? reject(err) : resolve(res))));
  return { call, close: () => client.close() };
}

/** p50 and p90 (ms) of `n` calls, the i-th asking `query(i)`. */
async function time(call: Call, n: number, query: (i: number) => string): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call(query(i));
    times.push(performance.now() - started);
  }
  return `p50 ${percentile(times, 50).toFixed(3)} ms, p90 ${percentile(times, 90).toFixed(3)} ms`;
}

async function main(): Promise<void> {
  const opts = flags(process.argv.slice(2));
  const calls = Number(opts.get('calls') ?? 1500);
  const rounds = Number(opts.get('rounds') ?? 2);
  if (!(Number.isInteger(calls) && calls > 0 && Number.isInteger(rounds) && rounds > 0)) throw new Error('--calls and --rounds take whole numbers above 0');
  const queries = readJsonl<QueryRecord>(join(DEFAULT_EVAL_DIR, 'queries.dev.jsonl')).map((q) => q.query);
  const defs = corpusDefinitions(readJsonl<CorpusRecord>(join(DEFAULT_EVAL_DIR, 'corpus.jsonl')));
  const warmUp = 1000;

  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--bare-server', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => {
      child.stdout!.once('data', resolve);
      child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    });
    const bare = caller(`127.0.0.1:${port}`, `snap_${'0'.repeat(64)}`);
    await time(bare.call, warmUp, () => 'zzqqxx');
    for (let r = 0; r < rounds; r++) console.log(`round ${r + 1} bare    ${await time(bare.call, calls, () => 'zzqqxx')}`);
    bare.close();
  } finally {
    child.kill();
  }

  const svc = await startEvalService('discovery');
  try {
    const snapshotId = (await svc.snapshots.save(defs)).snapshot.snapshotId;
    const real = caller(svc.address, snapshotId);
    // (the warm-up asks the corpus's descriptions, never the timed requests, as eval:discovery does)
    await time(real.call, warmUp, (i) => (defs[(i * 7919) % defs.length].description ?? '').split(/\s+/).slice(0, 10).join(' ') || 'warm up');
    for (let r = 0; r < rounds; r++) {
      console.log(`round ${r + 1} nomatch ${await time(real.call, calls, () => 'zzqqxx')}`);
      console.log(`round ${r + 1} dev     ${await time(real.call, calls, (i) => queries[i % queries.length])}`);
    }
    real.close();
  } finally {
    await svc.stop();
  }
}

const at = process.argv.indexOf('--bare-server');
if (at >= 0) bareServer(Number(process.argv[at + 1]));
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
