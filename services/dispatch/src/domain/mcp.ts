import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { PRINCIPAL_ID_PATTERN, type PrincipalRef } from '@toolsurface/core';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
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
  if (structured && !r.isError) result.structuredContent = structured;
  return result;
}
