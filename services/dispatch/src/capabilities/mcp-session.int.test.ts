import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '@toolsurface/platform';
import { CapabilitySession } from './mcp-session';

// W3C propagation and an in-memory exporter, registered globally as startTelemetry does.
const exporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

// A real MCP server (the SDK's, stateful Streamable HTTP) whose tools answer with the `_meta` they got.
const sessions = new Map<string, StreamableHTTPServerTransport>();
function handle(req: IncomingMessage, res: ServerResponse): void {
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? sessions.get(id) : undefined;
  if (known) return void known.handleRequest(req, res);
  const server = new Server({ name: 'meta-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['echo-meta', 'fail'].map((name) => ({ name, description: name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (r) => ({
    content: [{ type: 'text', text: JSON.stringify(r.params._meta ?? {}) }],
    isError: r.params.name === 'fail',
  }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sid) => void sessions.set(sid, transport),
  });
  void server.connect(transport).then(() => transport.handleRequest(req, res));
}

let http: HttpServer;
let port: number;
let session: CapabilitySession;
beforeAll(async () => {
  http = createServer(handle);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  port = (http.address() as AddressInfo).port;
  session = new CapabilitySession(
    'meta',
    { transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp`, headers: {}, timeoutMs: 10_000 },
    () => undefined,
    createLogger('mcp-session-test', 'silent'),
  );
  session.start();
  await session.firstAttempt;
  expect(session.connected).toBe(true);
});
afterAll(async () => {
  await session.close();
  http.closeAllConnections();
  await new Promise((r) => http.close(r));
});

/** Calls `tool` inside a parent span; returns the `_meta` the server saw, the MCP span and the parent. */
async function callTraced(tool: string) {
  exporter.reset();
  const parent = trace.getTracer('test').startSpan('execute_tool parent');
  const res = await context.with(trace.setSpan(context.active(), parent), () => session.call(tool, {}, 10_000));
  parent.end();
  const meta = JSON.parse((res.content[0] as { text: string }).text) as Record<string, string>;
  const span = exporter.getFinishedSpans().find((s) => s.name === `tools/call ${tool}`);
  return { res, meta, span, parent: parent.spanContext() };
}

describe('CapabilitySession tool calls', () => {
  it('are CLIENT spans per the MCP conventions, with the trace context in params._meta', async () => {
    const { res, meta, span, parent } = await callTraced('echo-meta');
    expect(res.isError).toBe(false);
    expect(span, 'a tools/call span').toBeDefined();
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(span!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo-meta',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
      'server.port': port,
    });
    expect(String(span!.attributes['mcp.session.id'])).toMatch(/^[0-9a-f-]{36}$/);
    // The server received this span's context: same trace, this span as the parent of its work.
    expect(meta.traceparent).toBe(`00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`);
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('mark a tool result with isError as failed, error.type tool_error', async () => {
    const { res, span } = await callTraced('fail');
    expect(res.isError).toBe(true);
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes['error.type']).toBe('tool_error');
  });
});
