import type { CallToolResponse, Presentation, Surface, Tool } from '@toolsurface/proto';
import { autonomyName, modeName, principalFromProto, resolvedModeName, toolKindName } from './enums';
import { confidenceText } from '@toolsurface/core';

/** Collapses whitespace to single spaces and cuts `text` to `max` characters with an ellipsis. */
export function oneLine(text: string, max = Infinity): string {
  // Any run of whitespace, line breaks included, becomes one space.
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Puts `text` on one line (line breaks and tabs become spaces, other spacing kept) cut to `max` characters. */
function cut(text: string, max: number): string {
  // Line breaks and tabs, in runs.
  const flat = text.replace(/[\r\n\t]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * Aligns rows into columns separated by two spaces, indented by `indent`; the last column is cut
 * (or, with `wrapLast`, wrapped under itself) so that each line fits `width` characters.
 */
export function table(rows: string[][], opts: { width?: number; indent?: number; wrapLast?: boolean } = {}): string {
  if (rows.length === 0) return '';
  const indent = ' '.repeat(opts.indent ?? 0);
  const cols = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: cols - 1 }, (_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => {
      const head = widths.map((w, c) => (r[c] ?? '').padEnd(w)).join('  ');
      const prefix = cols > 1 ? `${indent}${head}  ` : indent;
      const last = r[cols - 1] ?? '';
      if (opts.wrapLast && opts.width !== undefined && prefix.length + last.length > opts.width) {
        return `${prefix}${wrap(last, opts.width, prefix.length).trimStart()}`.trimEnd();
      }
      const room = Math.max(10, (opts.width ?? Infinity) - prefix.length);
      return `${prefix}${cut(last, room)}`.trimEnd();
    })
    .join('\n');
}

/** Wraps `text` to lines of at most `width` characters, each prefixed by `indent` spaces. */
export function wrap(text: string, width: number, indent = 0): string {
  const pad = ' '.repeat(indent);
  const room = Math.max(20, width - indent);
  const lines: string[] = [];
  let line = '';
  // Splits on whitespace runs.
  for (const word of text.trim().split(/\s+/)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(pad + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(pad + line);
  return lines.join('\n');
}

/** Parses JSON text, or undefined when it is empty or not JSON. */
export function parseJsonText(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** "in 59 min", "in 12 s" or "expired" for an epoch-ms time relative to `now`. */
function relative(atMs: number, now: number): string {
  const s = Math.round((atMs - now) / 1000);
  if (s <= 0) return 'expired';
  if (s < 120) return `in ${s} s`;
  if (s < 7200) return `in ${Math.round(s / 60)} min`;
  return `in ${Math.round(s / 3600)} h`;
}

/** A surface as plain JSON: enum names, ISO times, schemas as objects. */
export function surfaceToJson(s: Surface): Record<string, unknown> {
  return {
    surfaceId: s.surfaceId,
    principal: principalFromProto(s.principal),
    configuredMode: modeName(s.configuredMode),
    resolvedMode: resolvedModeName(s.resolvedMode),
    autonomy: autonomyName(s.autonomy),
    snapshotId: s.snapshotId,
    boundToolCount: s.boundToolCount,
    presentedTokens: s.presentedTokens,
    openedAt: new Date(s.openedAtMs).toISOString(),
    expiresAt: new Date(s.expiresAtMs).toISOString(),
    collisions: s.collisions,
    tools: s.tools.map(toolToJson),
  };
}

/** A presented tool as MCP-shaped JSON plus its kind and capability. */
export function toolToJson(t: Tool): Record<string, unknown> {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: parseJsonText(t.inputSchemaJson) ?? {},
    ...(t.outputSchemaJson ? { outputSchema: parseJsonText(t.outputSchemaJson) } : {}),
    ...(t.annotationsJson ? { annotations: parseJsonText(t.annotationsJson) } : {}),
    kind: toolKindName(t.kind),
    ...(t.capability ? { capability: t.capability } : {}),
    ...(t.originalName ? { originalName: t.originalName } : {}),
  };
}

/** What `open` prints: ids, modes, snapshot, tokens, then each presented tool with a one-line description. */
export function formatSurface(s: Surface, width = 100, now = Date.now()): string {
  const configured = modeName(s.configuredMode);
  const resolved = resolvedModeName(s.resolvedMode);
  const head: string[][] = [
    ['surface', s.surfaceId],
    ['principal', principalFromProto(s.principal)],
    ['mode', configured === resolved ? resolved : `${configured} → ${resolved}`],
    ['snapshot', `${s.snapshotId} (${s.boundToolCount} bound tools)`],
    ['tokens', `${s.presentedTokens} for what the model sees`],
    ['expires', `${new Date(s.expiresAtMs).toISOString()} (${relative(s.expiresAtMs, now)})`],
  ];
  if (autonomyName(s.autonomy) === 'supervised') head.push(['autonomy', 'supervised: unified_tool proposes, it does not run']);
  for (const c of s.collisions) head.push(['collision', `${c.originalName} → ${c.presentedNames.join(', ')} (${c.rule})`]);
  const tools = s.tools.map((t) => [t.name, toolKindName(t.kind), t.description || t.title]);
  return `${table(head, { width })}\n\nwhat the model sees (${s.tools.length} tools)\n${table(tools, { width, indent: 2 })}`;
}

/** One discover_tools hit. */
export interface ToolHitView {
  name: string;
  description: string;
  score: number;
}

/** The first array found at the top of `value` or under one of `keys` (one level deep). */
function findArray(value: unknown, keys: string[]): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v;
    }
  }
  return undefined;
}

/** The structured result of a call: structuredContent, else the JSON in the first text block, else undefined. */
export function structuredResult(res: CallToolResponse): unknown {
  const structured = parseJsonText(res.structuredContentJson);
  if (structured !== undefined) return structured;
  const content = parseJsonText(res.contentJson);
  if (Array.isArray(content)) {
    const text = content.find((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text') as
      { text?: string } | undefined;
    return parseJsonText(text?.text);
  }
  return undefined;
}

/** The hits of a discover_tools result, and the hint the gateway gave when there are none. */
export function extractHits(res: CallToolResponse): { hits: ToolHitView[]; hint?: string } {
  const value = structuredResult(res);
  const list = findArray(value, ['hits', 'tools', 'results']) ?? [];
  const hits = list
    .filter((h): h is Record<string, unknown> => Boolean(h) && typeof h === 'object' && typeof (h as { name?: unknown }).name === 'string')
    .map((h) => ({ name: String(h.name), description: String(h.description ?? ''), score: Number(h.score ?? 0) }));
  const hint =
    value && typeof value === 'object' && typeof (value as { hint?: unknown }).hint === 'string'
      ? (value as { hint: string }).hint
      : undefined;
  return hint ? { hits, hint } : { hits };
}

/** What `discover` prints: rank, name, score and a one-line description per hit. */
export function formatHits(hits: ToolHitView[], width = 100, hint?: string): string {
  if (hits.length === 0) return `no tools matched${hint ? `: ${hint}` : ''}`;
  const rows = [['#', 'tool', 'score', 'description'], ...hits.map((h, i) => [String(i + 1), h.name, h.score.toFixed(2), h.description])];
  return table(rows, { width });
}

/** An MCP tool definition as get_tool_schema returns it. */
export interface ToolDefinitionView {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The tool definition in a get_tool_schema result (top level or under `tool`), or undefined. */
export function extractToolDefinition(res: CallToolResponse): ToolDefinitionView | undefined {
  const value = structuredResult(res);
  const candidate = value && typeof value === 'object' && 'tool' in value ? (value as { tool: unknown }).tool : value;
  if (!candidate || typeof candidate !== 'object' || typeof (candidate as { name?: unknown }).name !== 'string') return undefined;
  const def = { ...(candidate as ToolDefinitionView) };
  // A protobuf-shaped Tool carries its schema as JSON text.
  const text =
    (candidate as { input_schema_json?: unknown; inputSchemaJson?: unknown }).input_schema_json ??
    (candidate as { inputSchemaJson?: unknown }).inputSchemaJson;
  if (def.inputSchema === undefined && typeof text === 'string') def.inputSchema = parseJsonText(text) as Record<string, unknown>;
  return def;
}

/** The type of a JSON Schema property in a few characters: "string", "integer[]", "string|object". */
function schemaType(s: Record<string, unknown>): string {
  if (typeof s.type === 'string') {
    if (s.type === 'array' && s.items && typeof s.items === 'object') return `${schemaType(s.items as Record<string, unknown>)}[]`;
    return s.type;
  }
  if (Array.isArray(s.type)) return s.type.join('|');
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join('|');
  const alternatives = (s.anyOf ?? s.oneOf) as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(alternatives)) return alternatives.map(schemaType).join('|');
  return 'any';
}

/** What `schema` prints: name, title, wrapped description, then one row per argument. */
export function formatToolDefinition(def: ToolDefinitionView, width = 100): string {
  const lines = [def.title && def.title !== def.name ? `${def.name}  (${def.title})` : def.name];
  if (def.description) lines.push(wrap(def.description, width, 2));
  const schema = def.inputSchema ?? {};
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(props);
  lines.push('', names.length === 0 ? 'arguments  none' : 'arguments');
  if (names.length > 0) {
    const rows = names.map((n) => [n, schemaType(props[n] ?? {}), required.has(n) ? 'required' : '', String(props[n]?.description ?? '')]);
    lines.push(table(rows, { width, indent: 2 }));
  }
  return lines.join('\n');
}

/** The text of an MCP content array: text blocks as they are, other blocks as one bracketed line each. */
export function renderContent(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((b: Record<string, unknown>) => {
      switch (b?.type) {
        case 'text':
          return String(b.text ?? '');
        case 'image':
        case 'audio':
          return `[${b.type} ${String(b.mimeType ?? '')}, ${Math.round((String(b.data ?? '').length * 3) / 4)} bytes]`;
        case 'resource': {
          const r = (b.resource ?? {}) as Record<string, unknown>;
          return typeof r.text === 'string' ? `[resource ${String(r.uri)}]\n${r.text}` : `[resource ${String(r.uri)}]`;
        }
        case 'resource_link':
          return `[link ${String(b.uri)}${b.name ? ` ${String(b.name)}` : ''}]`;
        default:
          return JSON.stringify(b);
      }
    })
    .join('\n');
}

/** A CallTool response as plain JSON: content and structuredContent as values, unified metadata parsed. */
export function callResultToJson(res: CallToolResponse): Record<string, unknown> {
  const u = res.unified;
  return {
    isError: res.isError,
    ...(res.reason ? { reason: res.reason } : {}),
    ...(res.message ? { message: res.message } : {}),
    toolName: res.toolName,
    via: res.via,
    durationMs: res.durationMs,
    content: parseJsonText(res.contentJson) ?? [],
    ...(res.structuredContentJson ? { structuredContent: parseJsonText(res.structuredContentJson) } : {}),
    ...(u && (u.tool || u.candidates.length > 0)
      ? {
          unified: {
            tool: u.tool,
            confidence: u.confidence,
            arguments: parseJsonText(u.argumentsJson) ?? {},
            executed: u.executed,
            missingArguments: u.missingArguments,
            candidates: u.candidates.map((c) => ({
              name: c.name,
              confidence: c.confidence,
              arguments: parseJsonText(c.argumentsJson) ?? {},
              missingArguments: c.missingArguments,
            })),
          },
        }
      : {}),
  };
}

/** What `call` prints: the tool that ran and how, unified metadata, then the result or the refusal. */
export function formatCallResult(res: CallToolResponse, width = 100): string {
  const head: string[][] = [];
  const u = res.unified;
  // (a unified call that did not run names its tool on the "picked" line only: a "tool" line
  // read as if it had run)
  if (res.toolName && !(u && u.tool && !u.executed)) {
    const via = res.via ? `via ${res.via}` : '';
    head.push([
      'tool',
      [res.toolName, via, res.durationMs > 0 ? `${res.durationMs.toFixed(1)} ms in the tool` : ''].filter(Boolean).join('  '),
    ]);
  }
  if (u && (u.tool || u.candidates.length > 0)) {
    if (u.tool) head.push(['picked', `${u.tool}  confidence ${confidenceText(u.confidence)}  ${u.executed ? 'ran' : 'did not run'}`]);
    if (u.argumentsJson) head.push(['arguments', u.argumentsJson]);
    if (u.missingArguments.length > 0) head.push(['missing', u.missingArguments.join(', ')]);
    const others = u.candidates.map((c) => `${c.name} ${confidenceText(c.confidence)}`).join(', ');
    if (others) head.push(['candidates', others]);
  }
  if (res.isError) head.push(['refused', [res.reason || 'TOOL_ERROR', res.message].filter(Boolean).join(': ')]);
  else if (res.message) head.push(['note', res.message]);
  const body =
    renderContent(parseJsonText(res.contentJson)) ||
    (res.structuredContentJson ? JSON.stringify(parseJsonText(res.structuredContentJson), null, 2) : '');
  const parts = [table(head, { width, wrapLast: true })];
  if (body && !(res.isError && body.trim() === res.message.trim())) parts.push(res.isError ? body : `result\n${indentText(body, 2)}`);
  return parts.filter(Boolean).join('\n');
}

/** Prefixes every line of `text` with `n` spaces. */
export function indentText(text: string, n: number): string {
  const pad = ' '.repeat(n);
  // Start of every line (multiline mode).
  return text.replace(/^/gm, pad);
}

/** What `mode get|set` prints: principal, mode and autonomy on one aligned block. */
export function formatPresentation(p: Presentation): string {
  return table([
    ['principal', principalFromProto(p.principal)],
    ['mode', modeName(p.mode)],
    ['autonomy', autonomyName(p.autonomy)],
  ]);
}

/** A presentation as plain JSON with enum names. */
export function presentationToJson(p: Presentation): Record<string, unknown> {
  return { principal: principalFromProto(p.principal), mode: modeName(p.mode), autonomy: autonomyName(p.autonomy) };
}

/** What `bindings get|set` prints. */
export function formatBindings(principal: string, capabilities: string[]): string {
  return table([
    ['principal', principal],
    ['capabilities', capabilities.length > 0 ? capabilities.join(', ') : '(none)'],
  ]);
}
