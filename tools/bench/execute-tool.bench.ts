// Rough latency check of the call path (not a test): execute_tool through dispatch vs the same
// echo call made straight to server-everything over stdio, plus throughput with 8 concurrent
// callers. Run from the repository root:
//   npx tsx tools/bench/execute-tool.bench.ts
// By default the callers share this process (and thread) with dispatch, so the gRPC numbers
// include both ends' CPU and anything dispatch does after a response (the audit publish) still
// delays the caller's next step. BENCH_CLIENT=process runs the callers (direct and via the gateway
// alike) in a child process instead, as in a deployment; "cpu per call" is then the callers' own.
// "rate-limited" calls the same tool as a principal under a rate limit (one that never refuses),
// interleaved with calls of the unlimited principal, so their ratio is the rate limiter's cost.
import { join, resolve } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { credentials, Metadata } from '@grpc/grpc-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Buckets, connectNats, openBucket, openSnapshotStore } from '@toolsurface/platform';
import { CallToolRequest, DispatchServiceClient, type CallToolResponse } from '@toolsurface/proto';
import { CONFIG_DOCUMENT_KEY, configDocument, SnapshotStore, type CatalogRecord } from '@toolsurface/state';
import type { CapabilitySpec } from '@toolsurface/core';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a benchmark runs the service's own internals in process
import { createApp } from '../../services/dispatch/src/app';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a benchmark runs the service's own internals in process
import { loadConfig } from '../../services/dispatch/src/config';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a benchmark runs the service's own internals in process
import { startNatsServer } from '../../services/dispatch/src/testing/processes';

const ROOT = resolve(import.meta.dirname, '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const N = 3000;
const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.floor(xs.length * p)];

/** The callers: refusals, then direct vs gateway rounds, then throughput. */
async function measure(grpcPort: number, log: (line: string) => void): Promise<void> {
  const direct = new Client({ name: 'b', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
  const client = new DispatchServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  const req = CallToolRequest.fromPartial({
    surfaceId: 'bench',
    name: 'execute_tool',
    argumentsJson: '{"name":"echo","arguments":{"message":"hi"}}',
    callId: 'x',
  });
  const viaGw = () =>
    new Promise<CallToolResponse>((res, rej) =>
      client.callTool(req, new Metadata(), { deadline: Date.now() + 5000 }, (e, r) => (e ? rej(e) : res(r))),
    );

  const via = (surfaceId: string) => {
    const r = CallToolRequest.fromPartial({ ...req, surfaceId });
    return () =>
      new Promise<CallToolResponse>((res, rej) =>
        client.callTool(r, new Metadata(), { deadline: Date.now() + 5000 }, (e, x) => (e ? rej(e) : res(x))),
      );
  };
  const viaLimited = via('bench-limited');
  const viaStrict = via('bench-strict');

  const reqNF = CallToolRequest.fromPartial({ surfaceId: 'bench', name: 'nope', argumentsJson: '{}', callId: 'x' });
  const reqDisc = CallToolRequest.fromPartial({ surfaceId: 'nosuch', name: 'x', argumentsJson: '{}', callId: 'x' });
  const once = (r: CallToolRequest) =>
    new Promise<unknown>((res) => client.callTool(r, new Metadata(), { deadline: Date.now() + 5000 }, (e, x) => res(e ?? x)));
  for (let round = 0; round < 2; round++) {
    const a: number[] = [],
      b: number[] = [];
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      await once(reqNF);
      a.push(performance.now() - t);
      t = performance.now();
      await once(reqDisc);
      b.push(performance.now() - t);
    }
    log(`refusal (audited) p50 ${pct(a, 0.5).toFixed(3)} | caller error (audited, no surface) p50 ${pct(b, 0.5).toFixed(3)}`);
  }
  for (let round = 0; round < 2; round++) {
    const d: number[] = [],
      g: number[] = [];
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      await direct.callTool({ name: 'echo', arguments: { message: 'hi' } });
      d.push(performance.now() - t);
      t = performance.now();
      const r = await viaGw();
      if (r.isError) throw new Error(r.message);
      g.push(performance.now() - t);
    }
    log(
      `round ${round}: direct p50 ${pct(d, 0.5).toFixed(3)} p99 ${pct(d, 0.99).toFixed(3)} | gateway p50 ${pct(g, 0.5).toFixed(3)} p99 ${pct(g, 0.99).toFixed(3)} ms`,
    );
  }
  for (let round = 0; round < 2; round++) {
    const u: number[] = [],
      l: number[] = [],
      st: number[] = [];
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      const a = await viaGw();
      u.push(performance.now() - t);
      t = performance.now();
      const b = await viaLimited();
      l.push(performance.now() - t);
      t = performance.now();
      const c = await viaStrict();
      st.push(performance.now() - t);
      if (a.isError || b.isError || c.isError) throw new Error(a.message || b.message || c.message);
    }
    const [pu, pl, ps] = [pct(u, 0.5), pct(l, 0.5), pct(st, 0.5)];
    log(
      `rate-limited round ${round}: unlimited p50 ${pu.toFixed(3)} | leased p50 ${pl.toFixed(3)} p99 ${pct(l, 0.99).toFixed(3)} ms, ratio ${(pl / pu).toFixed(3)} | one token a call p50 ${ps.toFixed(3)} p99 ${pct(st, 0.99).toFixed(3)} ms, ratio ${(ps / pu).toFixed(3)}`,
    );
  }
  const throughput = async (call: () => Promise<CallToolResponse>) => {
    const from = performance.now();
    let n = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() - from < 3000) {
          await call();
          n++;
        }
      }),
    );
    return n / ((performance.now() - from) / 1000);
  };
  const [tu, tl, ts] = [await throughput(viaGw), await throughput(viaLimited), await throughput(viaStrict)];
  log(
    `rate-limited throughput: unlimited ${tu.toFixed(0)} | leased ${tl.toFixed(0)} (ratio ${(tl / tu).toFixed(3)}) | one token a call ${ts.toFixed(0)} calls/s (ratio ${(ts / tu).toFixed(3)})`,
  );
  // throughput, 8 concurrent callers
  const start = performance.now();
  const cpu = process.cpuUsage();
  let done = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() - start < 3000) {
        await viaGw();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  log(`throughput: ${(done / ((performance.now() - start) / 1000)).toFixed(0)} calls/s`);
  // Less sensitive to other load on the machine than the rates: this process's CPU time per call
  // (dispatch and, in this process, the callers too).
  log(`cpu per call (throughput phase): ${((used.user + used.system) / done).toFixed(0)} µs`);
  client.close();
  await direct.close();
}

const callerPort = Number(process.env.BENCH_CALLER_OF_PORT);
if (callerPort) {
  await measure(callerPort, (line) => console.log(line));
} else {
  const nats = await startNatsServer();
  const nc = await connectNats(`nats://127.0.0.1:${nats.port}`, 'bench');
  const cfg = await openBucket(nc, Buckets.config);
  // The config as surface-resolver stores it: one document (libs/state ConfigView).
  const everything = {
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    env: {},
    cwd: ROOT,
    timeoutMs: 5000,
  } as unknown as CapabilitySpec;
  const doc = configDocument(
    {
      capabilities: { everything },
      principals: [
        { kind: 'agent', id: 'a', mode: 'discovery', autonomy: 'autonomous', capabilities: ['everything'] },
        { kind: 'agent', id: 'l', mode: 'discovery', autonomy: 'autonomous', capabilities: ['everything'] },
        { kind: 'agent', id: 's', mode: 'discovery', autonomy: 'autonomous', capabilities: ['everything'] },
      ],
      admission: {
        default: 'allow',
        rules: [],
        // Neither refuses in the bench (at most a few thousand calls a second run here): only their cost
        // shows. The first is taken in large leases; the second, 100 per 50 ms, in leases of one token,
        // so every call of `s` makes one compare-and-set round trip to NATS.
        limits: [
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
        ],
      },
      orchestrators: [],
      hash: 'bench',
    },
    undefined,
    Date.now(),
  );
  await cfg.put(CONFIG_DOCUMENT_KEY, JSON.stringify(doc));
  const app = createApp(
    loadConfig({ NATS_URL: `nats://127.0.0.1:${nats.port}`, GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', LOG_LEVEL: 'warn' }),
  );
  const { grpcPort } = await app.start();
  const cat = await openBucket(nc, Buckets.catalog);
  let rec: CatalogRecord | undefined;
  while (!(rec = (await cat.get('everything'))?.json<CatalogRecord>())) await new Promise((r) => setTimeout(r, 50));
  const snap = await new SnapshotStore(await openSnapshotStore(nc)).save(
    rec.tools.map((t) => ({ ...t, capability: 'everything', originalName: t.name })),
  );
  const sur = await openBucket(nc, Buckets.surfaces);
  for (const [surfaceId, id] of [
    ['bench', 'a'],
    ['bench-limited', 'l'],
    ['bench-strict', 's'],
  ])
    await sur.put(
      surfaceId,
      JSON.stringify({
        surfaceId,
        principal: { kind: 'agent', id },
        configuredMode: 'discovery',
        resolvedMode: 'discovery',
        snapshotId: snap.snapshot.snapshotId,
        autonomy: 'autonomous',
        boundToolCount: 1,
        presentedTokens: 0,
        collisions: [],
        openedAtMs: Date.now(),
        expiresAtMs: Date.now() + 3600e3,
      }),
    );

  if (process.env.BENCH_CLIENT === 'process') {
    console.log('callers in a child process');
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_CALLER_OF_PORT: String(grpcPort) },
    });
    await new Promise<void>((res, rej) => {
      child.once('error', rej);
      child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`bench callers exited with ${code}`))));
    });
  } else {
    await measure(grpcPort, (line) => console.log(line));
  }
  await app.stop();
  await nc.drain();
  await nats.stop();
}
