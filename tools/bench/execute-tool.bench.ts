// Rough latency check of the call path (not a test): execute_tool through dispatch vs the same
// echo call made straight to server-everything over stdio, plus throughput with 8 concurrent
// callers. Run from the repository root:
//   npx tsx tools/bench/execute-tool.bench.ts
// By default the callers share this process (and thread) with dispatch, so the gRPC numbers
// include both ends' CPU and anything dispatch does after a response (the audit publish) still
// delays the caller's next step. BENCH_CLIENT=process runs the callers (direct and via the gateway
// alike) in a child process instead, as in a deployment; "cpu per call" is then the callers' own.
// Two dispatch apps take turns: the audit as shipped (spooled) and the best-effort publish without
// the spool; `--json <file>` writes both and their ratios (test/eval/results/execute-tool.bench.json).
// On the spooled app, principals under rate limits then call interleaved with the unlimited one
// (execute-tool-limits.ts); their ratios go into the same file under `rateLimits`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
import { BENCH_LIMITS, LIMITED_SURFACES, measureRateLimits } from './execute-tool-limits';
import type { RateLimitResults } from './rate-limit-table';

const ROOT = resolve(import.meta.dirname, '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const N = 3000;
const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.floor(xs.length * p)];

/** One dispatch to measure: `label` names its audit path. */
interface Target {
  label: string;
  port: number;
}

/** Figures of one target (ms, calls/s, µs). */
interface TargetFigures {
  gatewayP50: number[];
  gatewayP99: number[];
  directP50: number[];
  callsPerSecond: number;
  cpuPerCallUs: number;
}

/** What the callers measured: each target's figures, and the rate-limit rounds on the first target. */
interface Measured {
  figures: Record<string, TargetFigures>;
  rateLimits: RateLimitResults;
}

/**
 * The callers: refusals, then direct vs gateway rounds, then throughput, for each target in turn;
 * then the rate-limit rounds on the first target (the audit as shipped).
 */
async function measure(targets: Target[], log: (line: string) => void): Promise<Measured> {
  const direct = new Client({ name: 'b', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
  const clients = targets.map((t) => new DispatchServiceClient(`127.0.0.1:${t.port}`, credentials.createInsecure()));
  const figures: Record<string, TargetFigures> = Object.fromEntries(
    targets.map((t) => [t.label, { gatewayP50: [], gatewayP99: [], directP50: [], callsPerSecond: 0, cpuPerCallUs: 0 }]),
  );
  const req = CallToolRequest.fromPartial({
    surfaceId: 'bench',
    name: 'execute_tool',
    argumentsJson: '{"name":"echo","arguments":{"message":"hi"}}',
    callId: 'x',
  });
  const viaGw = (client: DispatchServiceClient) =>
    new Promise<CallToolResponse>((res, rej) =>
      client.callTool(req, new Metadata(), { deadline: Date.now() + 5000 }, (e, r) => (e ? rej(e) : res(r))),
    );

  // Each round reverses the order of the one before, so neither target always runs first (the first warms the process up).
  const turns = (round: number) => (round % 2 ? [...targets.entries()].reverse() : [...targets.entries()]);
  const reqNF = CallToolRequest.fromPartial({ surfaceId: 'bench', name: 'nope', argumentsJson: '{}', callId: 'x' });
  const reqDisc = CallToolRequest.fromPartial({ surfaceId: 'nosuch', name: 'x', argumentsJson: '{}', callId: 'x' });
  const once = (client: DispatchServiceClient, r: CallToolRequest) =>
    new Promise<unknown>((res) => client.callTool(r, new Metadata(), { deadline: Date.now() + 5000 }, (e, x) => res(e ?? x)));
  for (let round = 0; round < 2; round++) {
    for (const [k, t] of turns(round)) {
      const a: number[] = [],
        b: number[] = [];
      for (let i = 0; i < N; i++) {
        let s = performance.now();
        await once(clients[k]!, reqNF);
        a.push(performance.now() - s);
        s = performance.now();
        await once(clients[k]!, reqDisc);
        b.push(performance.now() - s);
      }
      log(
        `[${t.label}] refusal (audited) p50 ${pct(a, 0.5).toFixed(3)} | caller error (audited, no surface) p50 ${pct(b, 0.5).toFixed(3)}`,
      );
    }
  }
  // The targets take turns within each round, so a change in the machine's load hits both alike.
  for (let round = 0; round < 2; round++) {
    for (const [k, t] of turns(round)) {
      const d: number[] = [],
        g: number[] = [];
      for (let i = 0; i < N; i++) {
        let s = performance.now();
        await direct.callTool({ name: 'echo', arguments: { message: 'hi' } });
        d.push(performance.now() - s);
        s = performance.now();
        const r = await viaGw(clients[k]!);
        if (r.isError) throw new Error(r.message);
        g.push(performance.now() - s);
      }
      const f = figures[t.label]!;
      f.directP50.push(pct(d, 0.5));
      f.gatewayP50.push(pct(g, 0.5));
      f.gatewayP99.push(pct(g, 0.99));
      log(
        `[${t.label}] round ${round}: direct p50 ${pct(d, 0.5).toFixed(3)} p99 ${pct(d, 0.99).toFixed(3)} | gateway p50 ${pct(g, 0.5).toFixed(3)} p99 ${pct(g, 0.99).toFixed(3)} ms`,
      );
    }
  }
  // Throughput, 8 concurrent callers, 3 s a turn; the targets alternate for two turns each.
  const totals = targets.map(() => ({ done: 0, ms: 0, cpuUs: 0 }));
  for (let round = 0; round < 2; round++) {
    for (const [k, t] of turns(round)) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      let done = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() - start < 3000) {
            await viaGw(clients[k]!);
            done++;
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      const total = totals[k]!;
      total.done += done;
      total.ms += performance.now() - start;
      total.cpuUs += used.user + used.system;
      log(`[${t.label}] throughput turn ${round}: ${(done / ((performance.now() - start) / 1000)).toFixed(0)} calls/s`);
    }
  }
  for (const [k, t] of targets.entries()) {
    const f = figures[t.label]!;
    const total = totals[k]!;
    f.callsPerSecond = total.done / (total.ms / 1000);
    // Less sensitive to other load on the machine than the rates: this process's CPU time per call
    // (dispatch and, in this process, the callers too).
    f.cpuPerCallUs = total.cpuUs / total.done;
    log(`[${t.label}] throughput: ${f.callsPerSecond.toFixed(0)} calls/s, cpu per call ${f.cpuPerCallUs.toFixed(0)} µs`);
  }
  const rateLimits = await measureRateLimits(clients[0]!, 'bench', targets[0]!.label, log);
  for (const c of clients) c.close();
  await direct.close();
  return { figures, rateLimits };
}

const callerPort = Number(process.env.BENCH_CALLER_OF_PORT);
if (callerPort) {
  const targets = JSON.parse(process.env.BENCH_TARGETS ?? '[]') as Target[];
  process.send?.(await measure(targets, (line) => console.log(line)));
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
      principals: ['a', ...LIMITED_SURFACES.map((s) => s.id)].map((id) => ({
        kind: 'agent' as const,
        id,
        mode: 'discovery' as const,
        autonomy: 'autonomous' as const,
        capabilities: ['everything'],
      })),
      admission: { default: 'allow', rules: [], limits: BENCH_LIMITS },
      orchestrators: [],
      hash: 'bench',
    },
    undefined,
    Date.now(),
  );
  await cfg.put(CONFIG_DOCUMENT_KEY, JSON.stringify(doc));
  // The audit as shipped (events spooled to disk, then published) and, beside it in the same run,
  // the best-effort publish without a spool, so the spool's cost is a ratio on one machine state.
  const spoolDir = mkdtempSync(join(tmpdir(), 'toolsurface-bench-spool-'));
  const env = {
    NATS_URL: `nats://127.0.0.1:${nats.port}`,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: 'warn',
    AUDIT_SPOOL_DIR: spoolDir,
  };
  const apps = [
    { label: 'spool', app: createApp(loadConfig(env)) },
    { label: 'no spool', app: createApp(loadConfig(env), { auditSpool: false }) },
  ];
  const targets: Target[] = [];
  for (const a of apps) targets.push({ label: a.label, port: (await a.app.start()).grpcPort });
  const cat = await openBucket(nc, Buckets.catalog);
  let rec: CatalogRecord | undefined;
  while (!(rec = (await cat.get('everything'))?.json<CatalogRecord>())) await new Promise((r) => setTimeout(r, 50));
  const snap = await new SnapshotStore(await openSnapshotStore(nc)).save(
    rec.tools.map((t) => ({ ...t, capability: 'everything', originalName: t.name })),
  );
  const sur = await openBucket(nc, Buckets.surfaces);
  for (const { surfaceId, id } of [{ surfaceId: 'bench', id: 'a' }, ...LIMITED_SURFACES])
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

  let measured: Measured | undefined;
  if (process.env.BENCH_CLIENT === 'process') {
    console.log('callers in a child process');
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_CALLER_OF_PORT: '1', BENCH_TARGETS: JSON.stringify(targets) },
    });
    child.on('message', (m) => (measured = m as Measured));
    await new Promise<void>((res, rej) => {
      child.once('error', rej);
      child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`bench callers exited with ${code}`))));
    });
  } else {
    measured = await measure(targets, (line) => console.log(line));
  }
  if (!measured) throw new Error('bench callers sent no figures');
  const { figures, rateLimits } = measured;
  // the middle value, or the mean of the two middle ones
  const median = (xs: number[]) => {
    const o = [...xs].sort((a, b) => a - b);
    const m = Math.floor(o.length / 2);
    return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
  };
  const spool = figures['spool']!;
  const none = figures['no spool']!;
  const summary = {
    date: new Date().toISOString().slice(0, 10),
    client: process.env.BENCH_CLIENT === 'process' ? 'process' : 'in process',
    loadavg1: loadavg()[0],
    spool: { ...spool, addedP50Ms: median(spool.gatewayP50) - median(spool.directP50) },
    noSpool: { ...none, addedP50Ms: median(none.gatewayP50) - median(none.directP50) },
    ratio: {
      gatewayP50: median(spool.gatewayP50) / median(none.gatewayP50),
      callsPerSecond: spool.callsPerSecond / none.callsPerSecond,
      cpuPerCall: spool.cpuPerCallUs / none.cpuPerCallUs,
    },
    rateLimits,
  };
  console.log(
    `spool vs no spool: gateway p50 ×${summary.ratio.gatewayP50.toFixed(3)}, calls/s ×${summary.ratio.callsPerSecond.toFixed(3)}, cpu per call ×${summary.ratio.cpuPerCall.toFixed(3)}`,
  );
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0 && process.argv[jsonAt + 1]) writeFileSync(process.argv[jsonAt + 1]!, `${JSON.stringify(summary, null, 2)}\n`);
  for (const a of apps) await a.app.stop();
  rmSync(spoolDir, { recursive: true, force: true });
  await nc.drain();
  await nats.stop();
}
