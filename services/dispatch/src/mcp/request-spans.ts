import type { IncomingMessage } from 'node:http';
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Attr } from '@toolsurface/core';
import { REASON_META_KEY } from '../domain/mcp';

// One SERVER span per JSON-RPC request of a POST, as OpenTelemetry's MCP semantic conventions name
// and attribute it: `{mcp.method.name} {target}` (`tools/call echo`), the child of the context the
// client sent in `params._meta` (`traceparent`, `tracestate`), else of the HTTP request's
// `traceparent` header, else the root of a new trace. The request's handler runs in the span's
// context, so the call path's spans (`execute_tool`, the gRPC and MCP clients') are its children.
// The span ends when the transport sends the request's answer.

/** What a JSON-RPC request of the body carries that the span needs. */
interface RpcRequest {
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** The `_meta` object of a request as a carrier of W3C trace context. */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return typeof v === 'string' ? v : undefined;
  },
};

function requestsOf(body: unknown): RpcRequest[] {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  return messages.filter(
    (m): m is RpcRequest =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as RpcRequest).method === 'string' &&
      (typeof (m as RpcRequest).id === 'string' || typeof (m as RpcRequest).id === 'number'),
  );
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The span name's target and its attribute: the tool or prompt name, or the resource URI. */
function targetOf(r: RpcRequest): { target?: string; attribute?: string } {
  const name = r.params?.name;
  const uri = r.params?.uri;
  if ((r.method === 'tools/call' || r.method === 'prompts/get') && typeof name === 'string') {
    return { target: name, attribute: r.method === 'tools/call' ? Attr.GEN_AI_TOOL_NAME : Attr.GEN_AI_PROMPT_NAME };
  }
  if (r.method.startsWith('resources/') && typeof uri === 'string') return { target: uri, attribute: Attr.MCP_RESOURCE_URI };
  return {};
}

/** The parent of a request's span: the client's `_meta`, else the HTTP headers, else none (a new trace). */
function parentOf(r: RpcRequest, req: IncomingMessage): Context {
  const active = context.active();
  const meta = asRecord(r.params?._meta);
  if (meta) {
    const fromMeta = propagation.extract(active, meta, metaGetter);
    if (trace.getSpanContext(fromMeta)) return fromMeta;
  }
  return propagation.extract(active, req.headers);
}

/** The spans of one POST's JSON-RPC requests, by request ID. */
export class RequestSpans {
  private readonly open = new Map<string | number, { span: Span; ctx: Context }>();

  private constructor(private readonly recording: boolean) {}

  /**
   * Starts a span per request of the body. Undefined where there is nothing to do: no request, or
   * no tracer provider registered (the API's no-op spans) and no incoming context to carry on.
   */
  static start(tracer: Tracer, body: unknown, req: IncomingMessage): RequestSpans | undefined {
    const requests = requestsOf(body);
    if (requests.length === 0) return undefined;
    let spans: RequestSpans | undefined;
    for (const r of requests) {
      const parent = parentOf(r, req);
      const { target, attribute } = targetOf(r);
      const span = tracer.startSpan(target === undefined ? r.method : `${r.method} ${target}`, { kind: SpanKind.SERVER }, parent);
      const recording = span.isRecording();
      if (!recording && !trace.getSpanContext(parent)) continue;
      spans ??= new RequestSpans(recording);
      if (recording) {
        span.setAttributes({
          [Attr.MCP_METHOD_NAME]: r.method,
          [Attr.JSONRPC_REQUEST_ID]: String(r.id),
          [Attr.NETWORK_TRANSPORT]: 'tcp',
          [Attr.NETWORK_PROTOCOL_NAME]: 'http',
        });
        if (attribute) span.setAttribute(attribute, target!);
        if (r.method === 'tools/call') span.setAttribute(Attr.GEN_AI_OPERATION_NAME, 'execute_tool');
      }
      spans.open.set(r.id, { span, ctx: trace.setSpan(parent, span) });
    }
    return spans;
  }

  /** The context of the body's only request (undefined for a batch). */
  only(): Context | undefined {
    return this.open.size === 1 ? this.open.values().next().value!.ctx : undefined;
  }

  /** The session and its protocol version, once known. */
  session(sessionId: string, protocolVersion: string): void {
    if (!this.recording) return;
    for (const { span } of this.open.values()) {
      span.setAttributes({ [Attr.MCP_SESSION_ID]: sessionId, [Attr.MCP_PROTOCOL_VERSION]: protocolVersion });
    }
  }

  /** Runs each request's handler in its span's context and ends the span with the answer. */
  bind(transport: Transport): void {
    const onmessage = transport.onmessage;
    if (onmessage) {
      transport.onmessage = (message, extra) => {
        const entry = 'method' in message && 'id' in message ? this.open.get(message.id) : undefined;
        if (entry) context.with(entry.ctx, () => onmessage(message, extra));
        else onmessage(message, extra);
      };
    }
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      try {
        return await send(message, options);
      } finally {
        this.answered(message);
      }
    };
  }

  /** The request failed before the SDK answered it (an HTTP error of the endpoint). */
  failed(e: unknown, code?: number): void {
    for (const id of [...this.open.keys()]) {
      this.end(id, code !== undefined ? String(code) : ((e as Error)?.constructor?.name ?? 'Error'), (e as Error)?.message, code);
    }
  }

  /** The HTTP response closed: ends the spans still open (answered by the transport itself, or cut off). */
  closed(httpStatus: number): void {
    for (const id of [...this.open.keys()]) this.end(id, httpStatus >= 400 ? String(httpStatus) : undefined);
  }

  /** Ends the span of the request that `message` answers (a result or a JSON-RPC error). */
  answered(message: JSONRPCMessage): void {
    if (!('id' in message) || message.id === undefined || !this.open.has(message.id)) return;
    if ('error' in message) {
      const reason = asRecord(message.error.data)?.reason;
      this.end(message.id, typeof reason === 'string' ? reason : String(message.error.code), message.error.message, message.error.code);
    } else if ('result' in message && message.result.isError === true) {
      const reason = asRecord(message.result._meta)?.[REASON_META_KEY];
      this.end(message.id, typeof reason === 'string' ? reason : 'tool_error');
    } else {
      this.end(message.id);
    }
  }

  private end(id: string | number, errorType?: string, message?: string, rpcCode?: number): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    if (errorType !== undefined && this.recording) {
      entry.span.setAttribute(Attr.ERROR_TYPE, errorType);
      if (rpcCode !== undefined) entry.span.setAttribute(Attr.RPC_STATUS_CODE, String(rpcCode));
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    entry.span.end();
  }
}
