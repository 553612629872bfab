/**
 * The model mapper's confidence, computed by us from what can be checked, never from the model's
 * self-report alone:
 *
 *   confidence = min(selfReport, G × A)
 *   G = the lowest backing score of any leaf value of the arguments (1 when there is none); an
 *       empty list or object inside the arguments is a leaf (an empty filter can mean "all")
 *       stated 1: the value is written in the request or context (strings as a folded substring,
 *                 a whole word when under 3 characters; numbers among the numbers written there)
 *       rules  1: the rule engine maps the same value onto the same argument of the same tool
 *       choice 0.75: an enum member or a boolean the text does not state (a choice the schema offers)
 *       invented 0: anything else (a value the model made up)
 *   A = 1 when the rule engine ranks the chosen tool first, else 0.9
 *
 * The constants are priors, not fits: no model runs here, so no answers exist to fit them on.
 * They are set so that one unstated choice alone still clears 0.7 (0.75), and one unstated
 * choice on a tool the rule engine ranks lower does not (0.675); one invented value never does.
 */
import { foldSpelling } from '@toolsurface/core';
import { isObj } from '@toolsurface/analysis';
import { jsonKey } from '../same-json.js';

/** How one leaf value of the model's arguments is backed. */
export type Backing = 'stated' | 'rules' | 'choice' | 'invented';

/** Score of each backing in G. */
export const BACKING_SCORE: Readonly<Record<Backing, number>> = { stated: 1, rules: 1, choice: 0.75, invented: 0 };

/** A when the rule engine ranks another tool first. */
export const RULES_DISAGREE = 0.9;

/** What the request and context state: their folded text and the numbers written in them. */
export interface Evidence {
  text: string;
  numbers: Set<number>;
}

/** One leaf of the arguments, where it is (a JSON pointer) and how it is backed. */
export interface LeafCheck {
  pointer: string;
  backing: Backing;
}

/** The computed confidence and its parts. */
export interface Grounding {
  confidence: number;
  leaves: LeafCheck[];
  /** G of the formula */
  backing: number;
  /** A of the formula */
  agreement: number;
}

// A number as written: an optional sign, digits with thousands commas, an optional fraction ("-1,250.5").
const WRITTEN_NUMBER = /-?\d[\d,]*(?:\.\d+)?/g;

/** Folds case, accents and spacing, so "Zürich" in the request backs "zurich". */
function fold(s: string): string {
  return foldSpelling(s).replace(/\s+/g, ' ').trim();
}

/** The evidence of a request and its context (an object's string and number values, at any depth, count as written). */
export function evidenceOf(request: string, context: unknown): Evidence {
  const parts: string[] = [request];
  const numbers = new Set<number>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' && Number.isFinite(v)) numbers.add(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isObj(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(context, 0);
  const text = parts.join('\n');
  for (const m of text.matchAll(WRITTEN_NUMBER)) {
    const n = Number(m[0].replace(/,/g, ''));
    if (Number.isFinite(n)) numbers.add(n);
  }
  return { text: fold(text), numbers };
}

/** The subschema of a property or of array items (undefined when the schema does not say). */
function childSchema(schema: unknown, key: string | number): unknown {
  if (!isObj(schema)) return undefined;
  if (typeof key === 'number') return Array.isArray(schema['items']) ? schema['items'][key] : schema['items'];
  return isObj(schema['properties']) ? schema['properties'][key] : undefined;
}

/** The value at `path` in `obj`, or undefined. */
function at(obj: unknown, path: readonly (string | number)[]): unknown {
  let v = obj;
  for (const k of path) {
    if (Array.isArray(v) && typeof k === 'number') v = v[k];
    else if (isObj(v) && typeof k === 'string' && Object.hasOwn(v, k)) v = v[k];
    else return undefined;
  }
  return v;
}

/** Whether folded `text` states folded `value`: as a substring, or a whole word when shorter than 3 characters ("a" is in every text). */
function statedIn(text: string, value: string): boolean {
  if (value === '') return false;
  if (value.length >= 3) return text.includes(value);
  // not preceded or followed by a letter or digit
  return new RegExp(`(?<![\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/** How one leaf is backed. */
function backingOf(value: unknown, schema: unknown, path: readonly (string | number)[], ev: Evidence, rulesArgs: unknown): Backing {
  if (typeof value === 'string' && statedIn(ev.text, fold(value))) return 'stated';
  if (typeof value === 'number' && ev.numbers.has(value)) return 'stated';
  const theirs = at(rulesArgs, path);
  if (theirs !== undefined && jsonKey(theirs) === jsonKey(value)) return 'rules';
  if (typeof value === 'boolean') return 'choice';
  if (isObj(schema) && Array.isArray(schema['enum']) && schema['enum'].some((e) => jsonKey(e) === jsonKey(value))) return 'choice';
  return 'invented';
}

/** Checks every leaf of the arguments (nulls are left out: they say "not given"). */
export function checkLeaves(args: Record<string, unknown>, inputSchema: unknown, ev: Evidence, rulesArgs: unknown): LeafCheck[] {
  const out: LeafCheck[] = [];
  const walk = (v: unknown, schema: unknown, path: (string | number)[], depth: number): void => {
    if (v === null || v === undefined) return;
    const pointer = path.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    if (depth > 16) {
      out.push({ pointer, backing: 'invented' });
      return;
    }
    const empty = Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0;
    // (the arguments object itself is no value: a tool without parameters takes {})
    if (empty && depth > 0) out.push({ pointer, backing: backingOf(v, schema, path, ev, rulesArgs) });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, childSchema(schema, i), [...path, i], depth + 1));
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, childSchema(schema, k), [...path, k], depth + 1);
    else out.push({ pointer, backing: backingOf(v, schema, path, ev, rulesArgs) });
  };
  walk(args, inputSchema, [], 0);
  return out;
}

/** The confidence of the formula above. */
export function groundedConfidence(leaves: readonly LeafCheck[], rulesRank: number, selfReport: number): Grounding {
  const backing = leaves.reduce((g, l) => Math.min(g, BACKING_SCORE[l.backing]), 1);
  const agreement = rulesRank === 0 ? 1 : RULES_DISAGREE;
  const self = Number.isFinite(selfReport) ? Math.min(1, Math.max(0, selfReport)) : 0;
  return { confidence: Math.min(self, backing * agreement), leaves: [...leaves], backing, agreement };
}
