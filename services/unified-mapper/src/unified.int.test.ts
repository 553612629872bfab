// UnifiedService through its gRPC API, against a real nats-server holding the snapshot: the
// behaviour unified_tool relies on, on a 27-tool surface of real MCP servers' tools
// (server-everything with its `add` tool, server-memory, part of server-filesystem).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, type ServiceError } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import type { NatsConnection } from '@nats-io/transport-node';
import { CONFIDENCE_THRESHOLD, ReasonCode, UNIFIED_NO_CLOSE_TOOL_PREFIX, type BoundToolDefinition } from '@toolsurface/core';
import { connectNats, fromServiceError, openSnapshotStore } from '@toolsurface/platform';
import { UnifiedServiceClient, type MapRequestResponse } from '@toolsurface/proto';
import { ensureNats, findFreePort, startOpenAIProtocolServer, type NatsHandle, type OpenAIProtocolServer } from '@toolsurface/devkit';
import { SnapshotStore } from '@toolsurface/state';
import { createApp, type App } from './app';
import { loadConfig } from './config';

const FIXTURE = join(import.meta.dirname, 'fixtures/everything-27.json');

let natsDir: string;
let nats: NatsHandle;
let app: App;
let nc: NatsConnection;
let client: UnifiedServiceClient;
let snapshotId: string;

beforeAll(async () => {
  natsDir = mkdtempSync(join(tmpdir(), 'toolsurface-unified-mapper-'));
  nats = await ensureNats({
    url: `nats://127.0.0.1:${await findFreePort()}`,
    dataDir: join(natsDir, 'js'),
    logPath: join(natsDir, 'nats.log'),
  });
  const natsUrl = nats.url;
  app = createApp(loadConfig({ NATS_URL: natsUrl, GRPC_PORT: '0', LOG_LEVEL: 'warn' }), trace.getTracer('unified-mapper-test'));
  await app.start();
  nc = await connectNats(natsUrl, 'unified-mapper-test');
  const tools = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Array<Omit<BoundToolDefinition, 'capability' | 'originalName'>>;
  const defs: BoundToolDefinition[] = tools.map((t) => ({ ...t, capability: 'everything', originalName: t.name }));
  snapshotId = (await new SnapshotStore(await openSnapshotStore(nc)).save(defs)).snapshot.snapshotId;
  client = new UnifiedServiceClient(`127.0.0.1:${app.port()}`, credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await nc?.drain().catch(() => undefined);
  await app?.stop();
  await nats?.stop();
  rmSync(natsDir, { recursive: true, force: true, maxRetries: 3 });
});

/** One MapRequest on the 27-tool snapshot (to the rule engine's service unless another client is given). */
function mapRequest(
  request: string,
  extra: { contextJson?: string; preferredTools?: string[] } = {},
  to: UnifiedServiceClient = client,
): Promise<MapRequestResponse> {
  return new Promise((resolve, reject) =>
    to.mapRequest(
      { snapshotId, request, contextJson: extra.contextJson ?? '', preferredTools: extra.preferredTools ?? [], referenceTimeMs: 0 },
      (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)),
    ),
  );
}

/** The listed candidates agree with the answer: the chosen tool is first and has the highest confidence. */
function expectAgreement(res: MapRequestResponse): void {
  const md = res.metadata!;
  if (md.tool === '') return;
  expect(md.candidates[0].name).toBe(md.tool);
  expect(md.candidates[0].confidence).toBeCloseTo(md.confidence, 3);
  for (const c of md.candidates) expect(c.confidence).toBeLessThanOrEqual(md.confidence);
}

describe('UnifiedService.MapRequest on a 27-tool surface', () => {
  it('snapshot size: one clear match with every required argument from explicit numbers clears 0.7', async () => {
    for (const request of ['add 17 and 25', 'Add 3.5 and 4']) {
      const res = await mapRequest(request);
      expect(res.decision, request).toBe('execute');
      expect(res.metadata!.tool).toBe('add');
      expect(res.metadata!.confidence).toBeGreaterThanOrEqual(CONFIDENCE_THRESHOLD);
      expectAgreement(res);
    }
    expect(JSON.parse((await mapRequest('add 17 and 25')).metadata!.argumentsJson)).toEqual({ a: 17, b: 25 });
  });

  it('supervised autonomy: the answer is a proposal (tool, arguments, confidence); the mapper runs nothing', async () => {
    const res = await mapRequest('add 17 and 25');
    const md = res.metadata!;
    expect(md.executed).toBe(false);
    expect({ tool: md.tool, arguments: JSON.parse(md.argumentsJson) }).toEqual({ tool: 'add', arguments: { a: 17, b: 25 } });
    expect(md.confidence).toBeGreaterThanOrEqual(CONFIDENCE_THRESHOLD);
    // without MAPPER=openai the rule engine answers, and no model was asked
    expect({ mapper: res.mapper, modelFallback: res.modelFallback }).toEqual({ mapper: 'rules', modelFallback: '' });
  });

  it('low confidence: a request no tool serves runs nothing and lists the best candidates below 0.7', async () => {
    const res = await mapRequest('book me a table for two at an Italian restaurant tonight');
    expect(res.decision).toBe('low_confidence');
    expect(res.metadata!.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    for (const c of res.metadata!.candidates) expect(c.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    // no candidate is close to it: the answer says so, and asks for no unrelated tool's arguments
    expect(res.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX), res.explanation).toBe(true);
    expectAgreement(res);
  });

  it('missing arguments: nothing is invented, and the answer names what is missing', async () => {
    const res = await mapRequest('create entities in the knowledge graph', { preferredTools: ['create_entities'] });
    expect(res.metadata!.tool).toBe('create_entities');
    expect(res.decision).toBe('missing_arguments');
    expect(res.metadata!.missingArguments).toEqual(['entities']);
    expect(JSON.parse(res.metadata!.argumentsJson)).not.toHaveProperty('entities');
    expect(res.explanation).toContain('entities');
    expectAgreement(res);
  });

  it('preferred tool not in the snapshot: refused with TOOL_NOT_IN_SNAPSHOT naming it', async () => {
    const err = await mapRequest('echo hello', { preferredTools: ['echo', 'send_email'] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const app = fromServiceError(err);
    expect(app.code).toBe(ReasonCode.TOOL_NOT_IN_SNAPSHOT);
    expect(app.message).toContain('send_email');
    expect(app.message).not.toContain('"echo"');
  });

  it('context object fields map by name; a context string is more text', async () => {
    const obj = await mapRequest('echo this back', {
      contextJson: JSON.stringify({ message: 'hello from the context' }),
      preferredTools: ['echo'],
    });
    expect(obj.metadata!.tool).toBe('echo');
    expect(JSON.parse(obj.metadata!.argumentsJson)).toEqual({ message: 'hello from the context' });
    const str = await mapRequest('add these numbers', { contextJson: JSON.stringify('they are 12 and 30') });
    expect(str.metadata!.tool).toBe('add');
    expect(JSON.parse(str.metadata!.argumentsJson)).toEqual({ a: 12, b: 30 });
  });
});

describe('UnifiedService.MapRequest keeps the schema as published', () => {
  it('maps onto parameters in the order the tool lists them, not sorted (the snapshot keeps key order)', async () => {
    // exponent before base: sorted keys would give base the first number
    const defs: BoundToolDefinition[] = [
      {
        name: 'power',
        description: 'Raise a number to a power.',
        inputSchema: {
          type: 'object',
          properties: { exponent: { type: 'integer' }, base: { type: 'integer' } },
          required: ['exponent', 'base'],
        },
        capability: 'calc',
        originalName: 'power',
      },
    ];
    const id = (await new SnapshotStore(await openSnapshotStore(nc)).save(defs)).snapshot.snapshotId;
    const res = await new Promise<MapRequestResponse>((resolve, reject) =>
      client.mapRequest(
        { snapshotId: id, request: 'power 3 4', contextJson: '', preferredTools: [], referenceTimeMs: 0 },
        (err: ServiceError | null, r) => (err ? reject(err) : resolve(r)),
      ),
    );
    expect(res.metadata!.tool || res.metadata!.candidates[0]?.name).toBe('power');
    const json = res.metadata!.tool ? res.metadata!.argumentsJson : res.metadata!.candidates[0].argumentsJson;
    expect(Object.entries(JSON.parse(json) as Record<string, number>)).toEqual([
      ['exponent', 3],
      ['base', 4],
    ]);
  });
});

// PROTOCOL TEST: the model is a scripted local server of the chat-completions protocol; no model
// runs here, so this checks the service's wiring of the model mapper, not a model's quality.
describe('UnifiedService.MapRequest with MAPPER=openai (protocol test against a scripted local server)', () => {
  const KEY = 'sk-int-test-key-0123456789';
  let model: OpenAIProtocolServer;
  let modelApp: App;
  let modelClient: UnifiedServiceClient;
  /** the scripted answers by request; a request not listed gets HTTP 500 */
  const answers: Record<string, { tool: string | null; args: Record<string, unknown> }> = {
    'add 17 and 25': { tool: 'add', args: { a: 17, b: 25 } },
    'add 17 and 40': { tool: 'add', args: { a: 17, b: 99 } },
    'echo this back': { tool: 'echo', args: { message: 'hello from the context' } },
  };

  beforeAll(async () => {
    model = await startOpenAIProtocolServer((req) => {
      const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
      const a = answers[(JSON.parse(messages[1].content) as { request: string }).request];
      return a
        ? { content: JSON.stringify({ tool: a.tool, arguments_json: JSON.stringify(a.args), confidence: 0.99 }) }
        : { status: 500, text: '{"error":{"message":"overloaded"}}' };
    });
    const keyFile = join(natsDir, 'model.key');
    writeFileSync(keyFile, `${KEY}\n`);
    modelApp = createApp(
      loadConfig({
        NATS_URL: nats.url,
        GRPC_PORT: '0',
        LOG_LEVEL: 'silent',
        MAPPER: 'openai',
        MAPPER_OPENAI_BASE_URL: model.baseUrl,
        MAPPER_OPENAI_MODEL: 'int-test-model',
        MAPPER_OPENAI_API_KEY_FILE: keyFile,
        // generous: the machine is loaded, and a timeout would only make the rule engine answer
        MAPPER_OPENAI_TIMEOUT_MS: '60000',
      }),
      trace.getTracer('unified-mapper-test'),
    );
    await modelApp.start();
    modelClient = new UnifiedServiceClient(`127.0.0.1:${modelApp.port()}`, credentials.createInsecure());
  });

  afterAll(async () => {
    modelClient?.close();
    await modelApp?.stop();
    await model?.close();
  });

  it("runs the model's call when our checks back it, and sends the model, key, candidates and response format", async () => {
    const res = await mapRequest('add 17 and 25', {}, modelClient);
    expect(res.decision).toBe('execute');
    expect({ tool: res.metadata!.tool, args: JSON.parse(res.metadata!.argumentsJson) }).toEqual({ tool: 'add', args: { a: 17, b: 25 } });
    // the response says the model answered
    expect({ mapper: res.mapper, modelFallback: res.modelFallback }).toEqual({ mapper: 'model', modelFallback: '' });
    expectAgreement(res);
    const sent = model.received.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = sent.body as {
      model: string;
      messages: { content: string }[];
      response_format: { type: string; json_schema: { strict: boolean } };
    };
    expect(body.model).toBe('int-test-model');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    const tools = (JSON.parse(body.messages[1].content) as { candidate_tools: { name: string; input_schema: unknown }[] }).candidate_tools;
    expect(tools.find((t) => t.name === 'add')?.input_schema).toMatchObject({ required: ['a', 'b'] });
  });

  it('a value taken from the context object is backed; one the request does not give is not, whatever the model says', async () => {
    const echo = await mapRequest(
      'echo this back',
      { contextJson: JSON.stringify({ message: 'hello from the context' }), preferredTools: ['echo'] },
      modelClient,
    );
    expect(echo.decision).toBe('execute');
    expect(JSON.parse(echo.metadata!.argumentsJson)).toEqual({ message: 'hello from the context' });
    const invented = await mapRequest('add 17 and 40', {}, modelClient);
    expect(invented.decision).toBe('low_confidence');
    expect(invented.metadata!.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(invented.explanation).toContain('do not give the value of b');
  });

  it('an endpoint error leaves the answer to the rule engine', async () => {
    const before = model.received.length;
    const res = await mapRequest('Add 3.5 and 4', {}, modelClient);
    expect(model.received.length).toBe(before + 1);
    expect(res.decision).toBe('execute');
    expect(JSON.parse(res.metadata!.argumentsJson)).toEqual({ a: 3.5, b: 4 });
    // and says so, with why: an eval or an operator can tell the rule engine's answers from the model's
    expect({ mapper: res.mapper, modelFallback: res.modelFallback }).toEqual({ mapper: 'rules', modelFallback: 'http_status' });
  });

  it('preferred tools outside the snapshot are still TOOL_NOT_IN_SNAPSHOT, and the model is not asked', async () => {
    const before = model.received.length;
    const err = await mapRequest('echo hello', { preferredTools: ['send_email'] }, modelClient).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(fromServiceError(err).code).toBe(ReasonCode.TOOL_NOT_IN_SNAPSHOT);
    expect(model.received.length).toBe(before);
  });
});
