import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { REPO_ROOT } from '@toolsurface/devkit';
import { DURATION_BUCKETS_S, startTelemetry } from '@toolsurface/platform';
import { OtlpReceiver } from './support';

// Every OTEL_* variable a case sets, restored after it (the SDK's exporters read process.env).
const SAVED = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith('OTEL_') && !(k in SAVED)) delete process.env[k];
  Object.assign(process.env, SAVED);
});

/** A pino logger whose lines are kept as objects. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

async function waitUntil(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let receiver: OtlpReceiver;
let endpoint: string;
beforeAll(async () => {
  receiver = new OtlpReceiver();
  endpoint = await receiver.start();
});
afterAll(async () => receiver.stop());

describe('startTelemetry over OTLP', () => {
  it('exports seconds histograms over the advised buckets, with OTEL_RESOURCE_ATTRIBUTES and an instance id', async () => {
    const instance = randomUUID();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '200',
      OTEL_RESOURCE_ATTRIBUTES: `deployment.environment.name=telemetry-test,k8s.pod.name=pod-${instance}`,
    });
    const t = startTelemetry('telemetry-test');
    try {
      const h = t.meter.createHistogram('test.call.duration', { unit: 's' });
      // 0.2 ms to 3 s: one call per decade, each in a bucket of its own.
      for (const s of [0.0002, 0.002, 0.02, 0.2, 3]) h.record(s, { case: instance });
      const point = await receiver.waitForPoint((p) => p.name === 'test.call.duration' && p.attributes.case === instance && p.value === 5);
      expect(point.bounds).toEqual(DURATION_BUCKETS_S);
      expect(point.bucketCounts!.filter((c) => c > 0)).toHaveLength(5);
      expect(point.resource).toMatchObject({
        'service.name': 'telemetry-test',
        'service.namespace': 'toolsurface',
        'deployment.environment.name': 'telemetry-test',
        'k8s.pod.name': `pod-${instance}`,
      });
      expect(String(point.resource['service.instance.id'])).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await t.shutdown();
    }
  });

  it('speaks http/protobuf by default and logs a failing exporter once, naming the endpoint', async () => {
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_METRIC_EXPORT_INTERVAL: '100' });
    const before = receiver.refusedContentTypes.length;
    const { logger, lines } = capturingLogger();
    const t = startTelemetry('telemetry-proto', process.env, logger);
    try {
      t.meter.createCounter('test.exports').add(1);
      // The receiver refuses protobuf (415): every export fails; wait for several.
      await waitUntil('three refused exports', () => receiver.refusedContentTypes.length >= before + 3);
      expect(receiver.refusedContentTypes.slice(before)).toContain('application/x-protobuf');
      const warnings = lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ signal: 'metrics', endpoint: `${endpoint}/v1/metrics` });
      expect(String(warnings[0].msg)).toContain(`${endpoint}/v1/metrics`);
    } finally {
      await t.shutdown();
    }
  });

  it('speaks grpc when OTEL_EXPORTER_OTLP_PROTOCOL says so, and logs an unreachable collector once', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((r) => probe.close(r));
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: closed,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TIMEOUT: '500',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
    });
    const { logger, lines } = capturingLogger();
    const t = startTelemetry('telemetry-grpc', process.env, logger);
    try {
      t.meter.createCounter('test.exports').add(1);
      await waitUntil('a logged export failure', () => lines.some((l) => l.level === 40));
      // Several more export intervals pass without another line.
      await new Promise((r) => setTimeout(r, 2000));
      const warnings = lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      // gRPC exporters use the endpoint as is (no /v1/metrics path), which tells the protocol apart.
      expect(warnings[0]).toMatchObject({ signal: 'metrics', endpoint: closed });
    } finally {
      await t.shutdown();
    }
  });

  it('refuses an unknown OTLP protocol, naming the variable', () => {
    expect(() =>
      startTelemetry('telemetry-bad', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/xml' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=http\/xml is not an OTLP protocol/);
  });
});

describe('a service started with an OTLP protocol it refuses', () => {
  /** Runs a service's main.ts as `npm start` does; resolves with its exit code and stderr. */
  function runService(name: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    // NATS on a port nothing serves: start-up must stop before it is dialled.
    const child = spawn(process.execPath, ['--import', 'tsx', `services/${name}/src/main.ts`], {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: 'nats://127.0.0.1:1', GRPC_PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  }

  it('stops each service with one line naming the variable, as for its own variables', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' };
    const services = { 'surface-resolver': 2, discovery: 2, dispatch: 1, 'unified-mapper': 2 };
    const runs = await Promise.all(Object.keys(services).map((name) => runService(name, env)));
    Object.entries(services).forEach(([name, code], i) => {
      expect(runs[i]).toEqual({
        code,
        stderr: `${name}: bad configuration: OTEL_EXPORTER_OTLP_PROTOCOL=http/xml is not an OTLP protocol: use one of http/protobuf, http/json, grpc\n`,
      });
    });
  }, 120_000);
});
