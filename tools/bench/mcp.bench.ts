// The MCP endpoint against mcp-proxy and the bare server (not a test): the SDK Client calls
// server-everything's `echo` three ways in one run on one machine:
//   toolsurface  dispatch's MCP endpoint (Streamable HTTP), the capability over stdio; a private
//                nats-server, surface-resolver and dispatch as real processes, an agent in direct mode;
//   mcp-proxy    the mcp-proxy npm package, with its defaults, in front of the same server over stdio;
//   direct       the same client straight over stdio to server-everything (the floor).
// Per round and path: warm-up calls, sequential calls (p50, p99), then 8 clients each with its own
// session calling for a fixed time (calls/s); utime + stime of every process involved is read from
// /proc/<pid>/stat around each phase. Paths interleave, in a rotated order each round; the figures
// are medians over rounds. Run from the repository root:
//   npm run bench:mcp -- [--rounds 5] [--calls 400] [--seconds 2] [--json FILE]
// BENCH_CPU_PROF=<dir> profiles dispatch (tools/bench/cpu-profile.preload.mjs) and writes its profile
// to <dir>/<pid>.cpuprofile at the end.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  failIfExited,
  findFreePorts,
  privateNats,
  REPO_ROOT,
  spawnManaged,
  waitForPort,
  waitForServing,
  type ManagedProcess,
} from '@toolsurface/devkit';
import { serviceEntry, type StackService } from '@toolsurface/stack';
import { median, parseProcStat, percentile } from './mcp-bench-stats';

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '2' },
    json: { type: 'string' },
  },
});
const ROUNDS = Number(opts.rounds);
const CALLS = Number(opts.calls);
const WARMUP = Number(opts.warmup);
const SECONDS = Number(opts.seconds);
const CLIENTS = 8;
const TICK_US = 1e6 / 100; // CLK_TCK is 100 on Linux
const PATHS = ['toolsurface', 'mcp-proxy', 'direct'] as const;
type PathName = (typeof PATHS)[number];
const MCP_PROXY_BIN = join(REPO_ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');
const EVERYTHING_ENTRY = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SERVER_ARGS = [EVERYTHING_ENTRY, 'stdio'];

/** utime + stime of a process, clock ticks; 0 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.cpuTicks ?? 0;
  } catch {
    return 0;
  }
}

/** PIDs of the live children of `pid` that run server-everything (not, say, tsx's esbuild service). */
function serversOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const isChild = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'))?.ppid === pid;
      if (isChild && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(EVERYTHING_ENTRY)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** One way to reach the server: its processes by role, and clients connected to it. */
interface Path {
  name: PathName;
  /** Role → PIDs (the client process itself is added by the bench). */
  processes: Record<string, number[]>;
  /** CLIENTS connected clients, each its own session; the first one runs the sequential calls. */
  clients: Client[];
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'mcp-bench', version: '1' });
  await client.connect(transport);
  return client;
}

const http = (url: string) => () => new StreamableHTTPClientTransport(new URL(url));

async function echo(client: Client): Promise<void> {
  const r = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  if (r.isError) throw new Error(`echo failed: ${JSON.stringify(r.content)}`);
}

/** CPU ticks of every role's processes, the client (this process) included. */
function snapshot(path: Path): Record<string, number> {
  const roles: Record<string, number[]> = { client: [process.pid], ...path.processes };
  return Object.fromEntries(Object.entries(roles).map(([role, pids]) => [role, pids.reduce((s, p) => s + cpuTicks(p), 0)]));
}

/** µs of CPU per call of each role between two snapshots. */
function perCall(before: Record<string, number>, after: Record<string, number>, calls: number): Record<string, number> {
  return Object.fromEntries(Object.keys(before).map((role) => [role, ((after[role] - before[role]) * TICK_US) / calls]));
}

interface RoundFigures {
  p50: number;
  p99: number;
  callsPerSecond: number;
  /** µs per call by role, sequential phase. */
  cpuSequential: Record<string, number>;
  /** µs per call by role, 8-client phase. */
  cpuConcurrent: Record<string, number>;
}

async function round(path: Path): Promise<RoundFigures> {
  const [first] = path.clients;
  for (let i = 0; i < WARMUP; i++) await echo(first);
  const times: number[] = [];
  let before = snapshot(path);
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await echo(first);
    times.push(performance.now() - t);
  }
  const cpuSequential = perCall(before, snapshot(path), CALLS);
  before = snapshot(path);
  const start = performance.now();
  let done = 0;
  await Promise.all(
    path.clients.map(async (c) => {
      while (performance.now() - start < SECONDS * 1000) {
        await echo(c);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return {
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    callsPerSecond: done / elapsed,
    cpuSequential,
    cpuConcurrent: perCall(before, snapshot(path), done),
  };
}

/** Median of each figure over the rounds. */
function summarize(rounds: RoundFigures[]) {
  const roles = Object.keys(rounds[0].cpuConcurrent);
  const med = (f: (r: RoundFigures) => number) => median(rounds.map(f));
  return {
    p50Ms: med((r) => r.p50),
    p99Ms: med((r) => r.p99),
    callsPerSecond: med((r) => r.callsPerSecond),
    cpuUsPerCallSequential: Object.fromEntries(roles.map((k) => [k, med((r) => r.cpuSequential[k])])),
    cpuUsPerCall: Object.fromEntries(roles.map((k) => [k, med((r) => r.cpuConcurrent[k])])),
    rounds: rounds.map((r) => ({ p50Ms: r.p50, p99Ms: r.p99, callsPerSecond: r.callsPerSecond })),
  };
}

const loadBefore = loadavg();
const nats = await privateNats();
if (!nats) throw new Error('nats-server is not installed (see CONTRIBUTING.md)');
const workDir = join(REPO_ROOT, '.data', 'mcp-bench');
mkdirSync(workDir, { recursive: true });
const configPath = join(workDir, 'toolsurface.yaml');
writeFileSync(
  configPath,
  [
    '# Written by tools/bench/mcp.bench.ts: server-everything over stdio, one agent in direct mode.',
    'version: 1',
    'capabilities:',
    '  everything:',
    '    transport: stdio',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(SERVER_ARGS)}`,
    'principals:',
    '  - { kind: agent, id: bench, mode: direct, capabilities: [everything] }',
    'admission:',
    '  default: allow',
    '  rules: []',
    '',
  ].join('\n'),
);
const profDir = process.env.BENCH_CPU_PROF;
const [resolverPort, dispatchPort, mcpPort, proxyPort] = await findFreePorts(4);
const logDir = join(workDir, 'logs');
const started: ManagedProcess[] = [];
/** A service of services/<name> as a real process, as npm start runs it (without discovery and unified-mapper: unused here). */
async function startService(name: StackService['name'], port: number, env: NodeJS.ProcessEnv): Promise<ManagedProcess> {
  const proc = spawnManaged(name, process.execPath, ['--import', 'tsx', serviceEntry(name)], {
    cwd: REPO_ROOT,
    env: { ...process.env, NATS_URL: nats!.url, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), LOG_LEVEL: 'warn', ...env },
    logPath: join(logDir, `${name}.log`),
  });
  started.push(proc);
  await waitForServing(`127.0.0.1:${port}`, { timeoutMs: 60_000, check: failIfExited(proc) });
  return proc;
}
const paths: Path[] = [];
let dispatchPid = 0;
try {
  const resolver = await startService('surface-resolver', resolverPort, { TOOLSURFACE_CONFIG: configPath });
  const dispatch = await startService('dispatch', dispatchPort, {
    SURFACE_RESOLVER_ADDR: `127.0.0.1:${resolverPort}`,
    MCP_PORT: String(mcpPort),
    ...(profDir ? { NODE_OPTIONS: `--import=${join(import.meta.dirname, 'cpu-profile.preload.mjs')}`, BENCH_CPU_PROF_DIR: profDir } : {}),
  });
  dispatchPid = dispatch.pid;
  const proxy = spawnManaged(
    'mcp-proxy',
    process.execPath,
    [MCP_PROXY_BIN, '--port', String(proxyPort), '--', process.execPath, ...SERVER_ARGS],
    {
      cwd: REPO_ROOT,
      env: process.env,
      logPath: join(logDir, 'mcp-proxy.log'),
    },
  );
  started.push(proxy);
  await waitForPort('127.0.0.1', mcpPort, { timeoutMs: 30_000, check: failIfExited(dispatch) });
  await waitForPort('127.0.0.1', proxyPort, { timeoutMs: 30_000, check: failIfExited(proxy) });
  const many = (make: () => Transport) => Promise.all(Array.from({ length: CLIENTS }, () => connect(make())));

  const tsClients = await many(http(`http://127.0.0.1:${mcpPort}/mcp/agent/bench`));
  const proxyClients = await many(http(`http://127.0.0.1:${proxyPort}/mcp`));
  const directTransports = Array.from(
    { length: CLIENTS },
    () => new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, stderr: 'ignore' }),
  );
  const directClients = await Promise.all(directTransports.map(connect));
  for (const c of [tsClients[0], proxyClients[0], directClients[0]]) await echo(c);
  paths.push(
    {
      name: 'toolsurface',
      clients: tsClients,
      processes: {
        dispatch: [dispatchPid],
        'surface-resolver': [resolver.pid],
        'nats-server': [nats.pid!],
        server: serversOf(dispatchPid),
      },
    },
    { name: 'mcp-proxy', clients: proxyClients, processes: { 'mcp-proxy': [proxy.pid!], server: serversOf(proxy.pid!) } },
    { name: 'direct', clients: directClients, processes: { server: directTransports.map((t) => t.pid!) } },
  );
  for (const p of paths) {
    if (p.processes.server.length === 0) throw new Error(`${p.name}: no MCP server process found`);
    console.log(`${p.name}: MCP server processes ${p.processes.server.length}`);
  }

  const figures = Object.fromEntries(PATHS.map((p) => [p, [] as RoundFigures[]])) as Record<PathName, RoundFigures[]>;
  for (let r = 0; r < ROUNDS; r++) {
    const order = paths.map((_, i) => paths[(i + r) % paths.length]);
    for (const p of order) {
      const f = await round(p);
      figures[p.name].push(f);
      console.log(
        `round ${r} ${p.name.padEnd(11)} p50 ${f.p50.toFixed(3)} p99 ${f.p99.toFixed(3)} ms | ${f.callsPerSecond.toFixed(0)} calls/s (8 clients)`,
      );
    }
  }
  const loadAfter = loadavg();
  const results = Object.fromEntries(PATHS.map((p) => [p, summarize(figures[p])])) as Record<PathName, ReturnType<typeof summarize>>;
  const sum = (cpu: Record<string, number>, roles: string[]) => roles.reduce((s, k) => s + (cpu[k] ?? 0), 0);
  const own = ['dispatch', 'surface-resolver', 'nats-server'];
  const ts = results.toolsurface;
  const px = results['mcp-proxy'];
  const targets = {
    p50Ratio: ts.p50Ms / px.p50Ms,
    p50Met: ts.p50Ms <= 0.8 * px.p50Ms,
    throughputRatio: ts.callsPerSecond / px.callsPerSecond,
    throughputMet: ts.callsPerSecond >= px.callsPerSecond,
    cpuOwnUs: sum(ts.cpuUsPerCall, own),
    cpuProxyUs: px.cpuUsPerCall['mcp-proxy'],
    cpuMet: sum(ts.cpuUsPerCall, own) <= px.cpuUsPerCall['mcp-proxy'],
  };

  console.log(`\nmedians of ${ROUNDS} rounds; ${CALLS} sequential calls after ${WARMUP} warm-up, then ${CLIENTS} clients for ${SECONDS} s`);
  console.log(
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`,
  );
  const roles = ['client', 'dispatch', 'surface-resolver', 'nats-server', 'mcp-proxy', 'server'];
  console.log(`| path | p50 ms | p99 ms | calls/s, 8 clients | CPU µs/call: ${roles.join(' | ')} |`);
  for (const p of PATHS) {
    const f = results[p];
    const cpu = roles.map((k) => (k in f.cpuUsPerCall ? f.cpuUsPerCall[k].toFixed(0) : '-'));
    console.log(`| ${p} | ${f.p50Ms.toFixed(3)} | ${f.p99Ms.toFixed(3)} | ${f.callsPerSecond.toFixed(0)} | ${cpu.join(' | ')} |`);
  }
  console.log(
    `toolsurface / mcp-proxy: p50 ${targets.p50Ratio.toFixed(2)}× (target ≤ 0.8: ${targets.p50Met ? 'met' : 'not met'}); ` +
      `calls/s ${targets.throughputRatio.toFixed(2)}× (target ≥ 1: ${targets.throughputMet ? 'met' : 'not met'}); ` +
      `CPU of dispatch + surface-resolver + nats-server ${targets.cpuOwnUs.toFixed(0)} µs vs mcp-proxy ${targets.cpuProxyUs.toFixed(0)} µs a call (${targets.cpuMet ? 'met' : 'not met'})`,
  );
  if (opts.json) {
    const doc = {
      date: new Date().toISOString().slice(0, 10),
      machine: { cores: cpus().length, node: process.version, loadBefore, loadAfter },
      settings: { rounds: ROUNDS, calls: CALLS, warmup: WARMUP, seconds: SECONDS, clients: CLIENTS },
      paths: results,
      targets,
    };
    writeFileSync(opts.json, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${opts.json}`);
  }
} finally {
  if (profDir && dispatchPid) {
    process.kill(dispatchPid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 2000));
  }
  for (const p of paths) await Promise.all(p.clients.map((c) => c.close().catch(() => undefined)));
  for (const p of started.reverse()) await p.stop(5000);
  await nats.stop();
}
