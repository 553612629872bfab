import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { PRINCIPAL_ID_PATTERN, type PrincipalRef } from '@toolsurface/core';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { unifiedStructured } from './mcp-unified';
import type { CallResult } from './ports';

// The pure parts of the MCP endpoint (src/mcp/): routes, Host and Origin checks, session IDs, and
// the mapping of a surface's tools and of dispatch's results onto MCP's types.

/** The endpoint's paths: one URL per principal. */
export const MCP_PATH_PREFIX = '/mcp/';

/** `_meta` key of a refusal's reason code in a CallToolResult. */
export const REASON_META_KEY = 'io.toolsurface/reason';

/**
 * The principal a request path names (`/mcp/agent/<id>` or `/mcp/gateway/<id>`, a trailing slash
 * allowed), or undefined for any other path.
 */
export function principalOfPath(pathname: string): PrincipalRef | undefined {
  const m = /^\/mcp\/(agent|gateway)\/([^/]+)\/?$/.exec(pathname);
  if (!m || !PRINCIPAL_ID_PATTERN.test(m[2])) return undefined;
  return { kind: m[1] as PrincipalRef['kind'], id: m[2] };
}

/** The URL path of a principal's endpoint. */
export function mcpPathOf(principal: PrincipalRef): string {
  return `${MCP_PATH_PREFIX}${principal.kind}/${principal.id}`;
}

/** Whether a listen address or a host name is loopback only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** The host name of a Host header or of an origin URL's authority, without port or brackets. */
function hostnameOf(authority: string): string {
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(authority);
  return m ? m[1] : '';
}

/**
 * DNS rebinding protection of a loopback endpoint: the Host header must name a loopback host (any
 * port: a local proxy may forward), and an Origin, when the request has one, too. A web page of
 * another site that resolves its name to 127.0.0.1 sends its own name in both.
 */
export function loopbackRequestAllowed(host: string | undefined, origin: string | undefined): boolean {
  if (!host || !isLoopback(hostnameOf(host))) return false;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname);
}

/** Session IDs: `mcp_` and 32 random hex digits (visible ASCII, as MCP requires; a NATS key as is). */
export const SESSION_ID_PATTERN = /^mcp_[0-9a-f]{32}$/;

/** A new session ID (128 random bits). */
export function newSessionId(): string {
  return `mcp_${randomBytes(16).toString('hex')}`;
}

/** The protocol version the SDK's Server answers an initialize with (the client's when supported, else the latest). */
export function negotiatedProtocolVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** A presented tool as a surface carries it (proto `Tool`): JSON-valued fields as JSON text. */
export interface PresentedTool {
  name: string;
  title: string;
  description: string;
  inputSchemaJson: string;
  outputSchemaJson: string;
  annotationsJson: string;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A presented tool as an MCP `Tool`. MCP requires object schemas: an input schema that is not one
 * becomes `{type: "object"}` (dispatch still validates against the real one), an output schema that
 * is not one is left out.
 */
export function toMcpTool(t: PresentedTool): Tool {
  const input = jsonObject(t.inputSchemaJson);
  const tool: Tool = { name: t.name, inputSchema: (input?.type === 'object' ? input : { type: 'object' }) as Tool['inputSchema'] };
  if (t.title) tool.title = t.title;
  if (t.description) tool.description = t.description;
  const output = jsonObject(t.outputSchemaJson);
  if (output?.type === 'object') tool.outputSchema = output as Tool['outputSchema'];
  const annotations = jsonObject(t.annotationsJson);
  if (annotations) tool.annotations = annotations;
  return tool;
}

/**
 * Dispatch's answer as an MCP CallToolResult. A refusal keeps `isError`, and its text says the
 * reason code and the sentence (`PERMISSION_DENIED: …`); the code is in `_meta` too. A tool's own
 * error keeps the tool's content.
 */
export function toCallToolResult(r: CallResult): CallToolResult {
  let content: CallToolResult['content'];
  try {
    const parsed: unknown = JSON.parse(r.contentJson || '[]');
    content = Array.isArray(parsed) ? (parsed as CallToolResult['content']) : [];
  } catch {
    content = [];
  }
  const result: CallToolResult = { content, isError: r.isError };
  if (r.isError && r.reason) {
    const only = content.length === 1 && content[0].type === 'text' && content[0].text === r.message;
    if (only || content.length === 0) content.splice(0, content.length, { type: 'text', text: `${r.reason}: ${r.message}` });
    result._meta = { [REASON_META_KEY]: r.reason };
  }
  const structured = jsonObject(r.structuredContentJson);
  // unified_tool: its decision under `unified`, the chosen tool's own structured content under `result`.
  const unified = unifiedStructured(r);
  if (unified) result.structuredContent = { unified, ...(structured && !r.isError ? { result: structured } : {}) };
  else if (structured && !r.isError) result.structuredContent = structured;
  return result;
}

// Notifications (`notifications/tools/list_changed`): each session record counts the changes of
// its principal's tools (`changes`) and the count its surface reflects (`listedChanges`). A change
// adds one to `changes`, which makes the session stale: its next tools/list opens a new surface.
// A surface that expired and was reopened at tools/list adds one to both (notified, not stale).

/** The change counters of a session record (absent in records written before them: 0). */
export interface ChangeCounters {
  changes?: number;
  listedChanges?: number;
}

/** Whether the session's tools changed since its surface opened: its next tools/list opens a new one. */
export function isStale(r: ChangeCounters): boolean {
  return (r.changes ?? 0) > (r.listedChanges ?? 0);
}

/** The counters once a change of the principal's tools is recorded. */
export function afterChange(r: ChangeCounters): Required<ChangeCounters> {
  return { changes: (r.changes ?? 0) + 1, listedChanges: r.listedChanges ?? 0 };
}

/**
 * The counters once tools/list opened a new surface: `seenChanges` is the count the list started
 * from (so a change recorded meanwhile, `current.changes` above it, keeps the session stale);
 * `reopened` when the old surface had expired (counted as a change, so open streams are notified).
 */
export function afterList(current: ChangeCounters, seenChanges: number, reopened: boolean): Required<ChangeCounters> {
  const bump = reopened ? 1 : 0;
  return { changes: (current.changes ?? 0) + bump, listedChanges: seenChanges + bump };
}

/** What changed a principal's tools: its mode or bindings (presentation.changed), or a capability's tools (catalog.changed). */
export type ToolsChange = { principal: PrincipalRef } | { capability: string };

/**
 * The sessions a change affects: those of the principal a presentation.changed names, or those of
 * the principals bound to the capability of a catalog.changed (`boundCapabilities` reads a
 * principal's bindings, once per principal).
 */
export function sessionsAffected(
  change: ToolsChange,
  sessions: Iterable<{ sessionId: string; principal: PrincipalRef }>,
  boundCapabilities: (p: PrincipalRef) => readonly string[],
): string[] {
  const out: string[] = [];
  const bound = new Map<string, boolean>();
  for (const s of sessions) {
    const key = `${s.principal.kind}:${s.principal.id}`;
    let hit: boolean;
    if ('principal' in change) {
      hit = change.principal.kind === s.principal.kind && change.principal.id === s.principal.id;
    } else {
      hit = bound.get(key) ?? boundCapabilities(s.principal).includes(change.capability);
      bound.set(key, hit);
    }
    if (hit) out.push(s.sessionId);
  }
  return out;
}

/** Whether a GET's Accept header names an SSE stream (MCP requires `text/event-stream` itself). */
export function acceptsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((m) => m.split(';')[0].trim().toLowerCase() === 'text/event-stream');
}

/** A JSON-RPC message as one SSE event of the GET stream. */
export function sseEvent(message: object): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** The notification a session's GET stream carries when its tools changed. */
export const TOOLS_LIST_CHANGED = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as const;

/** An SSE comment: keeps the GET stream open through proxies and idle timeouts. */
export const SSE_HEARTBEAT = ': keep-alive\n\n';
