import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isAppError,
  PRINCIPAL_ID_PATTERN,
  ReasonCode,
  VIA_PORTAL,
  type Autonomy,
  type PresentationMode,
  type PrincipalRef,
} from '@toolsurface/core';
import { AUTONOMY_NAMES, GatewayClient, mcpEndpointUrl, MODE_NAMES, principalSummaryToJson, resolvedModeName } from '@toolsurface/client';
import { TLS_ENV, type TlsFiles } from '@toolsurface/platform';
import { csrfMatches, sessionCookie, type Session, type SessionStore } from './sessions';
import { activityQuery, type ActivityFeed } from './activity-feed';
import { JSON_HEADERS } from './static';

/** What the API handlers need from the server. */
export interface ApiContext {
  sessions: SessionStore;
  resolver: string;
  /** TLS (and mutual TLS) towards surface-resolver; plaintext when absent. */
  grpcTls?: TlsFiles;
  secure: boolean;
  sessionTtlSeconds: number;
  mcpPublicUrl: string;
  /** Recent tool calls per principal, read from NATS. */
  activity: Pick<ActivityFeed, 'view'>;
}

/** A refusal the API answers with its HTTP status and a message meant for a person. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Largest JSON body the API reads, bytes. */
const MAX_BODY_BYTES = 16 * 1024;

/** HTTP status of a gateway refusal, by reason code. */
function statusOf(code: ReasonCode): number {
  switch (code) {
    case ReasonCode.UNAUTHENTICATED:
      return 401;
    case ReasonCode.PERMISSION_DENIED:
      return 403;
    case ReasonCode.CONFIG_CONFLICT:
    case ReasonCode.PRESENTATION_CHANGED:
      return 409;
    case ReasonCode.UNAVAILABLE:
      return 502;
    case ReasonCode.INVALID_REQUEST:
    case ReasonCode.INVALID_ARGUMENTS:
      return 400;
    default:
      return 500;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  // A JSON content type makes a cross-site request a CORS one, which the browser sends only after a preflight the portal never grants.
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new ApiError(415, 'send the body as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `the body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  let v: unknown;
  try {
    v = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError(400, 'the body is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ApiError(400, 'the body must be a JSON object');
  return v as Record<string, unknown>;
}

function client(ctx: ApiContext, token: string): GatewayClient {
  // Only surface-resolver is called; dispatch's address is never used. surface-resolver names the
  // person from their token; "portal" marks the change as made here (actor "portal:<orchestrator>").
  return new GatewayClient({ resolver: ctx.resolver, dispatch: ctx.resolver }, { controlMs: 15_000 }, token, ctx.grpcTls, VIA_PORTAL);
}

async function withClient<T>(ctx: ApiContext, token: string, fn: (c: GatewayClient) => Promise<T>): Promise<T> {
  const c = client(ctx, token);
  try {
    return await fn(c);
  } catch (e) {
    if (isAppError(e) && e.code === ReasonCode.UNAVAILABLE && /No connection established/.test(e.message))
      throw new ApiError(502, unreachable(ctx, e.message));
    if (isAppError(e)) throw new ApiError(statusOf(e.code), `${e.code}: ${e.message}`);
    throw e;
  } finally {
    c.close();
  }
}

/**
 * Why surface-resolver could not be reached, with what to set: grpc-js reports a certificate that
 * does not verify only deep inside "No connection established. Last error: …".
 */
function unreachable(ctx: ApiContext, message: string): string {
  const why =
    (message.split('Last error: ').pop() ?? '')
      .replace(/\.? Resolution note:[\s\S]*$/, '')
      .replace(/^Error: /, '')
      // (an OpenSSL error line: its reason is the part worth showing, e.g. "tlsv13 alert certificate required")
      .replace(/^[0-9A-F]+:error:[0-9A-F]+:SSL routines:[a-z0-9_]+:([^:]+):[\s\S]*$/, '$1')
      .trim()
      .slice(0, 200) || message.slice(0, 200);
  const where = `surface-resolver at ${ctx.resolver}`;
  if (ctx.grpcTls && /alert certificate required/.test(why))
    return `UNAVAILABLE: ${where} requires a client certificate (mutual TLS; ${why}): set ${TLS_ENV.certFile} and ${TLS_ENV.keyFile} to one its client CA signed`;
  if (ctx.grpcTls && /certificate|self[- ]signed|unable to verify|altnames/i.test(why))
    return `UNAVAILABLE: ${where} presented a TLS certificate the portal does not trust (${why}): ${TLS_ENV.caFile} (${ctx.grpcTls.caFile}) must name the CA that signed it`;
  // (a client certificate the server's client CA did not sign shows only as "Failed to connect")
  const hint = ctx.grpcTls
    ? ctx.grpcTls.certFile
      ? `; with mutual TLS, surface-resolver's client CA must have signed ${TLS_ENV.certFile} (${ctx.grpcTls.certFile})`
      : ''
    : `; if it serves TLS, set ${TLS_ENV.caFile} to the CA that signed its certificate (and ${TLS_ENV.certFile} and ${TLS_ENV.keyFile} for mutual TLS)`;
  return `UNAVAILABLE: ${where} cannot be reached (${why})${hint}`;
}

function principalFromPath(kind: string, id: string): PrincipalRef {
  if (kind !== 'agent' && kind !== 'gateway')
    throw new ApiError(404, `"${kind.slice(0, 40)}" is not a kind of principal (agent or gateway)`);
  if (!PRINCIPAL_ID_PATTERN.test(id)) throw new ApiError(404, `"${id.slice(0, 130)}" is not a principal ID`);
  return { kind, id };
}

/** The principals as the pages show them, with the MCP endpoint URL of each where one is configured. */
async function principals(ctx: ApiContext, s: Session, kind?: 'agent' | 'gateway') {
  const list = await withClient(ctx, s.token, (c) => c.listPrincipals(kind));
  return list.map((p) => {
    const j = principalSummaryToJson(p);
    const mcpUrl = ctx.mcpPublicUrl ? mcpEndpointUrl(ctx.mcpPublicUrl, { kind: j.kind as 'agent' | 'gateway', id: j.id }).href : '';
    return { ...j, mcpUrl };
  });
}

/** GET /api/principals/<kind>/<id>/preview: each mode's tools and token count (PreviewPresentation). */
async function preview(ctx: ApiContext, s: Session, p: PrincipalRef) {
  const r = await withClient(ctx, s.token, (c) => c.previewPresentation(p));
  return {
    tokenizer: r.tokenizer,
    boundToolCount: r.boundToolCount,
    modes: r.modes.map((m) => ({ mode: resolvedModeName(m.mode), toolNames: m.toolNames, tokens: m.tokens })),
    hidden: r.hidden,
    collisions: r.collisions,
  };
}

/** POST /api/session: signs in with an admin orchestrator's token, checked by an admin-only call to surface-resolver. */
async function signIn(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const token = typeof body.token === 'string' ? body.token.trim() : '';
  if (token === '') throw new ApiError(400, 'enter the admin token (an orchestrator token with admin: true)');
  // gRPC metadata carries printable ASCII only: anything else fails before reaching the gateway,
  // and the client library's error would repeat the token back.
  if (!/^[\x20-\x7e]+$/.test(token))
    throw new ApiError(400, 'that is not an admin token: a token has printable ASCII characters only; check what was pasted');
  try {
    await withClient(ctx, token, (c) => c.getEffectiveConfig());
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403))
      throw new ApiError(401, 'that token is not an admin orchestrator token of this gateway');
    throw e;
  }
  // A sign-in ends the session the browser held before (another person's, or one whose ID leaked): it never lives on unseen.
  const before = await sessionsCall(() => ctx.sessions.fromCookie(req.headers.cookie));
  if (before) await sessionsCall(() => ctx.sessions.delete(before.id));
  const s = await sessionsCall(() => ctx.sessions.create(token));
  send(res, 200, { signedIn: true, csrf: s.csrf }, { 'set-cookie': sessionCookie(s.id, ctx.sessionTtlSeconds, ctx.secure) });
}

/** PUT /api/principals/<kind>/<id>/presentation: { mode, autonomy?, expectedMode? } → SetPresentation. */
async function setPresentation(ctx: ApiContext, s: Session, p: PrincipalRef, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const mode = body.mode;
  if (typeof mode !== 'string' || !(MODE_NAMES as readonly string[]).includes(mode))
    throw new ApiError(400, `mode "${String(mode).slice(0, 40)}" is not one of ${MODE_NAMES.join(', ')}; nothing was changed`);
  const autonomy = body.autonomy;
  if (autonomy !== undefined && (typeof autonomy !== 'string' || !(AUTONOMY_NAMES as readonly string[]).includes(autonomy)))
    throw new ApiError(400, `autonomy "${String(autonomy).slice(0, 40)}" is not one of ${AUTONOMY_NAMES.join(', ')}; nothing was changed`);
  if (autonomy === 'supervised' && p.kind !== 'gateway') throw new ApiError(400, 'only gateways can be supervised; nothing was changed');
  const saved = await oneAtATime(`${p.kind}:${p.id}`, async () => {
    // SetPresentation would create a principal it does not know: the portal only changes ones that exist.
    const current = (await principals(ctx, s, p.kind)).find((x) => x.id === p.id);
    if (!current) throw new ApiError(404, `${p.kind}:${p.id} does not exist (any more); reload the list. Nothing was changed`);
    const stale = (expected: unknown, now: string, verb: string) => {
      if (typeof expected === 'string' && expected !== now)
        throw new ApiError(
          409,
          `${p.kind}:${p.id} was ${verb} ${now} since this page was loaded; reload it and choose again. Nothing was changed`,
        );
    };
    stale(body.expectedMode, current.configuredMode, 'changed to');
    // A form that sends the autonomy it was loaded with would otherwise undo a switch to supervised made meanwhile.
    stale(body.expectedAutonomy, current.autonomy, 'set to');
    // The same expectation again, checked by surface-resolver as it writes: a save through another
    // replica or the CLI since the check above refuses this one (PRESENTATION_CHANGED, 409).
    const expected = {
      ...(typeof body.expectedMode === 'string' ? { mode: body.expectedMode as PresentationMode } : {}),
      ...(typeof body.expectedAutonomy === 'string' ? { autonomy: body.expectedAutonomy as Autonomy } : {}),
    };
    await withClient(ctx, s.token, (c) => c.setPresentation(p, mode as PresentationMode, autonomy as Autonomy | undefined, expected));
    return (await principals(ctx, s, p.kind)).find((x) => x.id === p.id);
  });
  send(res, 200, saved);
}

/** Saves under way, by principal: each waits for the one before it. */
const saving = new Map<string, Promise<unknown>>();

/**
 * Runs the saves of one principal one after another, so that of two saves of one form through
 * this portal at once, the second sees the first and is refused with the portal's own message.
 * (Saves through another replica or the CLI are caught by surface-resolver's compare-and-set.)
 */
async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = saving.get(key) ?? Promise.resolve();
  const run = before.then(fn);
  const done = run.catch(() => undefined);
  saving.set(key, done);
  try {
    return await run;
  } finally {
    if (saving.get(key) === done) saving.delete(key);
  }
}

/** A call of the session store: when it fails (NATS out of reach), a 503 to retry, not an internal error. */
async function sessionsCall<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw new ApiError(
      503,
      `sign-ins cannot be read or stored right now (${(e as Error).message.slice(0, 120)}); try again. Nothing was changed`,
    );
  }
}

/** Routes /api/*; resolves once the response is sent. */
export async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const method = req.method ?? 'GET';
  try {
    if (path === '/api/session' && method === 'POST') return await signIn(ctx, req, res);
    const s = await sessionsCall(() => ctx.sessions.fromCookie(req.headers.cookie));
    if (path === '/api/session' && method === 'GET') return send(res, 200, s ? { signedIn: true, csrf: s.csrf } : { signedIn: false });
    if (!s) throw new ApiError(401, 'sign in first: no session, or it expired');
    if (method !== 'GET' && !csrfMatches(s, req.headers['x-csrf-token'] as string | undefined))
      throw new ApiError(403, 'the CSRF token is missing or wrong; reload the page. Nothing was changed');
    if (path === '/api/session' && method === 'DELETE') {
      await sessionsCall(() => ctx.sessions.delete(s.id));
      return send(res, 200, { signedIn: false }, { 'set-cookie': sessionCookie('', 0, ctx.secure) });
    }
    if (path === '/api/principals' && method === 'GET') return send(res, 200, { principals: await principals(ctx, s) });
    if (path === '/api/config' && method === 'GET') return send(res, 200, await withClient(ctx, s.token, (c) => c.getEffectiveConfig()));
    // /api/principals/<kind>/<id>[/presentation]: kind and id are checked by principalFromPath.
    const m = /^\/api\/principals\/([^/]+)\/([^/]+)(\/presentation|\/preview|\/activity)?$/.exec(path);
    if (m) {
      const p = principalFromPath(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
      if (m[3] === '/presentation' && method === 'PUT') return await setPresentation(ctx, s, p, req, res);
      if (m[3] === '/preview' && method === 'GET') return send(res, 200, await preview(ctx, s, p));
      if (m[3] === '/activity' && method === 'GET') return send(res, 200, ctx.activity.view(`${p.kind}:${p.id}`, activityQuery(req.url)));
      if (!m[3] && method === 'GET') {
        const found = (await principals(ctx, s, p.kind)).find((x) => x.id === p.id);
        if (!found) throw new ApiError(404, `${p.kind}:${p.id} does not exist`);
        return send(res, 200, found);
      }
    }
    throw new ApiError(404, `no API ${method} ${path.slice(0, 100)}`);
  } catch (e) {
    if (e instanceof ApiError) return send(res, e.status, { error: e.message });
    if (e instanceof URIError) return send(res, 400, { error: 'the request URL is malformed (bad %-encoding); nothing was changed' });
    send(res, 500, { error: `internal error: ${(e as Error).message}` });
  }
}
