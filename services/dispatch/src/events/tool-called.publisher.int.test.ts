import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { defaultNatsBinary, findFreePort, waitForPort } from '@toolsurface/devkit';
import { isAppError, ReasonCode } from '@toolsurface/core';
import { connectNats, ensureStream, EventPublisher, STREAM, streamCreated, Subjects, type Logger } from '@toolsurface/platform';
import { ToolCalled } from '@toolsurface/proto';
import type { ToolCalledEvent } from '../domain/ports';
import { AuditSpool } from './audit-spool';
import { ToolCalledPublisher } from './tool-called.publisher';

// The audit path against a real nats-server that is stopped and started again on the same store:
// every event reaches the stream once, across an outage and across a process killed with SIGKILL.

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('tool-called-publisher-test');

const event = (callId: string, eventId?: string): ToolCalledEvent => ({
  surfaceId: 's1',
  principal: { kind: 'agent', id: 'a1' },
  snapshotId: 'snap',
  orchestrator: 'o1',
  calledName: 'execute_tool',
  toolName: 'echo',
  capability: 'everything',
  via: 'execute_tool',
  outcome: 'ok',
  reason: '',
  admission: undefined,
  durationMs: 1,
  callId,
  atMs: 1,
  ...(eventId ? { eventId } : {}),
});

const silentLogger = () =>
  ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };

/** A nats-server with JetStream on a fixed port and store, which the test stops and starts again. */
class RestartableNats {
  child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    readonly dir: string,
  ) {}
  async start(): Promise<void> {
    this.child = spawn(defaultNatsBinary(), ['-js', '-p', String(this.port), '-sd', this.dir, '-a', '127.0.0.1'], { stdio: 'ignore' });
    await waitForPort('127.0.0.1', this.port, { timeoutMs: 30_000 });
  }
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  }
}

const until = async (cond: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('ToolCalledPublisher with its spool on a real stream', () => {
  let nats: RestartableNats;
  let nc: NatsConnection;
  let root: string;
  let tag: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'toolsurface-audit-test-'));
    nats = new RestartableNats(await findFreePort(), join(root, 'nats'));
    await nats.start();
    nc = await connectNats(`nats://127.0.0.1:${nats.port}`, 'tool-called-test');
    await ensureStream(nc);
    tag = await streamCreated(nc);
  }, 60_000);
  afterAll(async () => {
    await nc?.drain().catch(() => undefined);
    await nats?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** tool.called events in the stream: call id, msg id and traceparent of each. */
  const stored = async () => {
    const jsm = await jetstreamManager(nc);
    const n = (await jsm.streams.info(STREAM)).state.last_seq;
    const out = [];
    for (let seq = 1; seq <= n; seq++) {
      const m = await jsm.streams.getMessage(STREAM, { seq }).catch(() => null);
      if (m && m.subject === Subjects.toolCalled) {
        const e = ToolCalled.decode(m.data);
        out.push({ event: e, msgId: m.header.get('Nats-Msg-Id'), traceparent: m.header.get('traceparent') });
      }
    }
    return out;
  };
  const publisher = (sub: string, opts: ConstructorParameters<typeof ToolCalledPublisher>[3] = {}) => {
    const logger = silentLogger();
    const spool = new AuditSpool({ dir: join(root, sub), fsyncIntervalMs: 50, streamTag: tag });
    const pub = new ToolCalledPublisher(new EventPublisher(nc, tracer), logger, spool, opts);
    pub.open();
    return { pub, logger };
  };

  it('stores exactly one event per call, with a msg id and the caller’s trace context, all acked by flush()', async () => {
    const { pub, logger } = publisher('a');
    const callSpans = [];
    for (let i = 0; i < 20; i++) {
      const span = tracer.startSpan(`call ${i}`);
      callSpans.push(span);
      context.with(trace.setSpan(context.active(), span), () => pub.toolCalled(event(`call-${i}`)));
      span.end();
    }
    await pub.flush();
    expect(pub.backlog()).toBe(0);
    expect(logger.error).not.toHaveBeenCalled();
    const got = (await stored()).filter((s) => s.event.callId.startsWith('call-'));
    expect(got.map((g) => g.event.callId).sort()).toEqual(callSpans.map((_, i) => `call-${i}`).sort());
    expect(new Set(got.map((g) => g.msgId)).size).toBe(20);
    for (const g of got) {
      expect(g.msgId).toMatch(/^[0-9a-f-]{36}$/);
      const i = Number(g.event.callId.slice('call-'.length));
      expect(g.traceparent?.split('-')[1]).toBe(callSpans[i]!.spanContext().traceId);
    }
    // Everything stored: the process's spool directory is gone.
    expect(readdirSync(join(root, 'a'))).toEqual([]);
  });

  it('keeps the events of calls made while NATS is down and stores each once when it is back', async () => {
    const { pub } = publisher('b', { failClosedAfterMs: 500 });
    for (let i = 0; i < 50; i++) pub.toolCalled(event(`before-${i}`));
    await until(() => pub.backlog() === 0);
    await nats.stop('SIGKILL');
    for (let i = 0; i < 200; i++) pub.toolCalled(event(`outage-${i}`));
    await new Promise((r) => setTimeout(r, 1500));
    expect(pub.backlog()).toBe(200);
    expect(pub.streamBehind()).toBe(true);
    await nats.start();
    await until(() => pub.backlog() === 0, 90_000);
    await pub.flush();
    const got = (await stored()).filter((s) => /^(before|outage)-/.test(s.event.callId));
    expect(got).toHaveLength(250);
    expect(new Set(got.map((g) => g.event.callId)).size).toBe(250);
  }, 150_000);

  it('fail-closed refuses a call with UNAVAILABLE while events wait for the stream, and runs it again once they are stored', async () => {
    const { pub } = publisher('c', { failClosed: true, failClosedAfterMs: 300 });
    const starting = () => pub.toolStarting({ ...event('fc-call', 'fc-id'), outcome: 'error', reason: 'INTERNAL', eventId: 'fc-id' });
    expect(starting).not.toThrow();
    pub.toolCalled(event('fc-call', 'fc-id'));
    await until(() => pub.backlog() === 0);
    await nats.stop();
    pub.toolCalled(event('fc-outage'));
    await new Promise((r) => setTimeout(r, 800));
    let refused: unknown;
    try {
      starting();
    } catch (e) {
      refused = e;
    }
    expect(isAppError(refused) && refused.code).toBe(ReasonCode.UNAVAILABLE);
    await nats.start();
    await until(() => pub.backlog() === 0, 90_000);
    expect(starting).not.toThrow();
    await pub.flush();
  }, 150_000);

  it('a process killed with SIGKILL mid-call and after a call leaves both events, sent once by the next start', async () => {
    // A child process spools one finished call and one that never finishes, then kills itself
    // before anything reaches the stream (its NATS URL leads nowhere).
    const script = join(root, 'crash.ts');
    writeFileSync(
      script,
      `import { AuditSpool } from ${JSON.stringify(join(__dirname, 'audit-spool.ts'))};
const s = new AuditSpool({ dir: ${JSON.stringify(join(root, 'd'))}, fsyncIntervalMs: 100, streamTag: ${JSON.stringify(tag)} });
s.open();
s.start('crash-ran', Buffer.from(process.argv[2], 'base64'));
s.event('crash-ran', Buffer.from(process.argv[3], 'base64'));
s.start('crash-mid', Buffer.from(process.argv[4], 'base64'));
process.kill(process.pid, 'SIGKILL');
`,
    );
    const enc = (e: ToolCalledEvent) =>
      Buffer.from(
        ToolCalled.encode(
          ToolCalled.fromPartial({ ...e, principal: undefined, eventId: undefined } as Omit<ToolCalledEvent, 'principal' | 'eventId'>),
        ).finish(),
      ).toString('base64');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        enc({ ...event('crash-ran'), outcome: 'error', reason: 'INTERNAL' }),
        enc(event('crash-ran')),
        enc({ ...event('crash-mid'), outcome: 'error', reason: 'INTERNAL' }),
      ],
      { cwd: join(__dirname, '..', '..', '..', '..') },
    );
    expect(r.signal).toBe('SIGKILL');
    expect(readdirSync(join(root, 'd'))).toHaveLength(1);
    const { pub } = publisher('d');
    await until(() => pub.backlog() === 0);
    await pub.flush();
    const got = (await stored()).filter((s) => s.event.callId.startsWith('crash-'));
    expect(got.map((g) => [g.msgId, g.event.callId, g.event.outcome, g.event.reason]).sort()).toEqual([
      ['crash-mid', 'crash-mid', 'error', 'INTERNAL'],
      ['crash-ran', 'crash-ran', 'ok', ''],
    ]);
    expect(existsSync(join(root, 'd')) && readdirSync(join(root, 'd'))).toEqual([]);
  }, 120_000);
});
