/**
 * Entry points of argument mapping (mapArguments, prepare, mapPrepared) and what the mapper reports
 * beside the arguments: leftovers, coordinated values, dates as written.
 */
import { type Doc, type Span, analyze } from '../extract.js';
import { type ParamInfo, isObj, paramsOf, requiredOf, resolveType } from '../schema.js';
import { contentStems, squash } from '../text.js';
import { type MapperTool } from '../types.js';
import { WEAK_KINDS } from './data/words.js';
import { datesAsWritten, todayUtc } from './dates.js';
import { setRunOptions } from './dispatch.js';
import { toolNameStems } from './echoes.js';
import { mapObject } from './map-object.js';
import { type ArgTrace, type Cand, type DetailedMapping, type MapArgumentsOptions } from './types.js';

/**
 * A string value that is another parameter's name written as the label of a value ("The song_id
 * is …" gives no device_id "song_id"), not a value. Enum values are values whatever they spell
 * (group_by "campaign_id"), and so is a name not followed by "is"/"="/":" ("sort by created_at").
 */
export function namesSibling(c: Cand, doc: Doc): boolean {
  if (typeof c.value !== 'string' || c.param.enumValues || !/[_A-Z]/.test(c.value.slice(1)) || c.ranges.length !== 1) return false;
  const v = squash(c.value);
  return (
    c.param.siblings.some((x) => squash(x) === v) &&
    /^['"”’]?\s*(?:is|was|=|:)(?=\s|$)/i.test(doc.text.slice(c.ranges[0][1], c.ranges[0][1] + 8))
  );
}

/**
 * Does a text hold a content word that is neither the tool's (its name and description, given as
 * stems) nor the parameter's (its name and description)? "Echo back a message" holds none for
 * echo's message ("Echoes back the input"; "Message to echo").
 */
export function saysMore(text: string, p: ParamInfo, toolWords: ReadonlySet<string>): boolean {
  // (a question always asks something; the parameter's description counts up to its examples:
  // "The question, e.g. about weather or sports" leaves "What's the weather?" its own)
  if (/\?\s*$/.test(text)) return true;
  const own = new Set(contentStems(definitionOf(p.description)));
  return contentStems(text).some((w) => !toolWords.has(w) && !own.has(w) && !p.anchors.includes(w));
}

/** A description up to its examples or list ("e.g.", "such as", "like", "including", a parenthesis or a colon). */
export function definitionOf(description: string): string {
  return description.split(/\be\.g\.|\bsuch as\b|\blike\b|\bincluding\b|[(:]/i)[0] ?? '';
}

/** Coerces a context value onto a parameter's type; undefined when it does not fit. */
export function coerce(v: unknown, p: ParamInfo | { type: ReturnType<typeof resolveType>; enumValues?: unknown[] }): unknown {
  const t = p.type;
  if (v === null || v === undefined) return undefined;
  if (t === 'any') return v;
  if (t === 'string') {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return undefined;
  }
  if (t === 'integer' || t === 'number') {
    // a string holding just a (signed, decimal) number
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n) || (t === 'integer' && !Number.isInteger(n))) return undefined;
    return n;
  }
  if (t === 'boolean') {
    if (typeof v === 'boolean') return v;
    // "true"/"yes"/"1" and "false"/"no"/"0"
    if (typeof v === 'string' && /^(true|yes|1)$/i.test(v.trim())) return true;
    if (typeof v === 'string' && /^(false|no|0)$/i.test(v.trim())) return false;
    return undefined;
  }
  if (t === 'array') return Array.isArray(v) ? v : undefined;
  if (t === 'object') return isObj(v) ? v : undefined;
  return v;
}

/** Finds a context field for a parameter by name (exact, snake/camel variants, singular/plural). */
export function contextField(ctx: Record<string, unknown>, name: string): { key: string; value: unknown } | undefined {
  if (name in ctx) return { key: name, value: ctx[name] };
  const want = squash(name);
  // a trailing plural "s"
  const strip = (s: string): string => s.replace(/s$/, '');
  for (const [k, v] of Object.entries(ctx)) if (squash(k) === want) return { key: k, value: v };
  for (const [k, v] of Object.entries(ctx)) if (strip(squash(k)) === strip(want) && want.length > 2) return { key: k, value: v };
  return undefined;
}

/**
 * Whether JSON carries a value as it is: no number past Number.MAX_VALUE ("1e400", 400 digits, "9e307
 * million") at any depth (up to 16 levels), which JSON.stringify would write as null.
 */
export function carriedByJson(v: unknown, depth = 0): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (depth > 16 || v === null || typeof v !== 'object') return true;
  return (Array.isArray(v) ? v : Object.values(v)).every((x) => carriedByJson(x, depth + 1));
}

/** Does a candidate's character range overlap a taken one? */
export function clashes(ranges: [number, number][], taken: [number, number][]): boolean {
  return ranges.some(([a, b]) => a >= 0 && taken.some(([c, d]) => a < d && c < b));
}

/** Spans that carry a value a tool would need (used to spot leftovers). */
function isSalient(s: Span): boolean {
  return (
    (s.kind === 'number' && !s.word) ||
    s.kind === 'quoted' ||
    s.kind === 'url' ||
    s.kind === 'email' ||
    s.kind === 'path' ||
    s.kind === 'date' ||
    s.kind === 'list'
  );
}

/** Joins the request and a context string into one text; a context object is kept apart. */
function textOf(request: string, context?: Record<string, unknown> | string): { text: string; ctx?: Record<string, unknown> } {
  const req = typeof request === 'string' ? request : '';
  if (typeof context === 'string') return { text: context.trim() ? `${req}\n${context}` : req };
  if (isObj(context)) return { text: req, ctx: context };
  return { text: req };
}

/**
 * Format characters that write nothing and join no script: zero-width space, soft hyphen, word
 * joiner, byte-order mark. Copied text carries them inside words ("Par\u200Bis"), which would
 * otherwise end a value there. (Zero-width joiners and non-joiners stay: emoji sequences and
 * Persian or Indic spellings use them.)
 */
const UNWRITTEN = /[\u00AD\u200B\u2060\uFEFF]/g;

/** Analyses request + context once (shared across candidate tools). */
export function prepare(
  request: string,
  context?: Record<string, unknown> | string,
  options: MapArgumentsOptions = {},
): { doc: Doc; ctx?: Record<string, unknown> } {
  const { text, ctx } = textOf(request, context);
  const doc = analyze(text.replace(UNWRITTEN, '').slice(0, 20_000), options.now ?? todayUtc());
  setRunOptions(doc, options);
  return { doc, ctx };
}

/** Maps a prepared request onto a tool's schema, with evidence. */
export function mapPrepared(tool: MapperTool, doc: Doc, ctx?: Record<string, unknown>): DetailedMapping {
  const schema = isObj(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} };
  const taken: [number, number][] = [];
  const { args, missing, evidence, mentionedUnfilled, valueSpans, trace } = mapObject(
    schema,
    doc,
    ctx,
    taken,
    0,
    toolNameStems(tool.name),
    false,
    tool.description ?? '',
  );
  const params = paramsOf(schema);
  const required = params.filter((p) => p.required);
  const filled = required.filter((p) => Object.hasOwn(args, p.name)).length;
  const salient = doc.spans.filter(isSalient);
  const unusedSpans = salient.filter((s) => !taken.some(([a, b]) => s.start < b && a < s.end));
  return {
    arguments: args,
    missingArguments: missing,
    filledRatio: required.length === 0 ? 1 : filled / required.length,
    evidence,
    unusedSalient: unusedSpans.length,
    // (a number inside an unused date is not listed again: "2024-05-01", not also "2024", "05", "01";
    // and only values of a kind some parameter takes: "I'm 30" is no value left out of a weather call)
    unusedValues: unusedSpans
      .filter(
        (sp) =>
          !unusedSpans.some((o) => o !== sp && o.start <= sp.start && o.end >= sp.end && o.end - o.start > sp.end - sp.start) &&
          params.some((p) => takesKind(p, sp.kind)),
      )
      .slice(0, MAX_UNUSED_SHOWN)
      .map((sp) => sp.text),
    coordinated: coordinatedValues(doc.text, valueSpans, taken),
    salient: salient.length,
    covered: taken,
    mentionedUnfilled,
    weakKinds: Object.values(evidence).filter((e) => WEAK_KINDS.has(e.kind)).length,
    requiredCount: required.length,
    paramCount: params.length,
    datesAsWritten: datesAsWritten(doc, args),
    ...(trace ? { trace } : {}),
  };
}

/**
 * Sets one argument as an own property, whatever its name: a parameter named "__proto__" is an
 * argument like any other, not the object's prototype (a plain assignment would drop it and
 * report nothing missing).
 */
export function setArg(args: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Maps a request (and context) onto a tool's JSON Schema; never emits an argument outside the schema nor invents a required value. */
export function mapArguments(
  tool: MapperTool,
  request: string,
  context?: Record<string, unknown> | string,
  options: MapArgumentsOptions = {},
): { arguments: Record<string, unknown>; missingArguments: string[]; filledRatio: number; trace?: Record<string, ArgTrace> } {
  try {
    const { doc, ctx } = prepare(request, context, options);
    const m = mapPrepared(tool, doc, ctx);
    return {
      arguments: m.arguments,
      missingArguments: m.missingArguments,
      filledRatio: m.filledRatio,
      ...(m.trace ? { trace: m.trace } : {}),
    };
  } catch {
    const req = requiredOf(tool?.inputSchema);
    return { arguments: {}, missingArguments: req, filledRatio: req.length === 0 ? 1 : 0 };
  }
}

/**
 * What follows a value when the request joins another value to it: "and" or "&" (after an
 * optional comma), at most two lower-case words ("the entity"), then a capitalised word or a
 * number. A bare comma does not join ("Paris, France" is one place).
 */
const COORDINATED = /^\s*,?\s*(?:and|&)\s+(?:[a-z]+\s+){0,2}?(?!I\b|I['’])([A-Z][\w.'-]*|\d[\w.,:-]*)/;

/**
 * The same join written before the value: a capitalised word or a number, "and" or "&", at most
 * two lower-case words, then the value ("JNJ and AAPL" for a ticker that took AAPL).
 */
const COORDINATED_BEFORE = /(?:^|[^\w'’])((?!I\b)[A-Z][\w.'-]*|\d[\w.,:-]*)\s*,?\s*(?:and|&)\s+(?:[a-z]+\s+){0,2}$/;

/**
 * A list of codes or numbers joined by a comma or "or" ("AAPL, MSFT", "AAPL or MSFT"): read as
 * joined only when the value itself is a code or a number, since "Paris, France" is one place.
 */
const CODE_AFTER = /^\s*(?:,\s*(?:or\s+)?|or\s+)([A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)\b/;

const CODE_BEFORE = /(?:^|[^\w])([A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)\s*(?:,\s*(?:or\s+)?|\s+or\s+)$/;

/** Names of the parameters whose value the request joins to another value that no argument took (DetailedMapping.coordinated). */
function coordinatedValues(text: string, valueSpans: ReadonlyMap<string, [number, number]>, taken: readonly [number, number][]): string[] {
  const out: string[] = [];
  // a joined word that labels a value another argument took is no second value ("vector A [3, 2, 1]
  // and vector B [1, 2, 3]": B labels vector2's list)
  const free = (at: number, len: number): boolean => !taken.some(([a, b]) => a < at + len + 3 && at < b);
  for (const [name, [start, end]] of valueSpans) {
    const value = text.slice(start, end).trim();
    const code = /^(?:[A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)$/.test(value);
    const after = text.slice(end, end + 80);
    const before = text.slice(Math.max(0, start - 80), start);
    const fwd = COORDINATED.exec(after) ?? (code ? CODE_AFTER.exec(after) : null);
    if (fwd && free(end + fwd.index + fwd[0].length - fwd[1].length, fwd[1].length)) {
      out.push(name);
      continue;
    }
    const back = COORDINATED_BEFORE.exec(before) ?? (code ? CODE_BEFORE.exec(before) : null);
    if (back) {
      const at = start - before.length + back.index + back[0].indexOf(back[1]);
      if (!taken.some(([a, b]) => a < at + back[1].length && at < b)) out.push(name);
    }
  }
  return out;
}

/**
 * Could a parameter take a value of this span kind? Numbers go to numeric parameters (or lists of
 * numbers) and ids; dates to date and date-time parameters; quoted text to any free string; URLs,
 * e-mail addresses and paths to parameters of that kind or free strings; lists to arrays.
 */
function takesKind(p: ParamInfo, kind: string): boolean {
  const freeString = p.type === 'string' && !p.enumValues;
  switch (kind) {
    case 'number':
      return (
        p.type === 'integer' ||
        p.type === 'number' ||
        (p.type === 'array' && (p.itemType === 'integer' || p.itemType === 'number')) ||
        (freeString && p.semantic === 'id')
      );
    case 'date':
      return p.semantic === 'date' || p.semantic === 'datetime';
    case 'quoted':
      return freeString || (p.type === 'array' && p.itemType === 'string');
    case 'url':
    case 'email':
    case 'path':
      return (
        (freeString &&
          (p.semantic === kind ||
            p.semantic === 'generic' ||
            p.semantic === 'text' ||
            p.semantic === 'id' ||
            (kind === 'email' && p.semantic === 'name'))) ||
        (p.type === 'array' && p.itemType === 'string')
      );
    case 'list':
      return p.type === 'array';
    default:
      return true;
  }
}

/** Most unused request values a mapping lists (DetailedMapping.unusedValues). */
const MAX_UNUSED_SHOWN = 5;
