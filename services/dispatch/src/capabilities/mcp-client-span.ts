import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type Span,
} from '@opentelemetry/api';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Attr, INSTRUMENTATION_SCOPE, Metric } from '@toolsurface/core';

/** The CLIENT span of one MCP request to a capability, and the `_meta` that carries its trace context. */
export interface McpClientSpan {
  /** `traceparent` (and `tracestate` when there is one) for the request's `params._meta`. */
  meta: Record<string, string>;
  /** Ends the span; `errorType` marks it failed (with `rpcCode` as rpc.status_code for a JSON-RPC error). */
  end(errorType?: string, rpcCode?: number, message?: string): void;
}

let duration: Histogram | undefined;
/** mcp.client.operation.duration, created on first use (after startTelemetry registered the meter provider). */
function durationHistogram(): Histogram {
  const m = Metric.MCP_CLIENT_OPERATION_DURATION;
  duration ??= metrics
    .getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version)
    .createHistogram(m.name, { unit: m.unit, description: m.description });
  return duration;
}

/**
 * Opens the CLIENT span of a `tools/call` to capability `capability`, named and attributed as the
 * MCP semantic conventions ask (span name `{mcp.method.name} {gen_ai.tool.name}`, mcp.method.name,
 * gen_ai.tool.name, gen_ai.operation.name = execute_tool, network.transport, server.address/port
 * and mcp.session.id over HTTP), as a child of the active span, and records
 * mcp.client.operation.duration when it ends. The W3C trace context goes in the
 * request's `params._meta`, where MCP servers look for it (stdio has no headers to carry it).
 */
export function startToolCallSpan(capability: string, tool: string, transport: Transport | undefined): McpClientSpan {
  const started = performance.now();
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
  const network = transportAttributes(transport);
  const span: Span = tracer.startSpan(`tools/call ${tool}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      [Attr.MCP_METHOD_NAME]: 'tools/call',
      [Attr.GEN_AI_TOOL_NAME]: tool,
      [Attr.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [Attr.TS_CAPABILITY]: capability,
      ...network,
    },
  });
  // Low-cardinality attributes only on the metric (no session id, address or port).
  const metricAttributes: Attributes = {
    [Attr.MCP_METHOD_NAME]: 'tools/call',
    [Attr.GEN_AI_TOOL_NAME]: tool,
    [Attr.TS_CAPABILITY]: capability,
    ...(network[Attr.NETWORK_TRANSPORT] ? { [Attr.NETWORK_TRANSPORT]: network[Attr.NETWORK_TRANSPORT] } : {}),
  };
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), meta);
  return {
    meta,
    end(errorType, rpcCode, message) {
      if (errorType !== undefined) {
        span.setAttribute(Attr.ERROR_TYPE, errorType);
        if (rpcCode !== undefined) span.setAttribute(Attr.RPC_STATUS_CODE, String(rpcCode));
        span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
        metricAttributes[Attr.ERROR_TYPE] = errorType;
      }
      span.end();
      durationHistogram().record((performance.now() - started) / 1000, metricAttributes);
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
