import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { connectNats } from '@toolsurface/platform';
import { DispatchServiceClient, type CallToolResponse } from '@toolsurface/proto';
import { serviceEntry, startStack, STACK_SERVICES, type RunningStack } from '@toolsurface/stack';
import { faultsTable, findFreePort, spawnManaged, waitForServing, type ManagedProcess } from '@toolsurface/devkit';
import { Clients } from '../support';
import { readAudit, spooledCallIds, type AuditEvent, type FaultRow } from './fault-report';
import { NatsCluster } from './nats-cluster';

// The audit and the call path under NATS faults (issue 38, docs/operations.md "Faults"): a 3-node
// JetStream cluster on loopback with R3 storage, the gateway with two replicas of each service, a real
// MCP server that writes down every call it ran, and eight callers. Each phase runs the callers
// for PHASE_MS with one fault in it; then every call that ran must have exactly one tool.called
// event, and callers must have seen only retriable errors.

const PHASE_MS = Number(process.env.FAULT_PHASE_MS ?? 30_000);
const FAULT_AT_MS = 5_000;
const CALLERS = 8;
const RESULTS_FILE = resolve(__dirname, '../eval/results/faults.json');
/** What a caller may see during a fault: it retries these. */
const RETRIABLE = new Set(['UNAVAILABLE', 'CAPABILITY_UNAVAILABLE']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let cluster: NatsCluster;
let stack: RunningStack;
let nc: NatsConnection;
let dispatchers: DispatchServiceClient[];
let surfaceId: string;
let toolName: string;
let countFile: string;
const rows: FaultRow[] = [];
/** Second replicas of surface-resolver, discovery and unified-mapper (dispatch's is the stack's). */
const extra: Array<{ name: string; proc: ManagedProcess; address: string }> = [];
/** The service environment every process of the suite gets. */
const serviceEnv = (): NodeJS.ProcessEnv => ({
  JETSTREAM_REPLICAS: '3',
  AUDIT_SPOOL_DIR: join(dir, 'spool'),
  LOG_LEVEL: 'warn',
});

/** Starts a second replica of a service on a free port, on the same NATS and config; resolves once it is SERVING. */
async function startExtraReplica(name: 'surface-resolver' | 'discovery' | 'unified-mapper'): Promise<void> {
  const svc = STACK_SERVICES.find((x) => x.name === name)!;
  const port = await findFreePort();
  const proc = spawnManaged(`${name}-2`, process.execPath, ['--import', 'tsx', serviceEntry(name)], {
    cwd: resolve(__dirname, '../..'),
    env: {
      ...process.env,
      NATS_URL: cluster.url,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      ...(name === 'surface-resolver' ? { TOOLSURFACE_CONFIG: stack.configPath } : {}),
      ...serviceEnv(),
    },
    logPath: join(dir, 'logs', `${name}-2.log`),
  });
  const address = `127.0.0.1:${port}`;
  await waitForServing(address, { services: ['', ...svc.healthServices], timeoutMs: 120_000 });
  extra.push({ name, proc, address });
}

/** After a fault: the second surface-resolver opens a surface again (within 60 s), and every second replica still runs. */
async function expectOtherReplicasServe(): Promise<void> {
  const resolver = extra.find((e) => e.name === 'surface-resolver')!;
  const clients = new Clients({ ...stack.addresses, resolver: resolver.address });
  try {
    let opened: string | undefined;
    for (const end = Date.now() + 60_000; !opened && Date.now() < end;) {
      opened = await clients
        .open('agent:caller')
        .then((s) => s.surfaceId)
        .catch(() => undefined);
      if (!opened) await sleep(500);
    }
    expect(opened, 'a surface opened on the second surface-resolver').toBeTruthy();
  } finally {
    clients.close();
  }
  for (const e of extra) expect(e.proc.exit(), `${e.name}-2 still running`).toBeUndefined();
}

interface CallerLog {
  calls: string[];
  answered: number;
  errors: Record<string, number>;
  /** Time of each successful call, ms since epoch. */
  successes: number[];
}

function callTool(client: DispatchServiceClient, callId: string): Promise<CallToolResponse> {
  return new Promise((res, rej) =>
    client.callTool(
      { surfaceId, name: toolName, argumentsJson: JSON.stringify({ tag: callId }), callId },
      new Metadata(),
      { deadline: Date.now() + 15_000 },
      (err: ServiceError | null, r: CallToolResponse) => (err ? rej(err) : res(r)),
    ),
  );
}

/** One caller: calls one dispatch replica (callers alternate between them) until `stop`, pausing 100 ms after an error. */
async function caller(phase: string, i: number, stop: () => boolean): Promise<CallerLog> {
  const log: CallerLog = { calls: [], answered: 0, errors: {}, successes: [] };
  for (let n = 0; !stop(); n++) {
    const callId = `${phase}-c${i}-${n}`;
    log.calls.push(callId);
    try {
      const r = await callTool(dispatchers[i % dispatchers.length]!, callId);
      log.answered++;
      if (r.isError) log.errors[r.reason] = (log.errors[r.reason] ?? 0) + 1;
      else log.successes.push(Date.now());
      if (r.isError) await sleep(100);
    } catch (e) {
      const code = status[(e as ServiceError).code] ?? String(e);
      log.errors[code] = (log.errors[code] ?? 0) + 1;
      await sleep(100);
    }
  }
  return log;
}

/** Tags the backend recorded (calls that ran). */
function ranOnBackend(phase: string): Set<string> {
  const lines = existsSync(countFile) ? readFileSync(countFile, 'utf8').split('\n') : [];
  return new Set(lines.filter((l) => l.startsWith(`${phase}-`)));
}

let auditSeq = 0;
const audit: AuditEvent[] = [];

/** Runs the callers for PHASE_MS with `fault` started at FAULT_AT_MS; waits for the audit to catch up; records the row. */
async function phase(name: string, fault: () => Promise<void>): Promise<FaultRow> {
  let stopped = false;
  const callers = Array.from({ length: CALLERS }, (_, i) => caller(name, i, () => stopped));
  await sleep(FAULT_AT_MS);
  const faultStart = Date.now();
  await fault();
  await sleep(Math.max(0, PHASE_MS - (Date.now() - faultStart) - FAULT_AT_MS));
  stopped = true;
  const logs = await Promise.all(callers);
  const phaseEnd = Date.now();
  const ran = ranOnBackend(name);
  // The spools drain in the background: wait until every call that ran has its event, or 120 s.
  const ids = () => new Set(audit.filter((e) => e.callId.startsWith(`${name}-`)).map((e) => e.callId));
  for (const end = Date.now() + 120_000; Date.now() < end;) {
    const got = await readAudit(nc, auditSeq).catch((e: unknown) => {
      console.warn(`reading the stream failed, trying again: ${String(e)}`);
      return { events: [], lastSeq: auditSeq };
    });
    audit.push(...got.events);
    auditSeq = got.lastSeq;
    const have = ids();
    if ([...ran].every((t) => have.has(t))) break;
    await sleep(1000);
  }
  const events = audit.filter((e) => e.callId.startsWith(`${name}-`));
  const unique = ids();
  const errors: Record<string, number> = {};
  for (const l of logs) for (const [k, v] of Object.entries(l.errors)) errors[k] = (errors[k] ?? 0) + v;
  // From the fault, the longest any caller went without a successful call.
  let recoveryMs = 0;
  for (const l of logs) {
    // (the phase's end closes a caller's last gap: one that never succeeded again counts to the end)
    const after = [faultStart, ...l.successes.filter((t) => t >= faultStart), phaseEnd];
    for (let k = 1; k < after.length; k++) recoveryMs = Math.max(recoveryMs, after[k]! - after[k - 1]!);
  }
  const missing = [...ran].filter((t) => !unique.has(t));
  const row: FaultRow = {
    fault: name,
    calls: logs.reduce((s, l) => s + l.calls.length, 0),
    answered: logs.reduce((s, l) => s + l.answered, 0),
    ran: ran.size,
    errors,
    audited: unique.size,
    ranWithoutEvent: missing.length,
    duplicates: events.length - unique.size,
    recoveryMs,
  };
  rows.push(row);
  if (missing.length > 0) {
    // Which side lost them: still unacknowledged in a spool, or acknowledged and not in the stream.
    const spooled = spooledCallIds(join(dir, 'spool'));
    const shown = missing.slice(0, 20).map((t) => `${t} (${spooled.has(t) ? 'still in a spool' : 'not in any spool'})`);
    console.warn(`${name}: ${missing.length} calls ran without an audit event: ${shown.join(', ')}`);
  }
  return row;
}

function expectTargets(row: FaultRow): void {
  expect(row.ran, 'calls ran on the backend').toBeGreaterThan(0);
  expect(row.ranWithoutEvent, 'calls that ran without an audit event').toBe(0);
  expect(row.duplicates, 'duplicate audit events').toBe(0);
  expect(
    Object.keys(row.errors).filter((k) => !RETRIABLE.has(k)),
    'errors other than retriable ones',
  ).toEqual([]);
}

describe('the gateway on a 3-node JetStream cluster under NATS faults', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsurface-fault-'));
    countFile = join(dir, 'ran.log');
    cluster = await NatsCluster.start(join(dir, 'nats'));
    const configPath = join(dir, 'toolsurface.yaml');
    mkdirSync(join(dir, 'spool'));
    writeFileSync(
      configPath,
      [
        'version: 1',
        'capabilities:',
        '  counter:',
        '    transport: stdio',
        '    command: node',
        `    args: [${JSON.stringify(join(__dirname, 'counting-mcp-server.mjs'))}]`,
        `    env: { COUNT_FILE: ${JSON.stringify(countFile)} }`,
        'principals:',
        '  - { kind: agent, id: caller, mode: direct, capabilities: [counter] }',
        'admission:',
        '  default: allow',
        '',
      ].join('\n'),
    );
    stack = await startStack({
      natsUrl: cluster.url,
      configPath,
      freePorts: true,
      logDir: join(dir, 'logs'),
      readyTimeoutMs: 120_000,
      env: serviceEnv(),
    });
    const second = await stack.addDispatchReplica();
    for (const name of ['surface-resolver', 'discovery', 'unified-mapper'] as const) await startExtraReplica(name);
    // A caller that retries reconnects within a second, not after grpc-js's default back-off (up to 120 s).
    const channel = { 'grpc.initial_reconnect_backoff_ms': 200, 'grpc.max_reconnect_backoff_ms': 1000 };
    dispatchers = [stack.addresses.dispatch, second.dispatch].map(
      (a) => new DispatchServiceClient(a, credentials.createInsecure(), channel),
    );
    nc = await connectNats(cluster.url, 'fault-suite');
    // The catalog lists the counter before any surface is opened.
    const catalog = await new Kvm(nc).open('toolsurface_catalog');
    for (const end = Date.now() + 120_000; ;) {
      const e = await catalog.get('counter').catch(() => null);
      if (e?.operation === 'PUT' && (JSON.parse(e.string()) as { status: string }).status === 'ok') break;
      if (Date.now() > end) throw new Error('the counter capability never listed its tools');
      await sleep(250);
    }
    const clients = new Clients(stack.addresses);
    const surface = await clients.open('agent:caller');
    clients.close();
    surfaceId = surface.surfaceId;
    toolName = surface.tools.map((t) => t.name).find((n) => n.endsWith('record'))!;
    expect(toolName).toBeTruthy();
  }, 300_000);

  afterAll(async () => {
    for (const d of dispatchers ?? []) d.close();
    await nc?.drain().catch(() => undefined);
    for (const e of extra) await e.proc.stop(5000);
    await stack?.stop();
    await cluster?.stop();
    if (rows.length > 0) {
      const table = faultsTable({ phaseMs: PHASE_MS, callers: CALLERS, rows }).join('\n');
      console.log(`\nJetStream faults:\n${table}\n`);
      // Only on request: BENCHMARKS.md is generated from this file, and a plain test run must not change it.
      if (process.env.FAULT_RECORD)
        writeFileSync(RESULTS_FILE, `${JSON.stringify({ phaseMs: PHASE_MS, callers: CALLERS, rows }, null, 2)}\n`);
    }
    if (dir && !process.env.FAULT_KEEP_DIR) rmSync(dir, { recursive: true, force: true });
    else if (dir) console.log(`fault suite files kept in ${dir}`);
  }, 120_000);

  it('stores the stream and every bucket with three replicas', async () => {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const jsm = await jetstreamManager(nc);
    const replicas: Record<string, number> = {};
    for await (const s of jsm.streams.list()) replicas[s.config.name] = s.config.num_replicas;
    expect(replicas).toMatchObject({ TOOLSURFACE: 3, KV_toolsurface_catalog: 3, KV_toolsurface_config: 3, OBJ_toolsurface_snapshots: 3 });
  });

  it('SIGKILL of the stream leader node, restarted 3 s later: every call that ran is audited once', async () => {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const leader = (await (await jetstreamManager(nc)).streams.info('TOOLSURFACE')).cluster?.leader ?? 'n1';
    const row = await phase('kill-node', async () => {
      const node = cluster.node(leader);
      await cluster.stopNode(node, 'SIGKILL');
      await sleep(3000);
      await cluster.startNode(node);
    });
    expectTargets(row);
    await expectOtherReplicasServe();
  }, 400_000);

  it('the whole cluster restarted with SIGTERM: every call that ran is audited once', async () => {
    const row = await phase('restart-cluster', async () => {
      await cluster.stop();
      await sleep(3000);
      await Promise.all(cluster.nodes.map((n) => cluster.startNode(n)));
    });
    expectTargets(row);
    await expectOtherReplicasServe();
  }, 400_000);

  it('a dispatch replica killed with SIGKILL while NATS is down, started again: its spooled events arrive once', async () => {
    const first = stack.processes.find((p) => p.name === 'dispatch')!;
    const row = await phase('kill-dispatch', async () => {
      await cluster.stop();
      await sleep(1000);
      process.kill(first.pid, 'SIGKILL');
      await sleep(2000);
      await Promise.all(cluster.nodes.map((n) => cluster.startNode(n)));
      // The replica starts again on its ports and takes over the spool the killed one left.
      await stack.restart('dispatch');
    });
    expectTargets(row);
    await expectOtherReplicasServe();
  }, 400_000);
});
