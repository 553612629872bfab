// UnifiedService through its gRPC API, against a real nats-server holding the snapshot: the
// behaviour unified_tool relies on, on a 27-tool surface of real MCP servers' tools
// (server-everything with its `add` tool, server-memory, part of server-filesystem).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, type ServiceError } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import type { NatsConnection } from '@nats-io/transport-node';
import { CONFIDENCE_THRESHOLD, ReasonCode, type BoundToolDefinition } from '@toolsurface/core';
import { connectNats, fromServiceError, openSnapshotStore } from '@toolsurface/platform';
import { UnifiedServiceClient, type MapRequestResponse } from '@toolsurface/proto';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
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

/** One MapRequest on the 27-tool snapshot. */
function mapRequest(request: string, extra: { contextJson?: string; preferredTools?: string[] } = {}): Promise<MapRequestResponse> {
  return new Promise((resolve, reject) =>
    client.mapRequest(
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
  });

  it('low confidence: a request no tool serves runs nothing and lists the best candidates below 0.7', async () => {
    const res = await mapRequest('book me a table for two at an Italian restaurant tonight');
    expect(res.decision).toBe('low_confidence');
    expect(res.metadata!.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    for (const c of res.metadata!.candidates) expect(c.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(res.explanation).toMatch(/not confident|no tool/i);
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
