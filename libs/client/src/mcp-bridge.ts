import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { PrincipalRef } from '@toolsurface/core';
import { httpsFetch } from './https-fetch';
import { formatPrincipal, UsageError } from './principal';
import type { ClientTls } from './tls';

/** Where `npm start` serves the MCP endpoint (dispatch's MCP_PORT 3100). */
export const DEFAULT_MCP_BASE_URL = 'http://127.0.0.1:3100';

/**
 * How long a person may take to answer a form the endpoint asks through the bridge: the endpoint
 * waits 10 minutes (docs/mcp.md, "Supervised elicitation"), so the bridge waits a little longer for
 * the stdio client and for the tool call that asked.
 */
const PERSON_MS = 11 * 60_000;

/** The endpoint could not be reached or refused the bridge: the message says why, for stderr. */
export class McpBridgeError extends Error {
  override readonly name = 'McpBridgeError';
}

/** How the stdio bridge reaches the endpoint and where it speaks MCP. */
export interface McpBridgeOptions {
  /** The principal's endpoint URL (`mcpEndpointUrl`). */
  url: URL;
  /** API key, sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** For an https:// URL: the CA bundle to verify the endpoint (or its proxy), and a client certificate and key. */
  tls?: ClientTls;
  /** Deadline of initialize and tools/list, ms; tool calls get at least 60 s. */
  timeoutMs: number;
  /** MCP JSON-RPC in and out (the process's stdin and stdout). */
  stdin: Readable;
  stdout: Writable;
  /** Diagnostics, one line each (stderr): never stdout. */
  log: (line: string) => void;
  version: string;
  /** Ends the bridge as stdin ending does (the CLI aborts it on SIGTERM and SIGINT). */
  stop?: AbortSignal;
}

/**
 * The principal's endpoint URL from a base URL: the base's path with `/mcp/<kind>/<id>` appended,
 * or the base itself when it already names this principal's path.
 * @throws UsageError when the base is not an http(s) URL or names another principal
 */
export function mcpEndpointUrl(base: string, principal: PrincipalRef): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--url "${base}" is not a URL: give e.g. ${DEFAULT_MCP_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http:// or https://, got "${base}"`);
  const own = `/mcp/${principal.kind}/${principal.id}`;
  const path = url.pathname.replace(/\/+$/, '');
  const named = /\/mcp\/(agent|gateway)\/[^/]+$/.exec(path);
  if (named) {
    if (!path.endsWith(own)) {
      throw new UsageError(`--url ${base} is the endpoint of another principal than ${formatPrincipal(principal)}: give the base URL`);
    }
    url.pathname = path;
  } else url.pathname = `${path}${own}`;
  return url;
}

/**
 * The stdio bridge: an MCP server on stdin/stdout (the SDK's StdioServerTransport) for clients that
 * launch local servers only, forwarding to the principal's MCP endpoint over Streamable HTTP (the
 * SDK's Client). It initializes with the endpoint first, so a stack that is not running or a key
 * it refuses fails before any MCP is spoken; then tools/list and tools/call go to the endpoint and
 * their results come back unchanged (isError and _meta included), and
 * notifications/tools/list_changed from the endpoint go to the stdio client. A session the
 * endpoint no longer knows (dropped after an hour unused) is replaced by a new one, and the stdio
 * client is told its tool list changed. When the stdio client declares elicitation at its
 * initialize, the first session (which declared none) is replaced by one that declares the same,
 * and each `elicitation/create` of the endpoint is asked of the stdio client, its answer sent back;
 * a question is withdrawn (`notifications/cancelled`) when the endpoint cancels it or when no
 * tools/call is left open. When stdin ends (or `stop` aborts), the session is ended (DELETE, which
 * closes its surface) and the promise resolves.
 * @throws McpBridgeError when the endpoint cannot be reached or refuses the bridge
 */
export async function runMcpBridge(o: McpBridgeOptions): Promise<void> {
  const bridge = new McpBridge(o);
  await bridge.connectUpstream();
  await bridge.serve();
}

interface Upstream {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Whether this session declared elicitation to the endpoint. */
  elicits: boolean;
}

class McpBridge {
  private upstream: Upstream | undefined;
  private reconnecting: Promise<Upstream> | undefined;
  private server: Server | undefined;
  /** The stdio client's elicitation capability, declared to the endpoint as it is. */
  private elicitation: ClientCapabilities['elicitation'];
  /** tools/call requests forwarded and not yet answered. */
  private callsInFlight = 0;
  /** The endpoint's questions the stdio client has not answered yet, to withdraw. */
  private readonly questions = new Set<AbortController>();

  constructor(private readonly o: McpBridgeOptions) {}

  /** Initializes a session with the endpoint; throws McpBridgeError with a readable cause. */
  async connectUpstream(): Promise<Upstream> {
    const headers: Record<string, string> = this.o.key ? { Authorization: `Bearer ${this.o.key}` } : {};
    const transport = new StreamableHTTPClientTransport(this.o.url, {
      requestInit: { headers },
      ...(this.o.tls && this.o.url.protocol === 'https:' ? { fetch: httpsFetch(this.o.tls) } : {}),
    });
    const elicitation = this.elicitation;
    const client = new Client(
      { name: 'toolsurface-mcp-bridge', version: this.o.version },
      { capabilities: elicitation ? { elicitation } : {} },
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.toolsChanged());
    if (elicitation) client.setRequestHandler(ElicitRequestSchema, (req, extra) => this.askPerson(req, extra.signal));
    try {
      await client.connect(transport, { timeout: this.o.timeoutMs });
    } catch (e) {
      await client.close().catch(() => undefined);
      throw new McpBridgeError(describeConnectError(e, this.o));
    }
    // (set after initialize: a failure to connect is said once, by the caller)
    client.onerror = (e) => this.o.log(`toolsurface mcp: endpoint: ${e.message}`);
    this.upstream = { client, transport, elicits: elicitation !== undefined };
    this.o.log(
      `toolsurface mcp: connected to ${this.o.url.href} (session ${transport.sessionId ?? 'none'}${elicitation ? ', elicitation' : ''})`,
    );
    return this.upstream;
  }

  /** Serves MCP on stdin/stdout until stdin ends, then ends the endpoint's session. */
  async serve(): Promise<void> {
    const up = this.upstream!;
    const server = new Server(up.client.getServerVersion() ?? { name: 'toolsurface', version: this.o.version }, {
      // Tools only, as the endpoint announces them; list_changed from the endpoint is forwarded.
      capabilities: { tools: { listChanged: up.client.getServerCapabilities()?.tools?.listChanged ?? false } },
      ...(up.client.getInstructions() ? { instructions: up.client.getInstructions() } : {}),
    });
    this.server = server;
    server.setRequestHandler(
      ListToolsRequestSchema,
      async (req, extra) =>
        (await this.forward({ method: 'tools/list', params: req.params }, extra.signal, this.o.timeoutMs)) as ListToolsResult,
    );
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      this.callsInFlight++;
      try {
        return (await this.forward(
          { method: 'tools/call', params: withoutProgressToken(req.params) },
          extra.signal,
          // (a call may wait for a person to answer the endpoint's question)
          Math.max(this.o.timeoutMs, this.elicitation ? PERSON_MS : 60_000),
        )) as CallToolResult;
      } finally {
        // The endpoint asks only inside a tools/call and does not cancel its question when the
        // call ends: with no call left, no question is awaited, so the stdio client's forms close.
        if (--this.callsInFlight === 0) for (const q of this.questions) q.abort(new Error('the tool call that asked has ended'));
      }
    });
    // The stdio client's capabilities are known once it initialized; the session's are fixed at
    // the endpoint's initialize, so a client that can be asked gets a session that says so.
    server.oninitialized = () => {
      const elicitation = server.getClientCapabilities()?.elicitation;
      if (!elicitation || this.upstream?.elicits) return;
      this.elicitation = elicitation;
      // A ping takes JSON-RPC ID 0, so that no question does: the SDK's clients ignore a
      // notifications/cancelled for request ID 0, and a withdrawn form would stay open.
      server.ping().catch((e: unknown) => this.o.log(`toolsurface mcp: the stdio client did not answer ping: ${String(e)}`));
      this.reconnect().catch((e: unknown) => this.o.log(`toolsurface mcp: no session with elicitation: ${String(e)}`));
    };
    const ended = new Promise<void>((resolve) => {
      this.o.stdin.once('end', resolve);
      this.o.stdin.once('close', resolve);
      // The client went away: nothing more can be answered.
      this.o.stdout.once('error', () => resolve());
      if (this.o.stop?.aborted) resolve();
      this.o.stop?.addEventListener('abort', () => resolve(), { once: true });
    });
    server.onerror = (e) => this.o.log(`toolsurface mcp: stdio: ${e.message}`);
    await server.connect(new StdioServerTransport(this.o.stdin, this.o.stdout));
    await ended;
    await this.end();
  }

  /** Sends a request to the endpoint and returns its result unchanged; a lost session is replaced once. */
  private async forward(request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal, timeout: number) {
    const send = (up: Upstream) => up.client.request(request as never, ResultSchema, { signal, timeout });
    try {
      const up = this.reconnecting
        ? await this.reconnecting.catch((err: unknown) => {
            throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err));
          })
        : this.upstream!;
      return await send(up);
    } catch (e) {
      if (!(e instanceof StreamableHTTPError && e.code === 404)) throw asMcpError(e);
      this.o.log('toolsurface mcp: the endpoint no longer knows the session; starting a new one');
      const up = await this.reconnect().catch((err: unknown) => {
        throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err));
      });
      void this.toolsChanged();
      return send(up).catch((err: unknown) => {
        throw asMcpError(err);
      });
    }
  }

  /** A new session in place of a lost one, or of one without elicitation (one at a time); the old one is ended. */
  private reconnect(): Promise<Upstream> {
    if (!this.reconnecting) {
      const old = this.upstream;
      this.reconnecting = this.connectUpstream().finally(() => (this.reconnecting = undefined));
      // (a lost session answers the DELETE with 404: nothing to close)
      void this.reconnecting
        .finally(async () => {
          await old?.transport.terminateSession().catch(() => undefined);
          await old?.client.close();
        })
        .catch(() => undefined);
    }
    return this.reconnecting;
  }

  /** Asks the stdio client the endpoint's question and returns its answer, until withdrawn. */
  private async askPerson(req: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> {
    if (!this.server) throw new McpError(ErrorCode.InternalError, 'the stdio client is not connected');
    const withdrawn = new AbortController();
    this.questions.add(withdrawn);
    try {
      return await this.server.request({ method: 'elicitation/create', params: req.params }, ElicitResultSchema, {
        signal: AbortSignal.any([signal, withdrawn.signal]),
        timeout: PERSON_MS,
      });
    } catch (e) {
      this.o.log(`toolsurface mcp: elicitation not answered: ${e instanceof Error ? e.message : String(e)}`);
      throw asMcpError(e);
    } finally {
      this.questions.delete(withdrawn);
    }
  }

  private async toolsChanged(): Promise<void> {
    // (the stdio client may not be connected yet, or gone)
    await this.server?.sendToolListChanged().catch((e: unknown) => this.o.log(`toolsurface mcp: list_changed not sent: ${String(e)}`));
  }

  /** Ends the endpoint's session (DELETE: its surface is closed) and both sides. */
  private async end(): Promise<void> {
    const up = this.reconnecting ? await this.reconnecting.catch(() => this.upstream) : this.upstream;
    if (up) {
      try {
        await up.transport.terminateSession();
        this.o.log(`toolsurface mcp: ${this.o.stop?.aborted ? 'stopped' : 'stdin ended'}; session closed`);
      } catch (e) {
        this.o.log(`toolsurface mcp: the session was not closed: ${e instanceof Error ? e.message : String(e)}`);
      }
      await up.client.close().catch(() => undefined);
    }
    await this.server?.close().catch(() => undefined);
  }
}

/** The request's params without the stdio client's progress token (the endpoint's progress would not reach it). */
function withoutProgressToken(params: Record<string, unknown>): Record<string, unknown> {
  const meta = params._meta as Record<string, unknown> | undefined;
  if (!meta || !('progressToken' in meta)) return params;
  const { progressToken: _token, ...rest } = meta;
  return { ...params, _meta: rest };
}

/** An endpoint failure as a JSON-RPC error for the stdio client (JSON-RPC errors of the endpoint pass as they are). */
function asMcpError(e: unknown): McpError {
  if (e instanceof McpError) return e;
  if (e instanceof StreamableHTTPError) return new McpError(ErrorCode.InternalError, `endpoint: HTTP ${e.code}: ${endpointMessage(e)}`);
  return new McpError(ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
}

/** The message of the endpoint's JSON-RPC error body inside a StreamableHTTPError, else its text. */
function endpointMessage(e: StreamableHTTPError): string {
  const json = /\{.*\}$/s.exec(e.message)?.[0];
  if (json) {
    try {
      const m = (JSON.parse(json) as { error?: { message?: unknown } }).error?.message;
      if (typeof m === 'string') return m;
    } catch {
      // not JSON: the text itself
    }
  }
  return e.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '');
}

/** Why the first request to the endpoint failed, in one readable line with what to do. */
export function describeConnectError(e: unknown, o: Pick<McpBridgeOptions, 'url' | 'key' | 'timeoutMs'>): string {
  const at = `the MCP endpoint at ${o.url.href}`;
  if (e instanceof StreamableHTTPError) {
    const said = endpointMessage(e);
    switch (e.code) {
      case 401:
        return o.key
          ? `${at} refused the API key (401: ${said}); check --key or TOOLSURFACE_MCP_KEY`
          : `${at} wants an API key (401: ${said}); pass --key or set TOOLSURFACE_MCP_KEY`;
      case 403:
        return `${at} refused the request (403: ${said})`;
      case 404:
        return `${at} does not exist (404: ${said}); check --url and the principal`;
      default:
        return `${at} failed (HTTP ${e.code}: ${said})`;
    }
  }
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
    return `${at} did not answer within --timeout ${o.timeoutMs} ms`;
  }
  // (the global fetch puts the network error in `cause`; httpsFetch rejects with it)
  const cause = (e as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause ?? (e as { code?: unknown; message?: unknown });
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const said = typeof cause?.message === 'string' ? cause.message.trim() : '';
  if (code && /CERT|SSL|TLS|SIGNATURE|ALERT/i.test(`${code} ${said}`)) {
    if (/CERTIFICATE_REQUIRED|alert number 116/i.test(`${code} ${said}`)) {
      return `${at} wants a client certificate (${code}): pass --tls-cert and --tls-key`;
    }
    // (OpenSSL's own messages are lines of internals: the code says it)
    const detail = !said || /error:[0-9A-F]+:/.test(said) ? code : `${code}: ${said}`;
    return `a TLS problem with ${at} (${detail}): check --tls-ca, --tls-cert and --tls-key against its certificates`;
  }
  if (code) {
    return `cannot reach ${at} (${code}): is the stack running? Start it with \`npm start\` (it serves the endpoint on 3100), or pass --url`;
  }
  const why = typeof cause?.message === 'string' ? ` (${cause.message})` : '';
  return `${at} failed: ${e instanceof Error ? e.message : String(e)}${why}`;
}
