import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { createHash } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppError, ReasonCode, type BoundToolDefinition, type PrincipalRef } from '@toolsurface/core';
import { createLogger } from '@toolsurface/platform';
import { MCP_KEYS_KEY, type ConfigSource, type Snapshot, type SurfaceRecord, type WatchedBucket } from '@toolsurface/state';
import { DispatchService } from '../dispatch.service';
import type { DispatchPorts, ToolCalledEvent } from '../domain/ports';
import { McpSessions, type McpSessionRecord } from '../state/mcp-sessions.store';
import type { McpOAuthConfig } from '../config';
import { McpEndpoint, type SurfacesPort } from './mcp.endpoint';

// The endpoint's request spans (request-spans.ts), in process: the real endpoint and DispatchService
// (its ports faked), the SDK's Client over HTTP on loopback, spans in memory.

const exporter = new InMemorySpanExporter();
/** The audit events of the endpoint's calls (DispatchService's audit port). */
const audited: ToolCalledEvent[] = [];
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('mcp-endpoint-test');

const SNAP = 'snap_' + 'b'.repeat(64);
const tools: BoundToolDefinition[] = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' }, capability: 'everything', originalName: 'echo' },
  { name: 'wipe', description: 'Wipes', inputSchema: { type: 'object' }, capability: 'everything', originalName: 'wipe' },
];
const snapshot: Snapshot = { snapshotId: SNAP, tools, byName: new Map(tools.map((t) => [t.name, t])) };
const principal: PrincipalRef = { kind: 'agent', id: 'alice' };
const surfaceRecord: SurfaceRecord = {
  surfaceId: 's-1',
  principal,
  configuredMode: 'direct',
  resolvedMode: 'direct',
  snapshotId: SNAP,
  autonomy: 'autonomous',
  boundToolCount: tools.length,
  presentedTokens: 0,
  collisions: [],
  openedAtMs: Date.now(),
  expiresAtMs: Date.now() + 3_600_000,
};

/** The part of WatchedBucket McpSessions uses, in memory. */
function memoryBucket(): WatchedBucket<McpSessionRecord> {
  const values = new Map<string, { revision: number; value: McpSessionRecord }>();
  let seq = 0;
  const put = async (k: string, v: McpSessionRecord) => void values.set(k, { revision: ++seq, value: v });
  return {
    get: (k: string) => values.get(k)?.value,
    revision: (k: string) => values.get(k)?.revision ?? 0,
    getFresh: async (k: string) => values.get(k)?.value,
    refresh: async (k: string) => values.get(k)?.value,
    entries: () => [...values].map(([k, v]) => [k, v.value]),
    onChange: () => undefined,
    put,
    update: put,
    delete: async (k: string) => void values.delete(k),
  } as unknown as WatchedBucket<McpSessionRecord>;
}

const ports: DispatchPorts = {
  surfaces: { get: async (id) => (id === surfaceRecord.surfaceId ? surfaceRecord : undefined) },
  snapshots: {
    get: async (id) => {
      if (id !== SNAP) throw new AppError(ReasonCode.SNAPSHOT_NOT_FOUND, 'no such snapshot');
      return snapshot;
    },
  },
  settings: {
    admissionPolicy: () => ({
      default: 'allow',
      rules: [{ id: 'no-wipe', effect: 'deny', principals: ['agent:alice'], capabilities: ['*'], tools: ['wipe'] }],
    }),
    autonomy: () => undefined,
    isBoundToolName: () => false,
  },
  discovery: {
    discoverTools: async () => ({ hits: [], totalTools: 0, emptyReason: '', hint: '' }),
    getToolSchema: async () => ({ name: '', description: '', inputSchema: {} }),
  },
  unified: { mapRequest: async () => ({ decision: 'execute', metadata: undefined, explanation: '' }) },
  capabilities: {
    // The MCP server behind: its client span is a child of execute_tool. It takes a few ms, so
    // that concurrent calls overlap.
    call: async (_capability, tool) =>
      new Promise((resolve) => setTimeout(resolve, 3)).then(() =>
        tracer.startActiveSpan(`behind ${tool}`, { kind: SpanKind.CLIENT }, async (span) => {
          span.end();
          return { content: [{ type: 'text', text: `ran ${tool}` }], isError: false };
        }),
      ),
    timeoutMs: () => undefined,
  },
  systemTools: { run: async () => ({ content: [], isError: false }) },
  audit: { toolCalled: (e) => void audited.push(e) },
  now: () => Date.now(),
};

/** Surfaces opened (initialize, a stale or expired session's tools/list). */
let opened = 0;
const surfaces: SurfacesPort = {
  open: async () => {
    opened++;
    return {
      surfaceId: surfaceRecord.surfaceId,
      tools: tools.map((t) => ({
        name: t.name,
        title: '',
        description: t.description ?? '',
        inputSchemaJson: JSON.stringify(t.inputSchema),
        outputSchemaJson: '',
        annotationsJson: '',
      })),
    };
  },
  get: async () => {
    throw new AppError(ReasonCode.SURFACE_NOT_FOUND, 'gone');
  },
  close: async () => undefined,
};

const config: ConfigSource = { get: () => undefined, entries: () => [], onChange: () => undefined };
const logger = createLogger('test', 'silent');
let endpoint: McpEndpoint;
let sessions: McpSessions;
let url: URL;

beforeAll(async () => {
  const dispatcher = new DispatchService(ports, { maxArgumentsBytes: 1024, tracer });
  sessions = new McpSessions(memoryBucket(), logger, 60_000);
  endpoint = new McpEndpoint(dispatcher, surfaces, sessions, config, {
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 64 * 1024,
    logger,
    version: 'test',
  });
  url = new URL(`http://127.0.0.1:${await endpoint.start()}/mcp/agent/alice`);
});

afterAll(async () => {
  await endpoint.stop();
  await provider.shutdown();
});

beforeEach(() => exporter.reset());

async function connect(headers?: Record<string, string>): Promise<{ client: Client; sessionId: string }> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'span-test', version: '1' });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

const spanNamed = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0];
};
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

describe('McpEndpoint request spans', () => {
  it('makes tools/call a SERVER span continuing the _meta traceparent, parent of execute_tool', async () => {
    const { client, sessionId } = await connect();
    const result = await client.callTool({
      name: 'echo',
      arguments: {},
      _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: 'vendor=1' },
    });
    expect(result.isError).toBe(false);
    const span = spanNamed('tools/call echo');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(parentOf(span)).toBe(CLIENT_SPAN);
    expect(span.spanContext().traceState?.get('vendor')).toBe('1');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'mcp.session.id': sessionId,
      'mcp.protocol.version': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes['error.type']).toBeUndefined();
    const execute = spanNamed('execute_tool echo');
    expect(execute.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(parentOf(execute)).toBe(span.spanContext().spanId);
    const behind = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT)!;
    expect(parentOf(behind)).toBe(execute.spanContext().spanId);
    await client.close();
  });

  it('marks a refused call with error.type = the reason code', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'wipe', arguments: {} });
    expect(result.isError).toBe(true);
    const span = spanNamed('tools/call wipe');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe((result._meta as Record<string, unknown>)['io.toolsurface/reason']);
    expect(span.attributes['error.type']).toMatch(/^[A-Z_]+$/);
    await client.close();
  });

  it('gives initialize, tools/list and ping spans; the HTTP traceparent is the fallback, else a new trace', async () => {
    const { client, sessionId } = await connect({ traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` });
    await client.listTools();
    await client.ping();
    const init = spanNamed('initialize');
    expect(init.attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'mcp.session.id': sessionId });
    for (const s of [init, spanNamed('tools/list'), spanNamed('ping')]) {
      expect(s.kind).toBe(SpanKind.SERVER);
      expect(s.spanContext().traceId).toBe(CLIENT_TRACE);
      expect(parentOf(s)).toBe(CLIENT_SPAN);
    }
    await client.close();
    exporter.reset();
    const plain = await connect();
    await plain.client.ping();
    const ping = spanNamed('ping');
    expect(ping.spanContext().traceId).not.toBe(CLIENT_TRACE);
    expect(parentOf(ping)).toBeUndefined();
    await plain.client.close();
  });

  it('marks a JSON-RPC error with its code', async () => {
    const { client } = await connect();
    await expect(client.request({ method: 'prompts/get', params: { name: 'p' } }, z.any())).rejects.toThrow();
    const span = spanNamed('prompts/get p');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'error.type': '-32601', 'rpc.status_code': '-32601', 'gen_ai.prompt.name': 'p' });
    await client.close();
  });
});

describe('McpEndpoint messages after initialize (one shared SDK Server)', () => {
  it('answers each session its own calls while sessions use the same JSON-RPC IDs at once', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Array<{ text: string }>)[0].text;
    const calls = Array.from({ length: 20 }, () => [
      a.client.callTool({ name: 'echo', arguments: {} }),
      b.client.callTool({ name: 'wipe', arguments: {} }),
    ]);
    const results = await Promise.all(calls.flat());
    results.forEach((r, i) => {
      if (i % 2 === 0) expect([r.isError, text(r)]).toEqual([false, 'ran echo']);
      else expect([r.isError, text(r)]).toEqual([true, expect.stringMatching(/^PERMISSION_DENIED: /)]);
    });
    await Promise.all([a.client.close(), b.client.close()]);
  });

  it('refuses what the SDK transport refuses, answers under the client’s ID, and takes notifications with 202', async () => {
    const { client, sessionId } = await connect();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId };
    const post = (body: unknown, extra: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const list = { jsonrpc: '2.0', id: 'mine-1', method: 'tools/list' };
    const refused = async (res: Response) => [res.status, ((await res.json()) as { error: { code: number } }).error.code];
    expect(await refused(await post(list, { Accept: 'application/json' }))).toEqual([406, -32000]);
    expect(await refused(await post(list, { 'Content-Type': 'text/plain' }))).toEqual([415, -32000]);
    expect(await refused(await post(list, { 'Mcp-Protocol-Version': '1999-01-01' }))).toEqual([400, -32000]);
    expect(await refused(await post({ jsonrpc: '2.0', id: 1 }))).toEqual([400, -32700]);
    const listed = await post(list, { 'Mcp-Protocol-Version': '2025-11-25' });
    expect(listed.headers.get('content-type')).toBe('application/json');
    expect(await listed.json()).toMatchObject({ id: 'mine-1', result: { tools: [{ name: 'echo' }, { name: 'wipe' }] } });
    expect(await post({ jsonrpc: '2.0', id: 7, method: 'resources/list' }).then((r) => r.json())).toMatchObject({
      id: 7,
      error: { code: -32601 },
    });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } })).status).toBe(202);
    await client.close();
  });

  it('answers each message alike on the fast path and on the SDK transport (a batch of one)', async () => {
    const { client, sessionId } = await connect();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId };
    const post = (body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
    const messages = [
      { method: 'ping' },
      { method: 'tools/list' },
      { method: 'tools/call', params: { name: 'echo', arguments: {} } },
      { method: 'tools/call', params: { name: 'wipe', arguments: {} } },
      { method: 'tools/call', params: { name: 'no_such_tool' } },
      { method: 'tools/call', params: { name: 'echo', arguments: 'not an object' } },
      { method: 'resources/list' },
      { method: 'no/such/method' },
      { method: 'notifications/initialized' }, // a notification's method, sent with an ID
    ];
    for (const [i, m] of messages.entries()) {
      const message = { jsonrpc: '2.0', id: `same-${i}`, ...m };
      const fast = (await post(message)) as Record<string, unknown>;
      // The SDK's transport answers a batch of one with that one answer, not an array.
      const sdk = (await post([message])) as Record<string, unknown>;
      expect(fast, m.method).toMatchObject({ jsonrpc: '2.0', id: message.id });
      expect(fast, m.method).toEqual(sdk);
    }
    await client.close();
  });

  it('audits a call under the client’s JSON-RPC ID on either path, and refuses an over-long ID on both', async () => {
    const { client, sessionId } = await connect();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId };
    const call = (id: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    const post = (body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
    audited.length = 0;
    expect(await post(call('fast-1'))).toMatchObject({ id: 'fast-1', result: { isError: false } });
    expect(await post([call('batch-1')])).toMatchObject({ id: 'batch-1', result: { isError: false } });
    expect(audited.map((e) => [e.callId, e.orchestrator, e.outcome])).toEqual([
      ['fast-1', 'mcp', 'ok'],
      ['batch-1', 'mcp', 'ok'],
    ]);
    // The call ID travels in the audit event, so the call path bounds it (256 characters).
    const long = 'x'.repeat(300);
    const refused = { id: long, error: { code: -32602, data: { reason: 'INVALID_REQUEST' } } };
    expect(await post(call(long))).toMatchObject(refused);
    expect(await post([call(long)])).toMatchObject(refused);
    await client.close();
  });

  it('refuses arguments nested thousands deep as too deep (INVALID_ARGUMENTS, audited) on either path, and keeps serving', async () => {
    const { client, sessionId } = await connect();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId };
    // Written as text: 10 000 levels are too deep for JSON.stringify (and for the SDK's client) to write.
    const call = `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`;
    audited.length = 0;
    for (const body of [call, `[${call}]`]) {
      const answer = await fetch(url, { method: 'POST', headers, body }).then((r) => r.json());
      expect(answer).toMatchObject({ id: 'deep', result: { isError: true, _meta: { 'io.toolsurface/reason': 'INVALID_ARGUMENTS' } } });
    }
    expect(audited.map((e) => [e.outcome, e.reason])).toEqual([
      ['refused', 'INVALID_ARGUMENTS'],
      ['refused', 'INVALID_ARGUMENTS'],
    ]);
    expect((await client.callTool({ name: 'echo', arguments: {} })).isError).toBe(false);
    await client.close();
  });

  it('opens no surface and keeps no session for an initialize the transport refuses', async () => {
    const before = { opened, sessions: sessions.all().length };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'attack', version: '1' } },
    };
    const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    const wrongAccept = await post({ 'Content-Type': 'application/json', Accept: 'application/json' });
    expect([wrongAccept.status, wrongAccept.headers.get('mcp-session-id')]).toEqual([406, null]);
    const wrongType = await post({ 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' });
    expect([wrongType.status, wrongType.headers.get('mcp-session-id')]).toEqual([415, null]);
    expect({ opened, sessions: sessions.all().length }).toEqual(before);
    // An unknown Mcp-Protocol-Version does not refuse initialize (the SDK's transport checks it after).
    const ok = await post({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '1999-01-01',
    });
    expect(ok.status).toBe(200);
    expect(opened).toBe(before.opened + 1);
  });
});

describe('API keys on messages after initialize', () => {
  const digest = (key: string) => createHash('sha256').update(key).digest('hex');
  const keys = [
    { id: 'a1', keySha256: digest('key-a1'), principals: ['agent:alice'] },
    { id: 'a2', keySha256: digest('key-a2'), principals: ['agent:alice'] },
    { id: 'b', keySha256: digest('key-b'), principals: ['agent:bob'] },
  ];
  const keyed: ConfigSource = { ...config, get: (k: string) => (k === MCP_KEYS_KEY ? keys : undefined) };
  let withKeys: McpEndpoint;
  let alice: URL;
  beforeAll(async () => {
    withKeys = new McpEndpoint(
      new DispatchService(ports, { maxArgumentsBytes: 1024, tracer }),
      surfaces,
      new McpSessions(memoryBucket(), logger, 60_000),
      keyed,
      { host: '127.0.0.1', port: 0, maxBodyBytes: 64 * 1024, logger, version: 'test' },
    );
    alice = new URL(`http://127.0.0.1:${await withKeys.start()}/mcp/agent/alice`);
  });
  afterAll(() => withKeys.stop());

  it('admits a session’s calls only with its own key, audited as that key; no error code when no key was sent', async () => {
    const transport = new StreamableHTTPClientTransport(alice, { requestInit: { headers: { Authorization: 'Bearer key-a1' } } });
    const client = new Client({ name: 'keys-test', version: '1' });
    await client.connect(transport);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 'k-1', method: 'tools/call', params: { name: 'echo', arguments: {} } });
    const post = async (to: URL, authorization?: string) => {
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': transport.sessionId!,
      };
      const res = await fetch(to, {
        method: 'POST',
        headers: { ...headers, ...(authorization ? { Authorization: authorization } : {}) },
        body: call,
      });
      return [res.status, res.headers.get('www-authenticate')];
    };
    audited.length = 0;
    // RFC 6750 3.1: a request without credentials gets the challenge without an error code.
    expect(await post(alice)).toEqual([401, 'Bearer realm="toolsurface"']);
    const invalid = [401, 'Bearer realm="toolsurface", error="invalid_token"'];
    expect(await post(alice, 'Bearer not-a-key')).toEqual(invalid);
    expect(await post(alice, 'Bearer key-b')).toEqual(invalid);
    // Another key of the same principal, or the session at another principal's URL: not this session.
    expect(await post(alice, 'Bearer key-a2')).toEqual([404, null]);
    expect(await post(new URL('/mcp/agent/bob', alice), 'Bearer key-b')).toEqual([404, null]);
    expect(audited).toEqual([]);
    expect(await post(alice, 'Bearer key-a1')).toEqual([200, null]);
    expect(audited.map((e) => [e.callId, e.orchestrator, e.outcome])).toEqual([['k-1', 'mcp:a1', 'ok']]);
    await client.close();
  });
});

describe('OAuth resource-server mode', () => {
  const oauth: McpOAuthConfig = {
    issuer: 'http://127.0.0.1:1',
    // Nothing listens on port 1: the keys cannot be fetched.
    jwksUrl: 'http://127.0.0.1:1/jwks',
    publicUrl: 'https://tools.example.test',
    audience: 'https://tools.example.test',
    principalClaim: 'toolsurface_principals',
    algorithms: ['ES256'],
  };
  const make = (withOAuth: boolean) =>
    new McpEndpoint(
      new DispatchService(ports, { maxArgumentsBytes: 1024, tracer }),
      surfaces,
      new McpSessions(memoryBucket(), logger, 60_000),
      config,
      {
        host: '0.0.0.0',
        port: 0,
        maxBodyBytes: 64 * 1024,
        logger,
        version: 'test',
        ...(withOAuth ? { oauth } : {}),
      },
    );

  it('listens beyond loopback without keys only with OAuth on, and answers 503 while the issuer keys cannot be had', async () => {
    await expect(make(false).start()).rejects.toThrow(/only with API keys .* or OAuth/);
    const on = make(true);
    const port = await on.start();
    try {
      const { privateKey } = await generateKeyPair('ES256');
      const token = await new SignJWT({ toolsurface_principals: 'alice' })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(oauth.issuer)
        .setAudience(oauth.audience)
        .setExpirationTime('5m')
        .sign(privateKey);
      const post = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/mcp/agent/alice`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      expect((await post({ Authorization: `Bearer ${token}` })).status).toBe(503);
      const none = await post({});
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="https://tools.example.test/.well-known/oauth-protected-resource/mcp/agent/alice"',
      );
    } finally {
      await on.stop();
    }
  });
});
