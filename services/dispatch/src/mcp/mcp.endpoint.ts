import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace, type Tracer } from '@opentelemetry/api';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  INSTRUMENTATION_SCOPE,
  isAppError,
  mcpKeyFor,
  principalKey,
  readMcpKeys,
  ReasonCode,
  type Caller,
  type PrincipalRef,
} from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import { bindingsKey, MCP_KEYS_KEY, type BindingsRecord, type ConfigSource } from '@toolsurface/state';
import type { DispatchService } from '../dispatch.service';
import {
  acceptsEventStream,
  isLoopback,
  isStale,
  loopbackRequestAllowed,
  negotiatedProtocolVersion,
  newSessionId,
  principalOfPath,
  REASON_META_KEY,
  SESSION_ID_PATTERN,
  sessionsAffected,
  toCallToolResult,
  toMcpTool,
  type PresentedTool,
  type ToolsChange,
} from '../domain/mcp';
import type { McpSessionRecord, McpSessions } from '../state/mcp-sessions.store';
import type { McpOAuthConfig } from '../config';
import { bearerChallenge, bearerToken, metadataRoute, metadataUrlOf, protectedResourceMetadata } from '../domain/mcp-oauth';
import { InvalidTokenError, KeysUnavailableError, OAuthVerifier } from './oauth';
import { NotificationStreams } from './notification-streams';
import { isRequest, JsonAnswers, postRefusal } from './json-answers';
import { RequestSpans } from './request-spans';
import { SessionExpiry } from './session-expiry';
import type { SessionTimeouts } from '../domain/mcp-session-end';
import { cancelledCallId, isClientAnswer, type ElicitingCall, type Elicitations } from './elicitation';
import { declaresFormElicitation } from '../domain/elicitation-forms';
import { argumentsJson } from '../domain/arguments';

/** What the endpoint needs of surface-resolver (SurfaceClient). */
export interface SurfacesPort {
  open(principal: PrincipalRef): Promise<OpenSurface>;
  get(surfaceId: string): Promise<OpenSurface>;
  close(surfaceId: string): Promise<void>;
}

/** A surface as the endpoint uses it; `expiresAtMs` 0 or absent: no expiry known. */
interface OpenSurface {
  surfaceId: string;
  tools: PresentedTool[];
  expiresAtMs?: number;
}

export interface McpEndpointOptions {
  host: string;
  port: number;
  /** Largest request body, bytes. */
  maxBodyBytes: number;
  logger: Logger;
  version: string;
  /** Interval of the keep-alive comments on GET streams, ms (default 15 000). */
  heartbeatMs?: number;
  /** The tracer of the requests' spans (default: the global one). */
  tracer?: Tracer;
  /** OAuth 2.1 resource-server mode (MCP_OAUTH_*): JWT access tokens of this issuer, beside any MCP keys. */
  oauth?: McpOAuthConfig;
  /** When a session ends without a DELETE (MCP_SESSION_IDLE_SECONDS, MCP_STREAM_GRACE_SECONDS; default 1 h and 30 s). */
  sessionTimeouts?: SessionTimeouts;
  /** Supervised autonomy through MCP elicitation (elicitation.ts); without it, proposals and refusals go back as they are. */
  elicitations?: Elicitations;
}

/** Tool lists of surfaces kept in memory until the surface expires (a surface's presented tools never change). */
const TOOL_LISTS_MAX = 10_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: number = ErrorCode.InvalidRequest,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * The MCP endpoint: the second front of dispatch. One URL per principal (`/mcp/agent/<id>`,
 * `/mcp/gateway/<id>`), MCP Streamable HTTP through the SDK's Server and transport, used stateless
 * per request: the session (its principal, surface and protocol version) lives in NATS
 * (McpSessions), so any replica serves any request of it. initialize opens a surface for the
 * principal; tools/list returns its presented tools; tools/call enters DispatchService in process,
 * through the same call path and admission as CallTool; the end of a session (DELETE, idle, its GET
 * stream closed: session-expiry.ts) closes the surface. GET opens the
 * session's stream of server notifications: `notifications/tools/list_changed` once the
 * principal's tools, bindings or mode changed (toolsChanged marks the session in its record; the
 * replica holding the stream sees the record change), after which tools/list opens a new surface.
 */
export class McpEndpoint {
  private server: HttpServer | undefined;
  private readonly toolLists = new Map<string, { tools: Tool[]; expiresAtMs: number }>();
  private readonly loopback: boolean;
  private readonly streams: NotificationStreams;
  /**
   * One JSON Schema validator for every request's Server: without it each `new Server` builds its
   * own Ajv instance with formats, most of a Server's construction cost. The Server uses it only to
   * check elicitation answers, which this endpoint never asks for.
   */
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly tracer: Tracer;
  /** The messages of sessions after initialize, but for batches and calls that may ask the person. */
  private readonly answers = new JsonAnswers<McpSessionRecord>();
  private readonly shared: Server;
  private readonly oauth: OAuthVerifier | undefined;
  private readonly expiry: SessionExpiry;

  constructor(
    private readonly dispatcher: DispatchService,
    private readonly surfaces: SurfacesPort,
    private readonly sessions: McpSessions,
    private readonly config: ConfigSource,
    private readonly options: McpEndpointOptions,
  ) {
    this.loopback = isLoopback(options.host);
    this.tracer = options.tracer ?? trace.getTracer(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
    this.streams = new NotificationStreams(options.heartbeatMs ?? 15_000);
    this.oauth = options.oauth ? new OAuthVerifier(options.oauth) : undefined;
    sessions.onChange((id, rec) => this.streams.changed(id, rec));
    const hooks = { holdsStream: (id: string) => this.streams.has(id), ended: (rec: McpSessionRecord) => this.closeSurfaceOf(rec) };
    this.expiry = new SessionExpiry(sessions, options.sessionTimeouts, hooks, options.logger);
    this.shared = this.mcpServer((requestId) => this.answers.requestOf(requestId));
    this.shared.onerror = (err) => options.logger.debug({ err }, 'MCP server error');
  }

  /**
   * A principal's tools changed (its mode or bindings, or the tools of a capability bound to it):
   * marks each of its sessions as changed, so that the next tools/list of any replica opens a new
   * surface and the replica holding its GET stream notifies it. Resolves with the sessions marked.
   */
  async toolsChanged(change: ToolsChange): Promise<number> {
    const affected = sessionsAffected(change, this.sessions.all(), (p) => {
      const rec = this.config.get(bindingsKey(p.kind, p.id)) as BindingsRecord | undefined;
      return Array.isArray(rec?.capabilities) ? rec.capabilities : [];
    });
    const marked = await Promise.all(affected.map((id) => this.sessions.markChanged(id)));
    const count = marked.filter(Boolean).length;
    if (count > 0) this.options.logger.info({ change, sessions: count }, 'MCP sessions told their tools changed');
    return count;
  }

  /** Listens; refuses to listen beyond loopback while neither an MCP key nor OAuth is configured. Resolves with the port. */
  async start(): Promise<number> {
    const keys = readMcpKeys(this.config.get(MCP_KEYS_KEY));
    if (!this.loopback && !this.oauth && (keys === undefined || keys.length === 0)) {
      throw new Error(
        `the MCP endpoint listens on ${this.options.host} only with API keys (mcp_keys in the config) or OAuth (MCP_OAUTH_ISSUER): without them, set MCP_HOST to a loopback address`,
      );
    }
    if (!this.shared.transport) await this.shared.connect(this.answers);
    const server = createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        this.options.logger.error({ err }, 'MCP request failed');
        if (!res.headersSent) sendError(res, new HttpError(500, 'internal error', ErrorCode.InternalError));
        else res.end();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.expiry.start();
    return (server.address() as AddressInfo).port;
  }

  /** Stops taking requests and waits for those in flight (idle keep-alive connections are closed). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await this.expiry.stop();
    // GET streams never end by themselves: end them so the server can close (clients reconnect elsewhere).
    this.streams.closeAll();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://endpoint');
      const metadata = this.options.oauth ? metadataRoute(url.pathname) : undefined;
      if (metadata && this.options.oauth) return this.metadata(req, res, this.options.oauth, metadata.principal);
      const principal = principalOfPath(url.pathname);
      if (!principal) throw new HttpError(404, 'not found: use /mcp/agent/<id> or /mcp/gateway/<id>');
      if (this.loopback && !loopbackRequestAllowed(req.headers.host, header(req, 'origin'))) {
        throw new HttpError(403, 'Host or Origin is not a loopback address');
      }
      const keyId = await this.authenticate(req, principal);
      switch (req.method) {
        case 'POST':
          return await this.post(req, res, principal, keyId);
        case 'GET':
          return await this.get(req, res, principal, keyId);
        case 'DELETE':
          return await this.delete(req, res, principal, keyId);
        default:
          throw new HttpError(405, 'method not allowed: GET, POST and DELETE only', ErrorCode.ConnectionClosed, {
            Allow: 'GET, POST, DELETE',
          });
      }
    } catch (e) {
      if (e instanceof HttpError) return sendError(res, e);
      throw e;
    }
  }

  /**
   * Who this request is, as the session records it: the ID of the MCP key that admits this principal,
   * `oauth:<sub>` for an access token that does, or "" when neither keys nor OAuth are configured
   * (loopback only). A configured key is tried first; a bearer value that is no key is checked as an
   * access token. Throws 401 (503 when the issuer's keys cannot be fetched).
   */
  private async authenticate(req: IncomingMessage, principal: PrincipalRef): Promise<string> {
    const keys = readMcpKeys(this.config.get(MCP_KEYS_KEY));
    const authorization = header(req, 'authorization');
    const oauth = this.options.oauth;
    const unauthorized = (message: string) =>
      new HttpError(401, message, ErrorCode.InvalidRequest, {
        'WWW-Authenticate': oauth
          ? bearerChallenge(metadataUrlOf(oauth.publicUrl, principal), bearerToken(authorization) !== undefined)
          : `Bearer realm="toolsurface"${authorization === undefined ? '' : ', error="invalid_token"'}`,
      });
    if (keys === undefined) throw unauthorized('the stored MCP keys are malformed; every request is refused');
    if (keys.length === 0 && !this.oauth) {
      if (this.loopback) return '';
      throw unauthorized('no MCP key is configured; this endpoint is not loopback');
    }
    const key = mcpKeyFor(authorization, keys, principal);
    if (key) return key.id;
    const token = bearerToken(authorization);
    if (this.oauth && token !== undefined) {
      try {
        return `oauth:${await this.oauth.verify(token, principal)}`;
      } catch (e) {
        if (e instanceof KeysUnavailableError) {
          this.options.logger.warn({ err: e }, 'MCP access token not checked: the issuer keys are unavailable');
          throw new HttpError(503, e.message, ErrorCode.InternalError);
        }
        if (e instanceof InvalidTokenError) throw unauthorized(`${e.message}; a token for ${principalKey(principal)} is required`);
        throw e;
      }
    }
    throw unauthorized(
      oauth
        ? `an access token (or API key) of ${principalKey(principal)} is required: send "Authorization: Bearer <token>"`
        : `a valid API key of ${principalKey(principal)} is required: send "Authorization: Bearer <key>"`,
    );
  }

  /** GET of the protected-resource metadata (RFC 9728), of the endpoint or of one principal's URL. */
  private metadata(req: IncomingMessage, res: ServerResponse, oauth: McpOAuthConfig, principal?: PrincipalRef): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new HttpError(405, 'method not allowed: GET only', ErrorCode.ConnectionClosed, { Allow: 'GET, HEAD' });
    }
    const body = JSON.stringify(protectedResourceMetadata(oauth.publicUrl, oauth.issuer, principal));
    res
      .writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=300', 'Access-Control-Allow-Origin': '*' })
      .end(req.method === 'HEAD' ? undefined : body);
  }

  /** POST: one JSON-RPC message or a batch; each request in its own span (request-spans.ts). */
  private async post(req: IncomingMessage, res: ServerResponse, principal: PrincipalRef, keyId: string): Promise<void> {
    const body = await readJson(req, this.options.maxBodyBytes);
    const spans = RequestSpans.start(this.tracer, body, req);
    if (!spans) return this.serve(req, res, principal, keyId, body);
    res.on('close', () => spans.closed(res.statusCode));
    const only = spans.only();
    try {
      return await (only
        ? context.with(only, () => this.serve(req, res, principal, keyId, body, spans))
        : this.serve(req, res, principal, keyId, body, spans));
    } catch (e) {
      spans.failed(e, e instanceof HttpError ? e.code : undefined);
      throw e;
    }
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    principal: PrincipalRef,
    keyId: string,
    body: unknown,
    spans?: RequestSpans,
  ): Promise<void> {
    const elicitations = this.options.elicitations;
    // A client's answer to an elicitation: taken by the request waiting for it, on any replica.
    if (elicitations && isClientAnswer(body)) {
      const answered = await this.session(req, principal, keyId);
      if (!(await elicitations.deliver(answered.sessionId, body as never))) {
        throw new HttpError(400, 'no request of this session waits for this answer (answered already, timed out, or its call ended)');
      }
      res.writeHead(202).end();
      return;
    }
    const cancelled = elicitations ? cancelledCallId(body) : undefined;
    let session: McpSessionRecord;
    if (isInitializeRequest(body)) {
      // Refused before a surface opens: the SDK's transport would refuse it only after.
      const refusal = postRefusal(req, body, true);
      if (refusal) throw new HttpError(refusal.status, refusal.message, refusal.code);
      const surface = await this.call(() => this.surfaces.open(principal));
      const now = Date.now();
      session = {
        sessionId: newSessionId(),
        principal,
        surfaceId: surface.surfaceId,
        protocolVersion: negotiatedProtocolVersion(body.params.protocolVersion),
        keyId,
        createdAtMs: now,
        touchedAtMs: now,
        ...(declaresFormElicitation(body.params.capabilities) ? { elicitation: true } : {}),
      };
      this.remember(surface);
      // Written before the answer: the client's next request may reach another replica.
      await this.sessions.put(session);
      res.setHeader('Mcp-Session-Id', session.sessionId);
    } else {
      session = await this.session(req, principal, keyId);
    }
    // A call the client gave up on must not run once its person answers (the SDK acknowledges the notification).
    if (cancelled !== undefined && session.elicitation === true && elicitations?.mayAsk(session.principal) === true) {
      await elicitations.cancelled(session.sessionId, cancelled);
    }
    spans?.session(session.sessionId, session.protocolVersion);
    // A call that may ask the person answers as an SSE stream, which carries the elicitation request first.
    const asks = session.elicitation === true && elicitations?.mayAsk(session.principal) === true && callsUnifiedTool(body);
    if (!asks && !isInitializeRequest(body) && !Array.isArray(body)) return this.answer(req, res, session, body, spans);
    // Stateless: the session is ours (above), the transport serves this one request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asks });
    const single = { principal: session.principal, ...(asks ? { asking: transport } : {}) };
    const server = this.mcpServer((callId) => ({ context: session, callId }), single);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    spans?.bind(transport);
    await transport.handleRequest(req, res, body);
  }

  /**
   * One message of a session after initialize, answered as JSON by the shared Server (JsonAnswers):
   * what the SDK's transport would answer, without a transport and Server of its own.
   */
  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    session: McpSessionRecord,
    body: unknown,
    spans?: RequestSpans,
  ): Promise<void> {
    const refusal = postRefusal(req, body);
    if (refusal) throw new HttpError(refusal.status, refusal.message, refusal.code);
    const message = body as JSONRPCMessage;
    if (!isRequest(message)) {
      res.writeHead(202).end();
      return;
    }
    const answer = await this.answers.request(message, session);
    spans?.answered(answer);
    if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  }

  /** GET: the session's stream of server notifications (SSE), open until the client, a DELETE or shutdown ends it. */
  private async get(req: IncomingMessage, res: ServerResponse, principal: PrincipalRef, keyId: string): Promise<void> {
    if (!acceptsEventStream(header(req, 'accept'))) throw new HttpError(406, 'Not Acceptable: the client must accept text/event-stream');
    const session = await this.session(req, principal, keyId);
    if (!this.server) throw new HttpError(503, 'the endpoint is shutting down', ErrorCode.ConnectionClosed);
    // Recorded in the session: the stream closing ends the session on whichever replica sweeps first.
    this.streams.open(session, res, await this.expiry.streamOpened(session.sessionId));
  }

  private async delete(req: IncomingMessage, res: ServerResponse, principal: PrincipalRef, keyId: string): Promise<void> {
    const session = await this.session(req, principal, keyId);
    await this.call(() => this.closeSurfaceOf(session));
    await this.sessions.delete(session.sessionId);
    res.writeHead(200).end();
  }

  /** Closes the surface of a session that ends (DELETE, idle, its stream closed); one closed or expired already is fine. */
  private async closeSurfaceOf(session: McpSessionRecord): Promise<void> {
    this.toolLists.delete(session.surfaceId);
    try {
      await this.surfaces.close(session.surfaceId);
    } catch (e) {
      if (!isAppError(e, ReasonCode.SURFACE_NOT_FOUND) && !isAppError(e, ReasonCode.SURFACE_EXPIRED)) throw e;
    }
  }

  /** The session a request names in Mcp-Session-Id: 400 without one, 404 when unknown or another principal's or key's. */
  private async session(req: IncomingMessage, principal: PrincipalRef, keyId: string): Promise<McpSessionRecord> {
    const id = header(req, 'mcp-session-id');
    if (!id) throw new HttpError(400, 'Bad Request: Mcp-Session-Id header is required');
    const rec = SESSION_ID_PATTERN.test(id) ? await this.sessions.get(id) : undefined;
    if (!rec || principalKey(rec.principal) !== principalKey(principal) || rec.keyId !== keyId) {
      throw new HttpError(404, 'Session not found', -32001);
    }
    return rec;
  }

  /**
   * An SDK Server of tools/list and tools/call: the shared one (requestOf reads the request's session
   * and the client's ID of it from JsonAnswers), or one for a single request of a session
   * (initialize, a batch, a call that may ask). The client's ID is the call's ID in its audit event.
   */
  private mcpServer(
    requestOf: (requestId: RequestId) => { context: McpSessionRecord; callId: RequestId },
    single?: { principal: PrincipalRef; asking?: StreamableHTTPServerTransport },
  ): Server {
    const asking = single?.asking;
    const server = new Server(
      { name: 'toolsurface', version: this.options.version },
      {
        // notifications/tools/list_changed goes out on the session's GET stream.
        capabilities: { tools: { listChanged: true } },
        // Only initialize answers with these, and it never reaches the shared Server.
        ...(single ? { instructions: `Tools of ${principalKey(single.principal)}, as Toolsurface presents them.` } : {}),
        jsonSchemaValidator: this.validator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
      tools: await this.tools(requestOf(extra.requestId).context),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { context: session, callId } = requestOf(extra.requestId);
      return this.callTool(
        session,
        request.params,
        String(callId),
        asking ? { send: (m) => asking.send(m, { relatedRequestId: extra.requestId as RequestId }), signal: extra.signal } : undefined,
      );
    });
    return server;
  }

  /**
   * The session's presented tools. A stale session (its principal's tools changed since its surface
   * opened) gets a new surface; so does one whose surface expired or was closed meanwhile, and its
   * GET stream, where one is open, is notified (the new surface may list other tools).
   */
  private async tools(session: McpSessionRecord): Promise<Tool[]> {
    if (isStale(session)) return this.reopen(session, false);
    const known = this.toolLists.get(session.surfaceId);
    if (known && !(known.expiresAtMs > 0 && Date.now() >= known.expiresAtMs)) return known.tools;
    let surface: OpenSurface;
    try {
      surface = await this.surfaces.get(session.surfaceId);
    } catch (e) {
      if (!isAppError(e, ReasonCode.SURFACE_EXPIRED) && !isAppError(e, ReasonCode.SURFACE_NOT_FOUND)) throw toMcpError(e);
      return this.reopen(session, true);
    }
    return this.remember(surface);
  }

  /** Opens a new surface for the session and records it; calls made before this keep the old one (rule 8). */
  private async reopen(session: McpSessionRecord, expired: boolean): Promise<Tool[]> {
    const surface = await this.surfaces.open(session.principal).catch((err: unknown) => {
      throw toMcpError(err);
    });
    await this.sessions.replaceSurface(session, surface.surfaceId, expired);
    return this.remember(surface);
  }

  private async callTool(
    session: McpSessionRecord,
    params: { name: string; arguments?: Record<string, unknown> },
    requestId: string,
    person?: Pick<ElicitingCall, 'send' | 'signal'>,
  ): Promise<CallToolResult> {
    const caller: Caller = {
      orchestrator: session.keyId ? `mcp:${session.keyId}` : 'mcp',
      principals: [principalKey(session.principal)],
      admin: false,
    };
    try {
      const result = await this.dispatcher.callTool(
        { surfaceId: session.surfaceId, name: params.name, argumentsJson: argumentsJson(params.arguments), callId: requestId },
        Infinity,
        caller,
      );
      if (person && this.options.elicitations && params.name === 'unified_tool') {
        const request = typeof params.arguments?.request === 'string' ? params.arguments.request : '';
        return await this.options.elicitations.follow(
          {
            ...person,
            sessionId: session.sessionId,
            principal: session.principal,
            surfaceId: session.surfaceId,
            caller,
            callId: requestId,
            request,
          },
          result,
        );
      }
      return toCallToolResult(result);
    } catch (e) {
      const gone = isAppError(e, ReasonCode.SURFACE_EXPIRED) ? e.code : isAppError(e, ReasonCode.SURFACE_NOT_FOUND) ? e.code : undefined;
      if (gone) {
        // The model can recover: the next tools/list opens a new surface (not served from memory).
        this.toolLists.delete(session.surfaceId);
        const message = `the tool list of this session ${gone === ReasonCode.SURFACE_EXPIRED ? 'expired' : 'was closed'}; list the tools again (tools/list) and call again`;
        return {
          content: [{ type: 'text', text: `${gone}: ${message}` }],
          isError: true,
          _meta: { [REASON_META_KEY]: gone },
        };
      }
      throw toMcpError(e);
    }
  }

  private remember(surface: OpenSurface): Tool[] {
    const tools = surface.tools.map(toMcpTool);
    this.toolLists.set(surface.surfaceId, { tools, expiresAtMs: Number(surface.expiresAtMs ?? 0) });
    if (this.toolLists.size > TOOL_LISTS_MAX) this.toolLists.delete(this.toolLists.keys().next().value!);
    return tools;
  }

  /** Runs a call to surface-resolver; its failures become HTTP errors. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw toHttpError(e);
    }
  }
}

/** Whether a POST's body is one tools/call of unified_tool. */
function callsUnifiedTool(body: unknown): boolean {
  const m = body as { method?: unknown; params?: { name?: unknown } } | null;
  return m !== null && typeof m === 'object' && m.method === 'tools/call' && m.params?.name === 'unified_tool';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sendError(res: ServerResponse, e: HttpError): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: e.code, message: e.message }, id: null });
  res.writeHead(e.status, { 'Content-Type': 'application/json', ...e.headers }).end(body);
}

/** A failure of surface-resolver as an HTTP error: the caller's fault (4xx) or the system's (5xx). */
function toHttpError(e: unknown): HttpError {
  if (!isAppError(e)) return new HttpError(500, 'internal error', ErrorCode.InternalError);
  const status = e.code === ReasonCode.UNAVAILABLE ? 503 : e.code === ReasonCode.INVALID_REQUEST ? 400 : 500;
  return new HttpError(status, `${e.code}: ${e.message}`, status === 400 ? ErrorCode.InvalidRequest : ErrorCode.InternalError);
}

/** A caller error of the call path as a JSON-RPC error of the request. */
function toMcpError(e: unknown): McpError {
  if (!isAppError(e)) return new McpError(ErrorCode.InternalError, 'internal error');
  const code = e.code === ReasonCode.INVALID_REQUEST ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, `${e.code}: ${e.message}`, { reason: e.code });
}

async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HttpError(413, `request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'Parse error: Invalid JSON', ErrorCode.ParseError);
  }
}
