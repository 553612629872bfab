import {
  ARGUMENT_MATCHES,
  DEFAULT_TOOL_TIMEOUT_MS,
  type AdmissionLimit,
  type ArgumentMatch,
  type AdmissionPolicy,
  type AdmissionRule,
  type CapabilitySpec,
  type McpTool,
} from '@toolsurface/core';
import type { CatalogRecord } from '@toolsurface/state';

/** The policy when the config bucket has no `admission` key: allow (the config file's default). */
export const DEFAULT_ADMISSION_POLICY: AdmissionPolicy = Object.freeze({ default: 'allow', rules: [] }) as AdmissionPolicy;

/**
 * Keeps the fields of MCP's `Tool` the catalog carries; a tool without a string name is dropped,
 * and so is one whose name is not well-formed UTF-16 (a lone surrogate: no model could call it by
 * that name). Every other string of the tool, keys included, is made well-formed (each lone
 * surrogate becomes U+FFFD): a server's broken emoji in a description made the RFC 8785
 * canonicalisation of every snapshot holding the tool throw, so OpenSurface answered INTERNAL to
 * every principal bound to that server.
 */
export function toCatalogTools(listed: readonly unknown[]): McpTool[] {
  const out: McpTool[] = [];
  for (const listedTool of listed) {
    if (!listedTool || typeof listedTool !== 'object') continue;
    if (typeof (listedTool as { name?: unknown }).name === 'string' && !(listedTool as { name: string }).name.isWellFormed()) continue;
    const raw = wellFormed(listedTool);
    const t = raw as Record<string, unknown>;
    if (typeof t.name !== 'string' || t.name === '') continue;
    const tool: McpTool = {
      name: t.name,
      inputSchema: t.inputSchema && typeof t.inputSchema === 'object' ? (t.inputSchema as Record<string, unknown>) : { type: 'object' },
    };
    if (typeof t.title === 'string') tool.title = t.title;
    if (typeof t.description === 'string') tool.description = t.description;
    if (t.outputSchema && typeof t.outputSchema === 'object') tool.outputSchema = t.outputSchema as Record<string, unknown>;
    if (t.annotations && typeof t.annotations === 'object') tool.annotations = t.annotations as Record<string, unknown>;
    out.push(tool);
  }
  return out;
}

/** True when the stored record already says this (so replicas do not rewrite and re-announce it). */
export function sameCatalog(stored: CatalogRecord | undefined, status: CatalogRecord['status'], tools: readonly McpTool[]): boolean {
  return stored !== undefined && stored.status === status && JSON.stringify(stored.tools) === JSON.stringify(tools);
}

/**
 * Whether one of `boundCapabilities` publishes `name`, as the tool's own name or with the
 * collision prefix `<capability>.` (docs/DESIGN.md product rule 9).
 */
export function isBoundToolName(
  name: string,
  boundCapabilities: readonly string[],
  catalogOf: (capability: string) => CatalogRecord | undefined,
): boolean {
  return boundToolsNamed(name, boundCapabilities, catalogOf).length > 0;
}

/**
 * The tools of `boundCapabilities` that `name` can stand for: the tool of that name, or of the name
 * without the collision prefix `<capability>.`, in each capability that publishes it.
 */
export function boundToolsNamed(
  name: string,
  boundCapabilities: readonly string[],
  catalogOf: (capability: string) => CatalogRecord | undefined,
): Array<{ capability: string; tool: string }> {
  const out: Array<{ capability: string; tool: string }> = [];
  for (const cap of boundCapabilities) {
    const tools = catalogOf(cap)?.tools;
    if (!tools) continue;
    const unprefixed = name.startsWith(`${cap}.`) ? name.slice(cap.length + 1) : undefined;
    for (const t of tools) if (t.name === name || t.name === unprefixed) out.push({ capability: cap, tool: t.name });
  }
  return out;
}

/**
 * A JSON value whose strings and keys are well-formed UTF-16: the value itself where they already
 * are, else a copy with each lone surrogate replaced by U+FFFD. JSON.stringify writes a lone
 * surrogate, and nothing else, as a \uD800-\uDFFF escape (a pair is written as it is), so the
 * escapes are found in its text and the text parsed again: no recursion of ours, where a recursive
 * walk overflowed the stack on a schema nested 1,000 deep and the server lost every tool. Keys that
 * differed only by their lone surrogates become one (the last one's value), as any JSON reader of
 * the repaired text would read them. A value JSON cannot write (a cycle, nesting past what
 * JSON.stringify takes) is returned as it is.
 */
function wellFormed(v: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    return v;
  }
  if (text === undefined || !LONE_SURROGATE_ESCAPE.test(text)) return v;
  // escapes read left to right: an escaped backslash is kept whole, so "\\ud800" (a backslash, then "ud800") is no surrogate
  return JSON.parse(text.replace(ESCAPE, (m) => (m === '\\\\' ? m : '\\ufffd')));
}
/** A lone surrogate as JSON.stringify escapes it (only where the backslash itself is not escaped). */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
/** An escaped backslash, or a surrogate's escape. */
const ESCAPE = /\\(?:\\|u[dD][89a-fA-F][0-9a-fA-F]{2})/g;

function stringMap(v: unknown): v is Record<string, string> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

function stringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Reads a stored admission policy; undefined when it is malformed (the caller then refuses every call). */
export function parseAdmissionPolicy(value: unknown): AdmissionPolicy | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v.default !== 'allow' && v.default !== 'deny') return undefined;
  const rawRules = v.rules ?? [];
  if (!Array.isArray(rawRules)) return undefined;
  const rules: AdmissionRule[] = [];
  for (const r of rawRules as Array<Record<string, unknown>>) {
    if (!r || typeof r.id !== 'string' || (r.effect !== 'allow' && r.effect !== 'deny')) return undefined;
    const principals = r.principals ?? ['*'];
    const capabilities = r.capabilities ?? ['*'];
    const tools = r.tools ?? ['*'];
    if (!stringList(principals) || !stringList(capabilities) || !stringList(tools)) return undefined;
    if (r.arguments !== undefined && !stringMap(r.arguments)) return undefined;
    // An unknown comparison is a policy we cannot read (refuse every call), never a silent default.
    if (r.match !== undefined && !(ARGUMENT_MATCHES as readonly unknown[]).includes(r.match)) return undefined;
    const rule: AdmissionRule = { id: r.id, effect: r.effect, principals, capabilities, tools };
    if (r.arguments !== undefined) rule.arguments = r.arguments;
    if (r.match !== undefined) rule.match = r.match as ArgumentMatch;
    rules.push(rule);
  }
  const rawLimits = v.limits ?? [];
  if (!Array.isArray(rawLimits)) return undefined;
  const limits: AdmissionLimit[] = [];
  for (const l of rawLimits as Array<Record<string, unknown>>) {
    const limit = parseLimit(l);
    if (!limit) return undefined;
    limits.push(limit);
  }
  return limits.length > 0 ? { default: v.default, rules, limits } : { default: v.default, rules };
}

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

function parseLimit(l: Record<string, unknown>): AdmissionLimit | undefined {
  if (!l || typeof l.id !== 'string') return undefined;
  const principals = l.principals ?? ['*'];
  const capabilities = l.capabilities ?? ['*'];
  const tools = l.tools ?? ['*'];
  if (!stringList(principals) || !stringList(capabilities) || !stringList(tools)) return undefined;
  const limit: AdmissionLimit = { id: l.id, principals, capabilities, tools };
  if (l.rate !== undefined) {
    const r = l.rate as Record<string, unknown>;
    if (!r || !positive(r.calls) || !positive(r.perSeconds) || (r.per !== 'principal' && r.per !== 'tool')) return undefined;
    limit.rate = { calls: r.calls, perSeconds: r.perSeconds, per: r.per };
  }
  for (const k of ['maxArgumentBytes', 'maxResultBytes'] as const) {
    if (l[k] === undefined) continue;
    if (!positive(l[k])) return undefined;
    limit[k] = l[k];
  }
  return limit;
}

/** Reads a stored capability spec (config bucket `capability.<name>`); a string says what is wrong. */
export function parseCapabilitySpec(value: unknown): CapabilitySpec | string {
  if (!value || typeof value !== 'object') return 'not an object';
  const v = value as Record<string, unknown>;
  const timeoutMs = v.timeoutMs === undefined ? DEFAULT_TOOL_TIMEOUT_MS : v.timeoutMs;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return 'timeoutMs must be a positive number';
  if (v.transport === 'stdio') {
    if (typeof v.command !== 'string' || v.command === '') return 'stdio needs a command';
    const args = v.args ?? [];
    const env = v.env ?? {};
    if (!stringList(args)) return 'args must be a list of strings';
    if (!stringMap(env)) return 'env must map names to strings';
    if (v.cwd !== undefined && typeof v.cwd !== 'string') return 'cwd must be a string';
    return { transport: 'stdio', command: v.command, args, env, cwd: (v.cwd as string | undefined) ?? '', timeoutMs };
  }
  if (v.transport === 'streamable-http') {
    // http:// or https:// URLs only (what the config file schema allows).
    if (typeof v.url !== 'string' || !/^https?:\/\//.test(v.url)) return 'streamable-http needs an http(s) url';
    const headers = v.headers ?? {};
    if (!stringMap(headers)) return 'headers must map names to strings';
    return { transport: 'streamable-http', url: v.url, headers, timeoutMs };
  }
  return `unknown transport ${JSON.stringify(v.transport)}`;
}
