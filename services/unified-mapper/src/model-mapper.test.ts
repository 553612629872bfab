// The model mapper's wiring: an unusable answer is one warning (without the key) and one
// fallback count by reason; a usable one counts as answered. PROTOCOL TEST: a scripted local
// chat-completions server stands for the model; no model runs here.
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { Metric } from '@toolsurface/core';
import { startOpenAIProtocolServer, type OpenAIProtocolServer } from '@toolsurface/devkit';
import { OpenAIMapper, UnifiedMapper, type MapperTool } from '@toolsurface/mapper';
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import { modelMapperOptions } from './model-mapper';
import type { ModelMapperConfig } from './model.config';

/** A reader whose collect() the test calls. */
class TestReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const KEY = 'sk-wiring-test-secret';
const reader = new TestReader();
const lines: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  }),
);
const tools = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/everything-27.json'), 'utf8')) as MapperTool[];
const index = ToolIndex.build(tools, SELECTION_RETRIEVAL_OPTIONS);
let server: OpenAIProtocolServer;
let mapper: OpenAIMapper;

/** A snapshot's model mapper with the service's wiring of `config`. */
function wired(config: Partial<ModelMapperConfig> = {}): OpenAIMapper {
  const options = modelMapperOptions(
    { baseUrl: server.baseUrl, model: 'wired', timeoutMs: 60_000, candidates: 5, pauseAfter: 5, pauseMs: 30_000, ...config },
    logger,
  );
  return new OpenAIMapper(tools, new UnifiedMapper(tools, (q, limit) => index.search(q, limit)), options);
}

beforeAll(async () => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  server = await startOpenAIProtocolServer(() => ({ status: 503, text: '{}' }));
  mapper = wired({ apiKey: KEY });
});
afterAll(async () => {
  await server?.close();
  metrics.disable();
});

/** The counter's points as { outcome/reason: value }. */
async function counted(): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const m = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((x) => x.descriptor.name === Metric.MAPPER_MODEL_CALLS.name);
  return Object.fromEntries(
    ((m as SumMetricData | undefined)?.dataPoints ?? []).map((p) => [
      [p.attributes['toolsurface.outcome'], p.attributes['toolsurface.reason']].filter(Boolean).join('/'),
      p.value,
    ]),
  );
}

it('an HTTP 503 is logged once as a warning without the key, counted as a fallback, and answered by the rule engine', async () => {
  const res = await mapper.map({ request: 'add 17 and 25' });
  expect(res.decision).toBe('execute');
  const warnings = lines.filter((l) => l.level === 40);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({
    reason: 'http_status',
    model: 'wired',
    msg: 'model mapper answer unusable; the rule engine answered',
  });
  expect(JSON.stringify(lines)).not.toContain(KEY);
  expect(await counted()).toEqual({ 'fallback/http_status': 1 });
});

it('a usable answer is counted as answered', async () => {
  server.setScript(() => ({ content: JSON.stringify({ tool: 'add', arguments_json: '{"a":17,"b":25}', confidence: 0.9 }) }));
  expect((await mapper.map({ request: 'add 17 and 25' })).decision).toBe('execute');
  expect(await counted()).toEqual({ 'fallback/http_status': 1, answered: 1 });
});

it('a request skipped while the model is paused is counted, not logged', async () => {
  const before = lines.length;
  const options = modelMapperOptions(
    { baseUrl: server.baseUrl, model: 'wired', timeoutMs: 1000, candidates: 5, pauseAfter: 5, pauseMs: 30_000 },
    logger,
  );
  options.onFailure!({ kind: 'paused', message: 'the model is paused after endpoint failures in a row' });
  expect(lines.length).toBe(before);
  expect(await counted()).toEqual({ 'fallback/http_status': 1, answered: 1, 'fallback/paused': 1 });
});

it("one pause per endpoint: failures met by two snapshots' mappers add up", async () => {
  server.setScript(() => ({ status: 503, text: '{}' }));
  const options = modelMapperOptions(
    { baseUrl: server.baseUrl, model: 'wired', timeoutMs: 60_000, candidates: 5, pauseAfter: 2, pauseMs: 600_000 },
    logger,
  );
  const [first, second] = [0, 1].map(
    () => new OpenAIMapper(tools, new UnifiedMapper(tools, (q, limit) => index.search(q, limit)), options),
  );
  const before = server.received.length;
  await first.map({ request: 'add 17 and 25' });
  await second.map({ request: 'add 17 and 25' });
  expect(server.received.length).toBe(before + 2);
  expect((await first.map({ request: 'add 17 and 25' })).decision).toBe('execute');
  expect(server.received.length).toBe(before + 2);
});
