import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Attr, INSTRUMENTATION_SCOPE } from '@toolsurface/core';

/** The CLIENT span of one MCP request to a capability, and the `_meta` that carries its trace context. */
export interface McpClientSpan {
  /** `traceparent` (and `tracestate` when there is one) for the request's `params._meta`. */
  meta: Record<string, string>;
  /** Ends the span; `errorType` marks it failed (with `rpcCode` as rpc.status_code for a JSON-RPC error). */
  end(errorType?: string, rpcCode?: number, message?: string): void;
}

/**
 * Opens the CLIENT span of a `tools/call` to capability `capability`, named and attributed as the
 * MCP semantic conventions ask (span name `{mcp.method.name} {gen_ai.tool.name}`, mcp.method.name,
 * gen_ai.tool.name, gen_ai.operation.name = execute_tool, network.transport, server.address/port
 * and mcp.session.id over HTTP), as a child of the active span. The W3C trace context goes in the
 * request's `params._meta`, where MCP servers look for it (stdio has no headers to carry it).
 */
export function startToolCallSpan(capability: string, tool: string, transport: Transport | undefined): McpClientSpan {
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
  const span: Span = tracer.startSpan(`tools/call ${tool}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      [Attr.MCP_METHOD_NAME]: 'tools/call',
      [Attr.GEN_AI_TOOL_NAME]: tool,
      [Attr.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [Attr.TS_CAPABILITY]: capability,
      ...transportAttributes(transport),
    },
  });
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), meta);
  return {
    meta,
    end(errorType, rpcCode, message) {
      if (errorType !== undefined) {
        span.setAttribute(Attr.ERROR_TYPE, errorType);
        if (rpcCode !== undefined) span.setAttribute(Attr.RPC_STATUS_CODE, String(rpcCode));
        span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
      }
      span.end();
    },
  };
}

function transportAttributes(transport: Transport | undefined): Record<string, string | number> {
  if (transport instanceof StdioClientTransport) return { [Attr.NETWORK_TRANSPORT]: 'pipe' };
  if (!(transport instanceof StreamableHTTPClientTransport)) return {};
  const out: Record<string, string | number> = { [Attr.NETWORK_TRANSPORT]: 'tcp' };
  // The SDK keeps the URL private; the session's own fields are public.
  const url = (transport as unknown as { _url?: URL })._url;
  if (url instanceof URL) {
    out[Attr.SERVER_ADDRESS] = url.hostname;
    out[Attr.SERVER_PORT] = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  }
  if (transport.sessionId) out[Attr.MCP_SESSION_ID] = transport.sessionId;
  if (transport.protocolVersion) out[Attr.MCP_PROTOCOL_VERSION] = transport.protocolVersion;
  return out;
}
