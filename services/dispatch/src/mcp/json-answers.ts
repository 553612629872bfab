import type { IncomingMessage } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** Why a POST is refused before any message of it is handled: the HTTP status and the JSON-RPC error. */
export interface PostRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * The checks the SDK's Streamable HTTP transport makes of a POST, with its statuses, codes and
 * messages: Accept, Content-Type, the batch's size, each message's shape, and (but for
 * initialize, as the transport does) a known Mcp-Protocol-Version. Undefined when the POST passes them.
 */
export function postRefusal(req: IncomingMessage, body: unknown, initialize = false): PostRefusal | undefined {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > MAX_BATCH_SIZE) {
    return { status: 400, code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` };
  }
  if (!messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
    return { status: 400, code: -32700, message: 'Parse error: Invalid JSON-RPC message' };
  }
  const version = req.headers['mcp-protocol-version'];
  if (!initialize && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return {
      status: 400,
      code: -32000,
      message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  }
  return undefined;
}

/** A message of a POST that passed postRefusal: a request (it has an ID) or not. */
export function isRequest(m: JSONRPCMessage): m is JSONRPCRequest {
  return 'method' in m && 'id' in m;
}

interface Pending<T> {
  /** The client's ID of the request. */
  id: RequestId;
  context: T;
  resolve: (answer: JSONRPCMessage) => void;
}

/**
 * A Transport of the SDK's Protocol that one long-lived Server serves every session through: each
 * request enters under an ID of this transport's own (clients of different sessions use the same
 * IDs) and its answer resolves the promise of `request` under the client's ID again. `requestOf`
 * gives a handler the client's ID and what its request came with (the session). Server-initiated messages have no
 * stream here and are dropped: requests that may need one (elicitation) go through the SDK's own
 * Streamable HTTP transport instead.
 *
 * Why: the SDK's StreamableHTTPServerTransport, used stateless, needs a new transport and Server
 * per POST and converts each node:http request and response to web Request and Response objects;
 * that was about a fifth of dispatch's CPU per call (docs/decisions/bench-mcp-json-answers.md).
 */
export class JsonAnswers<T> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private next = 0;
  private readonly pending = new Map<number, Pending<T>>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Hands one request to the Server; resolves with its answer, a result or a JSON-RPC error. */
  request(message: JSONRPCRequest, context: T): Promise<JSONRPCMessage> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { id: message.id, context, resolve });
      this.onmessage?.({ ...message, id });
    });
  }

  /** The request of this (transport) ID: the client's ID of it and what it came with. */
  requestOf(requestId: RequestId): { callId: RequestId; context: T } {
    const p = this.pending.get(requestId as number);
    if (!p) throw new Error(`no request ${String(requestId)} is pending`);
    return { callId: p.id, context: p.context };
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message) return; // no stream for server-initiated messages
    const p = this.pending.get(message.id as number);
    if (!p) return;
    this.pending.delete(message.id as number);
    p.resolve({ ...message, id: p.id });
  }
}
