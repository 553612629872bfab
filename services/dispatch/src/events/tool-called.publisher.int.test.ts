import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, ensureStream, EventPublisher, STREAM, Subjects, type Logger } from '@toolsurface/platform';
import { ToolCalled } from '@toolsurface/proto';
import type { ToolCalledEvent } from '../domain/ports';
import { startNatsServer, type TestProcess } from '../testing/processes';
import { ToolCalledPublisher } from './tool-called.publisher';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('tool-called-publisher-test');

const event = (callId: string): ToolCalledEvent => ({
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
});

const silentLogger = () =>
  ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };

describe('ToolCalledPublisher', () => {
  it('starts the publish without holding the call; flush() waits for its ack', async () => {
    let release!: () => void;
    const publish = vi.fn(() => new Promise<void>((r) => (release = r)));
    const pub = new ToolCalledPublisher({ publish } as unknown as EventPublisher, silentLogger());
    // toolCalled returns at once, before the ack
    pub.toolCalled(event('c1'));
    expect(publish).toHaveBeenCalledTimes(1);
    let flushed = false;
    const f = pub.flush().then(() => (flushed = true));
    await new Promise((r) => setImmediate(r));
    expect(flushed).toBe(false);
    release();
    await f;
    expect(flushed).toBe(true);
  });

  it('logs a failed publish with its msg id', async () => {
    const publish = vi.fn(async () => {
      throw new Error('boom');
    });
    const logger = silentLogger();
    const pub = new ToolCalledPublisher({ publish } as unknown as EventPublisher, logger);
    pub.toolCalled(event('c1'));
    await pub.flush();
    expect(publish).toHaveBeenCalledTimes(1);
    const msgId = (publish.mock.calls[0] as unknown[])[2];
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ msgId, tool: 'echo', outcome: 'ok' }),
      'tool.called publish failed',
    );
  });
});

describe('ToolCalledPublisher on a real stream', () => {
  let nats: TestProcess;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connectNats(`nats://127.0.0.1:${nats.port}`, 'tool-called-test');
    await ensureStream(nc);
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await nc?.drain();
    await nats?.stop();
  });

  const stored = async () => {
    const n = (await jsm.streams.info(STREAM)).state.last_seq;
    const out = [];
    for (let seq = 1; seq <= n; seq++) {
      const m = await jsm.streams.getMessage(STREAM, { seq }).catch(() => null);
      if (m && m.subject === Subjects.toolCalled)
        out.push({ event: ToolCalled.decode(m.data), msgId: m.header.get('Nats-Msg-Id'), traceparent: m.header.get('traceparent') });
    }
    return out;
  };

  it('stores exactly one event per call, with a msg id and the caller’s trace context, all acked by flush()', async () => {
    const events = new EventPublisher(nc, tracer);
    const logger = silentLogger();
    const pub = new ToolCalledPublisher(events, logger);
    const callSpans = [];
    for (let i = 0; i < 20; i++) {
      const span = tracer.startSpan(`call ${i}`);
      callSpans.push(span);
      context.with(trace.setSpan(context.active(), span), () => pub.toolCalled(event(`call-${i}`)));
      span.end();
    }
    await pub.flush();
    expect(logger.error).not.toHaveBeenCalled();
    const got = (await stored()).filter((s) => s.event.callId.startsWith('call-'));
    expect(got.map((g) => g.event.callId).sort()).toEqual(callSpans.map((_, i) => `call-${i}`).sort());
    expect(new Set(got.map((g) => g.msgId)).size).toBe(20);
    for (const g of got) {
      expect(g.msgId).toMatch(/^[0-9a-f-]{36}$/);
      const i = Number(g.event.callId.slice('call-'.length));
      expect(g.traceparent?.split('-')[1]).toBe(callSpans[i]!.spanContext().traceId);
    }
    const producers = exporter.getFinishedSpans().filter((s) => s.name === `send ${Subjects.toolCalled}`);
    expect(producers.length).toBeGreaterThanOrEqual(20);
  });

  it('a repeated msg id is stored once; a subject no stream takes rejects', async () => {
    const events = new EventPublisher(nc, tracer);
    const before = (await jsm.streams.info(STREAM)).state.messages;
    const data = ToolCalled.encode(ToolCalled.fromPartial({ callId: 'dup' })).finish();
    await events.publish(Subjects.toolCalled, data, 'same-id');
    await events.publish(Subjects.toolCalled, data, 'same-id');
    expect((await jsm.streams.info(STREAM)).state.messages).toBe(before + 1);
    await expect(events.publish('not-on-the-stream.x', data, 'other-id')).rejects.toThrow();
  });
});
