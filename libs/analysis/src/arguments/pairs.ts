/**
 * Values written as name=value or "name: value", read before any other evidence.
 */
import { type Doc, parseListLiteral } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { squash } from '../text.js';
import { coerceItems } from './arrays.js';
import { coerce } from './map.js';

/** Per request: its explicit pairs (explicitPairs). */
const PAIRS = new WeakMap<Doc, Map<string, ExplicitPair>>();

/** Explicit "name=value" / "name: value" pairs written in the text, by squashed name. */
export function explicitPairs(doc: Doc): Map<string, ExplicitPair> {
  const cached = PAIRS.get(doc);
  if (cached) return cached;
  const out = new Map<string, ExplicitPair>();
  PAIRS.set(doc, out);
  // identifier (from a word start, at most 64 characters: an unbounded one made this quadratic on
  // long words), "=" or ":", then a quoted string, a bracketed list, or a bare token run
  const re = /(?<![\w.])([A-Za-z_][\w.]{0,63})\s*(?:=|:)\s*("[^"]*"|'[^']*'|\[[^\]]*\]|-?[\w.@/+-]+)/g;
  const found: { key: string; keyStart: number; raw: string; start: number; end: number }[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null)
    found.push({ key: squash(m[1]), keyStart: m.index, raw: m[2], start: m.index + m[0].length - m[2].length, end: m.index + m[0].length });
  found.forEach((f, i) => {
    if (out.has(f.key)) return;
    // a bare value runs on to the end of its phrase: up to the next pair's name, a comma, a
    // semicolon, a line break or a sentence end ("city: San Francisco, state: CA")
    let phraseEnd = f.end;
    let textEnd = f.end;
    if (!/^["'[]/.test(f.raw)) {
      const stop = i + 1 < found.length ? found[i + 1].keyStart : doc.text.length;
      const tail = doc.text.slice(f.end, stop);
      const cut = /[,;\n]|[.!?](?:\s|$)/.exec(tail);
      phraseEnd = f.end + (cut ? cut.index : tail.length);
      while (phraseEnd > f.end && /\s/.test(doc.text[phraseEnd - 1])) phraseEnd--;
      // free text keeps its commas ("body: Hi Bob, see you at noon")
      const textCut = /[;\n]|[.!?](?:\s|$)/.exec(tail);
      textEnd = f.end + (textCut ? textCut.index : tail.length);
      while (textEnd > f.end && /[\s,]/.test(doc.text[textEnd - 1])) textEnd--;
    }
    out.set(f.key, { raw: f.raw, start: f.start, end: f.end, phraseEnd, textEnd });
  });
  return out;
}

/** Parameters whose values are one token (a date, an e-mail address, an id…): a pair gives them its first token run only. */
export const ONE_TOKEN_SEMANTICS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'datetime',
  'email',
  'url',
  'path',
  'currency',
  'id',
  'unit',
]);

/** A value written as name=value or name: value: its first token run (start..end), and where the phrase it opens ends (end itself for a quoted value or a list). */
interface ExplicitPair {
  raw: string;
  start: number;
  end: number;
  phraseEnd: number;
  /** where a free text's phrase ends: like phraseEnd, but a comma does not end it */ textEnd: number;
}

/** Where a pair's phrase ends for a name, place or title: before a date or time span, or a joining "and"/"or"/"&" ("city: Paris and London"). */
export function namedPhraseEnd(doc: Doc, pair: ExplicitPair, cutJoins: boolean): number {
  let end = pair.phraseEnd;
  for (const sp of doc.spans) if ((sp.kind === 'date' || sp.kind === 'time') && sp.start >= pair.end && sp.start < end) end = sp.start;
  // (a title or a name keeps its "and": "title: Tom and Jerry", "subject: Lunch and Dinner")
  const join = cutJoins ? /\s+(?:and|or|&|plus)\s+/i.exec(doc.text.slice(pair.end, end)) : null;
  if (join) end = pair.end + join.index;
  while (end > pair.end && /[\s,]/.test(doc.text[end - 1])) end--;
  // a dangling preposition or article before the cut ("Paris on" of "city: Paris on June 5")
  const tail = /\s+(?:on|at|in|for|by|from|to|the|a|an)$/i.exec(doc.text.slice(pair.end, end));
  if (tail) end = pair.end + tail.index;
  return end;
}

/** Converts an explicit pair's raw text onto a parameter. */
export function pairValue(raw: string, p: ParamInfo): unknown {
  let v: unknown = raw;
  // quoted value: strip the quotes
  if (/^(['"]).*\1$/.test(raw)) v = raw.slice(1, -1);
  else if (raw.startsWith('[')) v = parseListLiteral(raw);
  // a bare (signed, decimal) number
  else if (/^-?\d+(\.\d+)?$/.test(raw)) v = Number(raw);
  // a literal true/false
  else if (/^(true|false)$/i.test(raw)) v = raw.toLowerCase() === 'true';
  if (p.type === 'string' && typeof v !== 'string') v = raw;
  if (p.type === 'array' && Array.isArray(v)) return coerceItems(v, p);
  return coerce(v, p);
}

/** A description's stated default converted onto the parameter (numbers, booleans, enum members, plain strings); undefined when it does not fit. */
export function describedValue(raw: string, p: ParamInfo): unknown {
  // a date or time default written as a word ("Defaults to today") is no value in the asked format
  if ((p.semantic === 'date' || p.semantic === 'time' || p.semantic === 'datetime') && !/\d/.test(raw)) return undefined;
  let v: unknown = raw;
  if (p.type === 'integer' || p.type === 'number') v = Number(raw);
  else if (p.type === 'boolean') v = /^true$/i.test(raw) ? true : /^false$/i.test(raw) ? false : undefined;
  else if (p.type !== 'string') return undefined;
  const c = coerce(v, p);
  if (c === undefined || (typeof c === 'number' && !Number.isFinite(c))) return undefined;
  if (p.enumValues) return p.enumValues.find((e) => (typeof e === 'string' && typeof c === 'string' ? squash(e) === squash(c) : e === c));
  return c;
}
