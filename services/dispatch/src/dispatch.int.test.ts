import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { AppError, ReasonCode, snapshotIdOf, type BoundToolDefinition, type McpTool } from '@toolsurface/core';
import {
  Buckets,
  callUnary,
  connectNats,
  createLogger,
  openBucket,
  openSnapshotStore,
  startGrpcServer,
  Subjects,
  unary,
  type GrpcServerHandle,
} from '@toolsurface/platform';
import {
  CallToolRequest,
  CatalogChanged,
  DiscoveryServiceService,
  DispatchServiceClient,
  ToolCalled,
  ToolKind,
  UnifiedServiceService,
  type CallToolResponse,
  type DiscoverToolsRequest,
  type DiscoverToolsResponse,
  type GetToolSchemaRequest,
  type GetToolSchemaResponse,
  type MapRequestRequest,
  type MapRequestResponse,
} from '@toolsurface/proto';
import {
  ADMISSION_KEY,
  bindingsKey,
  capabilityKey,
  presentationKey,
  SnapshotStore,
  type CatalogRecord,
  type SurfaceRecord,
} from '@toolsurface/state';
import { createApp, type App } from './app';
import { loadConfig } from './config';
import { startEverythingHttp, startNatsServer, type TestProcess } from './testing/processes';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = join(import.meta.dirname, 'testing/fixture-mcp-server.mjs');

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('dispatch-int-test');

let nats: TestProcess;
let everything: TestProcess;
let nc: NatsConnection;
let configKv: KV;
let catalogKv: KV;
let surfacesKv: KV;
let app: App;
let client: DispatchServiceClient;
let stubs: GrpcServerHandle;
let snapshot: { snapshotId: string; tools: readonly BoundToolDefinition[] };
const audits: Array<{ event: ToolCalled; traceparent: string | undefined; msgId: string | undefined }> = [];
const catalogEvents: CatalogChanged[] = [];
const discoverRequests: DiscoverToolsRequest[] = [];
const mapRequests: MapRequestRequest[] = [];

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function catalogOf(name: string): Promise<CatalogRecord | undefined> {
  const e = await catalogKv.get(name);
  return e && e.operation === 'PUT' ? e.json<CatalogRecord>() : undefined;
}

function callTool(surfaceId: string, name: string, args: unknown = {}, callId = ''): Promise<CallToolResponse> {
  const req = CallToolRequest.fromPartial({
    surfaceId,
    name,
    argumentsJson: typeof args === 'string' ? args : JSON.stringify(args),
    callId,
  });
  return new Promise((res, rej) =>
    client.callTool(req, new Metadata(), { deadline: Date.now() + 10_000 }, (err, out) => (err ? rej(err) : res(out))),
  );
}

async function callerError(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error('expected a gRPC error');
}

function expectRefusal(r: CallToolResponse, reason: string, message: string | RegExp) {
  expect(r.isError).toBe(true);
  expect(r.reason).toBe(reason);
  expect(r.message).toMatch(message);
  expect(JSON.parse(r.contentJson)).toEqual([{ type: 'text', text: r.message }]);
}

function textOf(r: CallToolResponse): string {
  return (JSON.parse(r.contentJson) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}

function surface(surfaceId: string, resolvedMode: SurfaceRecord['resolvedMode'], extra: Partial<SurfaceRecord> = {}): SurfaceRecord {
  const now = Date.now();
  return {
    surfaceId,
    principal: { kind: 'agent', id: 'alice' },
    configuredMode: resolvedMode,
    resolvedMode,
    snapshotId: snapshot.snapshotId,
    autonomy: 'autonomous',
    boundToolCount: snapshot.tools.length,
    presentedTokens: 0,
    collisions: [],
    openedAtMs: now,
    expiresAtMs: now + 3_600_000,
    ...extra,
  };
}

async function startStubs(): Promise<GrpcServerHandle> {
  // Stand-ins for the discovery and unified-mapper services: real gRPC, canned answers.
  const deps = { tracer, logger: createLogger('stubs', 'silent') };
  const store = new SnapshotStore(await openSnapshotStore(nc));
  return startGrpcServer('127.0.0.1', 0, [
    {
      name: 'toolsurface.v1.DiscoveryService',
      definition: DiscoveryServiceService,
      implementation: {
        discoverTools: unary<DiscoverToolsRequest, DiscoverToolsResponse>(
          'toolsurface.v1.DiscoveryService',
          'DiscoverTools',
          async (req) => {
            discoverRequests.push(req);
            const snap = await store.get(req.snapshotId);
            const hits = snap.tools
              .filter((t) => t.name.includes(req.query))
              .map((t, i) => ({ name: t.name, description: t.description ?? '', score: 1 / (i + 1) }));
            return {
              hits,
              totalTools: snap.tools.length,
              emptyReason: hits.length ? '' : 'NO_MATCH',
              hint: hits.length ? '' : 'try other words',
            };
          },
          deps,
        ),
        getToolSchema: unary<GetToolSchemaRequest, GetToolSchemaResponse>(
          'toolsurface.v1.DiscoveryService',
          'GetToolSchema',
          async (req) => {
            const t = (await store.get(req.snapshotId)).byName.get(req.name);
            if (!t) throw new AppError(ReasonCode.TOOL_NOT_IN_SNAPSHOT, `${req.name} is not in the snapshot`);
            return {
              tool: {
                name: t.name,
                title: t.title ?? '',
                description: t.description ?? '',
                inputSchemaJson: JSON.stringify(t.inputSchema),
                outputSchemaJson: t.outputSchema ? JSON.stringify(t.outputSchema) : '',
                annotationsJson: t.annotations ? JSON.stringify(t.annotations) : '',
                kind: ToolKind.TOOL_KIND_BOUND,
                capability: t.capability,
                originalName: t.originalName,
              },
            };
          },
          deps,
        ),
      },
    },
    {
      name: 'toolsurface.v1.UnifiedService',
      definition: UnifiedServiceService,
      implementation: {
        mapRequest: unary<MapRequestRequest, MapRequestResponse>(
          'toolsurface.v1.UnifiedService',
          'MapRequest',
          async (req) => {
            mapRequests.push(req);
            const meta = {
              tool: 'echo',
              confidence: 0.93,
              argumentsJson: '{"message":"hello"}',
              candidates: [],
              missingArguments: [],
              executed: false,
            };
            const answeredBy = { mapper: 'rules', modelFallback: '' };
            if (req.request.startsWith('say')) return { decision: 'execute', metadata: meta, explanation: '', ...answeredBy };
            if (req.request.startsWith('remember')) {
              return {
                ...answeredBy,
                decision: 'missing_arguments',
                metadata: { ...meta, tool: 'create_entities', argumentsJson: '{}', missingArguments: ['entities'] },
                explanation: '',
              };
            }
            return {
              ...answeredBy,
              decision: 'low_confidence',
              metadata: {
                ...meta,
                confidence: 0.41,
                argumentsJson: '',
                candidates: [
                  { name: 'echo', confidence: 0.41, argumentsJson: '', missingArguments: [] },
                  { name: 'search_nodes', confidence: 0.38, argumentsJson: '', missingArguments: [] },
                ],
              },
              explanation: '',
            };
          },
          deps,
        ),
      },
    },
  ]);
}

function definitionsFrom(records: Record<string, CatalogRecord>): BoundToolDefinition[] {
  const pick = (cap: string, keep: (t: McpTool) => boolean, rename: (n: string) => string = (n) => n) =>
    records[cap].tools.filter(keep).map((t) => ({ ...t, name: rename(t.name), capability: cap, originalName: t.name }));
  return [
    // get-sum stays out: it is bound, but not in this snapshot.
    ...pick('everything', (t) => ['echo', 'trigger-long-running-operation', 'get-structured-content'].includes(t.name)),
    // read_graph is presented under the collision prefix to check the original name is what runs.
    ...pick(
      'memory',
      () => true,
      (n) => (n === 'read_graph' ? 'memory.read_graph' : n),
    ),
    ...pick('fixture', () => true),
    {
      name: 'broken_tool',
      description: 'Never reachable.',
      inputSchema: { type: 'object' },
      capability: 'broken',
      originalName: 'broken_tool',
    },
  ];
}

beforeAll(async () => {
  [nats, everything] = await Promise.all([startNatsServer(), startEverythingHttp(ROOT)]);
  nc = await connectNats(`nats://127.0.0.1:${nats.port}`, 'dispatch-int-test');
  [configKv, catalogKv, surfacesKv] = await Promise.all([
    openBucket(nc, Buckets.config),
    openBucket(nc, Buckets.catalog),
    openBucket(nc, Buckets.surfaces),
  ]);

  nc.subscribe(Subjects.toolCalled, {
    callback: (_err, m) => {
      audits.push({
        event: ToolCalled.decode(m.data),
        traceparent: m.headers?.get('traceparent') || undefined,
        msgId: m.headers?.get('Nats-Msg-Id') || undefined,
      });
    },
  });
  nc.subscribe(Subjects.catalogChanged, {
    callback: (_err, m) => {
      catalogEvents.push(CatalogChanged.decode(m.data));
    },
  });
  await nc.flush();

  const put = (k: string, v: unknown) => configKv.put(k, JSON.stringify(v));
  await put(capabilityKey('memory'), {
    transport: 'stdio',
    command: process.execPath,
    args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: join(nats.dir, 'memory.jsonl') },
    cwd: ROOT,
    timeoutMs: 5000,
  });
  await put(capabilityKey('everything'), {
    transport: 'streamable-http',
    url: `http://127.0.0.1:${everything.port}/mcp`,
    headers: {},
    timeoutMs: 1000,
  });
  await put(capabilityKey('fixture'), {
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE],
    env: {},
    cwd: ROOT,
    timeoutMs: 5000,
  });
  await put(capabilityKey('broken'), {
    transport: 'stdio',
    command: '/nonexistent/toolsurface-no-such-server',
    args: [],
    env: {},
    cwd: ROOT,
    timeoutMs: 1000,
  });
  await put(presentationKey('gateway', 'gw'), { mode: 'unified', autonomy: 'supervised' });
  await put(bindingsKey('agent', 'alice'), { capabilities: ['memory', 'everything', 'fixture', 'broken'] });

  stubs = await startStubs();
  const config = loadConfig({
    NATS_URL: `nats://127.0.0.1:${nats.port}`,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    DISCOVERY_ADDR: `127.0.0.1:${stubs.port}`,
    UNIFIED_ADDR: `127.0.0.1:${stubs.port}`,
    LOG_LEVEL: 'silent',
    MAX_ARGUMENTS_BYTES: '4096',
    CAPABILITY_COMMANDS: `${process.execPath},/nonexistent/toolsurface-no-such-server`,
  });
  app = createApp(config);
  const { grpcPort } = await app.start();
  client = new DispatchServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());

  const records = await until('catalog of every capability', async () => {
    const r = Object.fromEntries(
      await Promise.all(['memory', 'everything', 'fixture', 'broken'].map(async (c) => [c, await catalogOf(c)] as const)),
    );
    return r.memory?.status === 'ok' && r.everything?.status === 'ok' && r.fixture?.status === 'ok' && r.broken?.status === 'unavailable'
      ? (r as Record<string, CatalogRecord>)
      : undefined;
  });
  const defs = definitionsFrom(records);
  const saved = await new SnapshotStore(await openSnapshotStore(nc)).save(defs);
  expect(saved.snapshot.snapshotId).toBe(snapshotIdOf(defs).snapshotId);
  snapshot = saved.snapshot;

  const surfaces: SurfaceRecord[] = [
    surface('s-direct', 'direct'),
    surface('s-disc', 'discovery'),
    surface('s-uni', 'unified'),
    surface('s-gw', 'unified', { principal: { kind: 'gateway', id: 'gw' } }),
    surface('s-restricted', 'discovery', { principal: { kind: 'agent', id: 'restricted' } }),
    surface('s-expired', 'direct', { expiresAtMs: Date.now() - 1000 }),
    surface('s-closed', 'direct', { closedAtMs: Date.now() - 1000 }),
  ];
  for (const s of surfaces) await surfacesKv.put(s.surfaceId, JSON.stringify(s));
}, 60_000);

afterAll(async () => {
  client?.close();
  await app?.stop();
  await stubs?.stop(100);
  await nc?.drain().catch(() => undefined);
  await Promise.all([nats?.stop(), everything?.stop()]);
  await provider.shutdown();
});

describe('dispatch service against nats-server and real MCP servers', () => {
  it('keeps the catalog: lists every page, marks a server it cannot start unavailable', async () => {
    const fixture = (await catalogOf('fixture'))!;
    expect(fixture.tools.map((t) => t.name)).toEqual(['add_tool', 'scale', 'pair']);
    const memory = (await catalogOf('memory'))!;
    expect(memory.tools.map((t) => t.name)).toContain('read_graph');
    const broken = (await catalogOf('broken'))!;
    expect(broken).toMatchObject({ status: 'unavailable', tools: [] });
    expect(broken.error).toMatch('connect failed');
    expect(catalogEvents.map((e) => [e.capability, e.status])).toEqual(
      expect.arrayContaining([
        ['memory', 'ok'],
        ['everything', 'ok'],
        ['fixture', 'ok'],
        ['broken', 'unavailable'],
      ]),
    );
  });

  it('runs a direct call over Streamable HTTP and audits it with the trace context', async () => {
    exporter.reset();
    const res = await callUnary<CallToolRequest, CallToolResponse>(
      client,
      'toolsurface.v1.DispatchService',
      'CallTool',
      client.callTool,
      CallToolRequest.fromPartial({ surfaceId: 's-direct', name: 'echo', argumentsJson: '{"message":"hi"}', callId: 'call-echo-1' }),
      tracer,
      10_000,
    );
    expect(res.isError).toBe(false);
    expect(textOf(res)).toBe('Echo: hi');
    expect(res).toMatchObject({ toolName: 'echo', via: 'direct', reason: '' });

    const audit = await until('tool.called for call-echo-1', () => audits.find((a) => a.event.callId === 'call-echo-1'));
    expect(audit.event).toMatchObject({
      surfaceId: 's-direct',
      principal: { kind: 1, id: 'alice' },
      snapshotId: snapshot.snapshotId,
      calledName: 'echo',
      toolName: 'echo',
      capability: 'everything',
      via: 'direct',
      outcome: 'ok',
      reason: '',
      admission: { decision: 'allow', rule: 'default' },
    });
    // A UUID: 36 characters of lowercase hex and dashes.
    expect(audit.msgId).toMatch(/^[0-9a-f-]{36}$/);

    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.name === 'toolsurface.v1.DispatchService/CallTool' && s.kind === 1)!;
    const orchestrator = spans.find((s) => s.name === 'toolsurface.v1.DispatchService/CallTool' && s.kind === 2)!;
    const exec = spans.find((s) => s.name === 'execute_tool echo')!;
    expect(server.spanContext().traceId).toBe(orchestrator.spanContext().traceId);
    expect(server.parentSpanContext?.spanId).toBe(orchestrator.spanContext().spanId);
    expect(exec.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(exec.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'call-echo-1',
      'toolsurface.mode': 'direct',
      'toolsurface.snapshot_id': snapshot.snapshotId,
      'toolsurface.via': 'direct',
      'toolsurface.capability': 'everything',
      'toolsurface.admission.decision': 'allow',
      'toolsurface.admission.rule': 'default',
    });
    expect(audit.traceparent?.split('-')[1]).toBe(server.spanContext().traceId);
  });

  it('runs a stdio tool under its original name and validates draft-04 and draft-07 schemas', async () => {
    const graph = await callTool('s-direct', 'memory.read_graph');
    expect(graph.isError).toBe(false);
    expect(JSON.parse(graph.structuredContentJson)).toEqual({ entities: [], relations: [] });
    expect((await callTool('s-direct', 'scale', { factor: 2 })).isError).toBe(false);
    expectRefusal(await callTool('s-direct', 'scale', { factor: 0 }), 'INVALID_ARGUMENTS', '(/factor must be > 0)');
    expectRefusal(await callTool('s-direct', 'pair', { pair: ['a', 'b'] }), 'INVALID_ARGUMENTS', '(/pair/1 must be number)');
    expectRefusal(await callTool('s-direct', 'echo', { message: 'x'.repeat(5000) }), 'INVALID_ARGUMENTS', 'over the limit of 4096 bytes');
    expectRefusal(await callTool('s-direct', 'echo', '["hi"]'), 'INVALID_ARGUMENTS', 'must be a JSON object, not an array');
  });

  it('refuses unknown names, other modes’ meta-tools and tools bound after the snapshot', async () => {
    expectRefusal(
      await callTool('s-direct', 'nope'),
      'TOOL_NOT_FOUND',
      'There is no tool named "nope" on this surface; call one of the tools listed on this surface.',
    );
    expectRefusal(
      await callTool('s-direct', 'execute_tool', { name: 'echo', arguments: { message: 'x' } }),
      'TOOL_NOT_FOUND',
      '"execute_tool"',
    );
    expectRefusal(
      await callTool('s-direct', 'get-sum', { a: 1, b: 2 }),
      'TOOL_NOT_IN_SNAPSHOT',
      'was not available when this surface opened',
    );
  });

  it('discovery mode: meta-tools only, execute_tool validated against the snapshot', async () => {
    expectRefusal(
      await callTool('s-disc', 'echo', { message: 'x' }),
      'TOOL_NOT_DIRECTLY_CALLABLE',
      '"echo" cannot be called directly on this surface; call discover_tools first, then execute_tool.',
    );

    exporter.reset();
    const found = await callTool('s-disc', 'discover_tools', { query: 'echo', limit: 3 });
    expect(found.isError).toBe(false);
    expect(JSON.parse(found.structuredContentJson).hits.map((h: { name: string }) => h.name)).toEqual(['echo']);
    expect(discoverRequests.at(-1)).toMatchObject({ snapshotId: snapshot.snapshotId, query: 'echo', limit: 3 });
    const spans = exporter.getFinishedSpans();
    const dispatchServer = spans.find((s) => s.name === 'toolsurface.v1.DispatchService/CallTool')!;
    const clientSpan = spans.find((s) => s.name === 'toolsurface.v1.DiscoveryService/DiscoverTools' && s.kind === 2)!;
    const discoveryServer = spans.find((s) => s.name === 'toolsurface.v1.DiscoveryService/DiscoverTools' && s.kind === 1)!;
    expect(clientSpan.parentSpanContext?.spanId).toBe(dispatchServer.spanContext().spanId);
    expect(discoveryServer.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);

    const schema = await callTool('s-disc', 'get_tool_schema', { name: 'scale' });
    expect(JSON.parse(schema.structuredContentJson)).toMatchObject({
      name: 'scale',
      inputSchema: { properties: { factor: { exclusiveMinimum: true } } },
    });

    const ran = await callTool('s-disc', 'execute_tool', { name: 'echo', arguments: { message: 'via meta' } }, 'call-exec-1');
    expect(ran).toMatchObject({ isError: false, via: 'execute_tool', toolName: 'echo' });
    expect(textOf(ran)).toBe('Echo: via meta');
    expect((await until('audit', () => audits.find((a) => a.event.callId === 'call-exec-1'))).event).toMatchObject({
      calledName: 'execute_tool',
      via: 'execute_tool',
      outcome: 'ok',
    });

    expectRefusal(
      await callTool('s-disc', 'execute_tool', { name: 'get-sum', arguments: { a: 1, b: 2 } }),
      'TOOL_NOT_IN_SNAPSHOT',
      '"get-sum" is not among the tools of this surface; call discover_tools to find a tool that is.',
    );
    expectRefusal(await callTool('s-disc', 'execute_tool', { name: 'journal_read' }), 'TOOL_NOT_IN_SNAPSHOT', 'system tool');
    expectRefusal(
      await callTool('s-disc', 'execute_tool', { name: 'execute_tool', arguments: { name: 'echo' } }),
      'TOOL_NOT_IN_SNAPSHOT',
      'cannot be run through execute_tool',
    );
    // The pointer of the missing argument, then the advice to read the schema.
    expectRefusal(
      await callTool('s-disc', 'execute_tool', { name: 'echo', arguments: {} }),
      'INVALID_ARGUMENTS',
      /\/message is required.*get_tool_schema/,
    );
  });

  it('unified mode: runs the mapped tool, refuses low confidence, names missing arguments', async () => {
    expectRefusal(await callTool('s-uni', 'echo', { message: 'x' }), 'TOOL_NOT_DIRECTLY_CALLABLE', 'use unified_tool');
    const ran = await callTool('s-uni', 'unified_tool', {
      request: 'say hello',
      context: { lang: 'en' },
      preferred_tools: ['echo', 'get-sum'],
    });
    expect(ran).toMatchObject({ isError: false, via: 'unified_tool', toolName: 'echo' });
    expect(textOf(ran)).toBe('Echo: hello');
    expect(ran.unified).toMatchObject({ tool: 'echo', confidence: 0.93, argumentsJson: '{"message":"hello"}', executed: true });
    expect(mapRequests.at(-1)).toMatchObject({
      snapshotId: snapshot.snapshotId,
      contextJson: '{"lang":"en"}',
      preferredTools: ['echo', 'get-sum'],
    });

    const low = await callTool('s-uni', 'unified_tool', { request: 'something vague' });
    expectRefusal(low, 'LOW_CONFIDENCE', 'No tool fits this request with confidence 0.7 or more (best: echo 0.41, search_nodes 0.38)');
    expect(low.unified?.candidates.map((c) => c.name)).toEqual(['echo', 'search_nodes']);
    expectRefusal(
      await callTool('s-uni', 'unified_tool', { request: 'remember this' }),
      'MISSING_ARGUMENTS',
      '"create_entities" needs "entities"',
    );
  });

  it('a supervised gateway gets the proposal, nothing runs, and the proposal is audited', async () => {
    const r = await callTool('s-gw', 'unified_tool', { request: 'say hello' }, 'call-gw-1');
    expect(r).toMatchObject({ isError: false, reason: '', toolName: 'echo' });
    expect(r.unified).toMatchObject({ tool: 'echo', confidence: 0.93, argumentsJson: '{"message":"hello"}', executed: false });
    const proposed = await until('audit', () => audits.find((a) => a.event.callId === 'call-gw-1'));
    expect(proposed.event).toMatchObject({ outcome: 'proposed', toolName: 'echo', via: 'unified_tool' });
    expect(audits.filter((a) => a.event.callId === 'call-gw-1')).toHaveLength(1);
  });

  it('admits every path with the live policy', async () => {
    expect((await callTool('s-restricted', 'execute_tool', { name: 'echo', arguments: { message: 'x' } })).isError).toBe(false);
    await configKv.put(
      ADMISSION_KEY,
      JSON.stringify({
        default: 'allow',
        rules: [
          { id: 'restricted-no-echo', effect: 'deny', principals: ['agent:restricted'], capabilities: ['everything'], tools: ['echo'] },
        ],
      }),
    );
    let attempt = 0;
    const denied = await until('the new policy', async () => {
      const r = await callTool('s-restricted', 'execute_tool', { name: 'echo', arguments: { message: 'x' } }, `call-denied-${++attempt}`);
      return r.isError ? r : undefined;
    });
    expectRefusal(denied, 'PERMISSION_DENIED', 'You are not permitted to call "echo"; use another tool or ask the user for help.');
    expect(denied.message).not.toContain('restricted-no-echo');
    expect((await until('audit', () => audits.find((a) => a.event.callId === `call-denied-${attempt}`))).event).toMatchObject({
      outcome: 'refused',
      reason: 'PERMISSION_DENIED',
      admission: { decision: 'deny', rule: 'restricted-no-echo' },
    });
    expect((await callTool('s-direct', 'echo', { message: 'alice may' })).isError).toBe(false);
  });

  it('step 6: the tool’s own error, a timeout, an unavailable capability', async () => {
    const err = await callTool('s-direct', 'add_observations', { observations: [{ entityName: 'ghost', contents: ['boo'] }] });
    expect(err).toMatchObject({ isError: true, reason: 'TOOL_ERROR' });
    // One sentence quoting the server's error about the missing entity.
    expect(err.message).toMatch(/^"add_observations" returned an error \(.*ghost.*\); check the arguments or try another tool\.$/);
    expect(textOf(err)).toMatch('ghost');

    const started = Date.now();
    expectRefusal(
      await callTool('s-direct', 'trigger-long-running-operation', { duration: 5, steps: 1 }),
      'TOOL_TIMEOUT',
      '"trigger-long-running-operation" did not finish within 1000 ms',
    );
    expect(Date.now() - started).toBeLessThan(4000);

    expectRefusal(await callTool('s-direct', 'broken_tool'), 'CAPABILITY_UNAVAILABLE', 'unavailable right now');
  });

  it('keeps a journal per principal', async () => {
    expect((await callTool('s-direct', 'journal_append', { entry: 'first', tags: ['a'] })).isError).toBe(false);
    expect((await callTool('s-disc', 'journal_append', { entry: 'second' })).isError).toBe(false);
    const read = await callTool('s-uni', 'journal_read', { limit: 1 });
    expect(JSON.parse(read.structuredContentJson).entries).toEqual([expect.objectContaining({ entry: 'second', tags: [] })]);
    const all = JSON.parse((await callTool('s-direct', 'journal_read', {})).structuredContentJson).entries;
    expect(all.map((e: { entry: string }) => e.entry)).toEqual(['second', 'first']);
    expect(textOf(await callTool('s-restricted', 'journal_read', {}))).toBe('Your journal is empty.');
  });

  it('refuses bad surfaces and malformed requests as caller errors', async () => {
    const reason = (e: ServiceError) => e.metadata?.get('toolsurface-reason')[0];
    const unknown = await callerError(callTool('s-nope', 'echo'));
    expect([unknown.code, reason(unknown)]).toEqual([status.NOT_FOUND, 'SURFACE_NOT_FOUND']);
    const closed = await callerError(callTool('s-closed', 'echo'));
    expect([closed.code, reason(closed)]).toEqual([status.NOT_FOUND, 'SURFACE_NOT_FOUND']);
    expect(closed.details).toMatch('was closed');
    const expired = await callerError(callTool('s-expired', 'echo'));
    expect([expired.code, reason(expired)]).toEqual([status.FAILED_PRECONDITION, 'SURFACE_EXPIRED']);
    const noName = await callerError(callTool('s-direct', ''));
    expect([noName.code, reason(noName)]).toEqual([status.INVALID_ARGUMENT, 'INVALID_REQUEST']);
    const bad = await callerError(callTool('bad surface id!', 'echo'));
    expect(bad.code).toBe(status.NOT_FOUND);
  });

  it('re-lists on tools/list_changed; open surfaces keep their snapshot', async () => {
    const before = catalogEvents.length;
    expect(textOf(await callTool('s-direct', 'add_tool', { name: 'late_tool' }))).toBe('added late_tool');
    const rec = await until('late_tool in the catalog', async () => {
      const r = await catalogOf('fixture');
      return r?.tools.some((t) => t.name === 'late_tool') ? r : undefined;
    });
    expect(rec.tools.map((t) => t.name)).toEqual(['add_tool', 'scale', 'pair', 'late_tool']);
    await until('catalog.changed', () => catalogEvents.slice(before).find((e) => e.capability === 'fixture' && e.toolCount === 4));
    await until('late_tool known as bound', async () => {
      const r = await callTool('s-direct', 'late_tool');
      return r.reason === 'TOOL_NOT_IN_SNAPSHOT' ? r : undefined;
    });
  });

  it('runs no stdio command outside CAPABILITY_COMMANDS, whatever the config bucket says', async () => {
    const markerDir = mkdtempSync(join(tmpdir(), 'toolsurface-rogue-'));
    const marker = join(markerDir, 'ran');
    try {
      await configKv.put(
        capabilityKey('rogue'),
        JSON.stringify({ transport: 'stdio', command: 'sh', args: ['-c', `touch ${marker}`], env: {}, cwd: ROOT, timeoutMs: 1000 }),
      );
      const rec = await until('rogue catalog', async () => catalogOf('rogue'));
      expect(rec).toMatchObject({ status: 'unavailable', error: expect.stringContaining('not in CAPABILITY_COMMANDS') });
      expect(app.capabilities()!.session('rogue')).toBeUndefined();
      await new Promise((r) => setTimeout(r, 300));
      expect(existsSync(marker)).toBe(false);
      await configKv.delete(capabilityKey('rogue'));
    } finally {
      rmSync(markerDir, { recursive: true, force: true });
    }
  });

  it('closes a capability removed from config', async () => {
    const pid = app.capabilities()!.session('fixture')!.pid!;
    expect(pid).toBeGreaterThan(0);
    await configKv.delete(capabilityKey('fixture'));
    await until('fixture catalog removed', async () => ((await catalogOf('fixture')) === undefined ? true : undefined));
    await until('fixture child exited', () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    expectRefusal(await callTool('s-direct', 'scale', { factor: 1 }), 'CAPABILITY_UNAVAILABLE', 'unavailable');
  });

  it('reconnects a stdio capability whose process died', async () => {
    const pid = app.capabilities()!.session('memory')!.pid!;
    const before = catalogEvents.length;
    process.kill(pid, 'SIGKILL');
    await until('memory reported unavailable', () =>
      catalogEvents.slice(before).find((e) => e.capability === 'memory' && e.status === 'unavailable'),
    );
    await until('memory back', async () => ((await callTool('s-direct', 'memory.read_graph')).isError ? undefined : true));
    expect(app.capabilities()!.session('memory')!.pid).not.toBe(pid);
    expect((await catalogOf('memory'))?.status).toBe('ok');
  });

  it('reports an HTTP capability that went away as unavailable', async () => {
    await everything.stop();
    expectRefusal(await callTool('s-direct', 'echo', { message: 'anyone?' }), 'CAPABILITY_UNAVAILABLE', 'unavailable right now');
    await until('everything marked unavailable', async () =>
      (await catalogOf('everything'))?.status === 'unavailable' ? true : undefined,
    );
  });

  it('answers UNAVAILABLE when discovery is down', async () => {
    await stubs.stop(100);
    const e = await callerError(callTool('s-disc', 'discover_tools', { query: 'echo' }));
    expect(e.code).toBe(status.UNAVAILABLE);
  });

  it('stops in order and ends its stdio children', async () => {
    const pid = app.capabilities()!.session('memory')!.pid!;
    await app.stop();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
