import { posix } from 'node:path';
import { foldSpelling, globMatch } from './glob';

/**
 * How an argument rule compares values with its globs. `folded`: pattern and value both through
 * foldSpelling (case, full-width forms, combining marks and invisible characters ignored).
 * `exact`: code unit for code unit, case-sensitive.
 */
export type ArgumentMatch = 'folded' | 'exact';

/** The values `match` may take in a config (validated against this list). */
export const ARGUMENT_MATCHES: readonly ArgumentMatch[] = ['folded', 'exact'];

/**
 * A rule's comparison when it names none: `folded` for deny and `exact` for allow, the choice that
 * refuses more in each case (a folded deny catches more spellings; an exact allow admits fewer).
 */
export function defaultArgumentMatch(effect: 'allow' | 'deny'): ArgumentMatch {
  return effect === 'deny' ? 'folded' : 'exact';
}

/** The leaf values of an argument: arrays are looked through, at any depth. */
function leaves(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) for (const e of v) leaves(e, out);
  else out.push(v);
  return out;
}

// A slash or a backslash: the string may be a path.
const PATHLIKE = /[/\\]/;

/**
 * The forms of a string a glob is checked against: the string (folded when `match` is folded,
 * before the path step, so a full-width solidus is a slash), and, when it holds a slash or a
 * backslash, its POSIX-normalised path ("//etc/./x/../passwd" and "/etc/passwd" are one path).
 */
function stringForms(raw: string, match: ArgumentMatch): string[] {
  const s = match === 'folded' ? foldSpelling(raw) : raw;
  if (!PATHLIKE.test(s)) return [s];
  const normalised = posix.normalize(s.replace(/\\/g, '/'));
  // "/srv/secret/" names the same folder as "/srv/secret", so the form has no trailing slash.
  const n = normalised.length > 1 ? normalised.replace(/\/+$/, '') : normalised;
  return n === s ? [s] : [s, n];
}

/** A leaf that is not a string, as the text a glob sees: numbers and booleans as JSON. */
function scalarText(leaf: unknown): string {
  return JSON.stringify(leaf) ?? '';
}

/** The pattern as compared: folded patterns are folded once and kept (rules change rarely). */
const foldedPatterns = new Map<string, string>();
function patternFor(glob: string, match: ArgumentMatch): string {
  if (match === 'exact') return glob;
  let p = foldedPatterns.get(glob);
  if (p === undefined) {
    p = foldSpelling(glob);
    if (foldedPatterns.size >= 10_000) foldedPatterns.clear();
    foldedPatterns.set(glob, p);
  }
  return p;
}

/**
 * A deny constraint holds when any leaf matches in any form, when the leaves of an array joined
 * with nothing between them match (["pass", "word"] reads "password" to a tool that concatenates),
 * or when a leaf is an object (fails closed).
 */
export function denyMatches(glob: string, v: unknown, match: ArgumentMatch): boolean {
  const pattern = patternFor(glob, match);
  const ls = leaves(v);
  for (const leaf of ls) {
    if (leaf !== null && typeof leaf === 'object') return true;
    const text = typeof leaf === 'string' ? leaf : scalarText(leaf);
    if (stringForms(text, match).some((f) => globMatch(pattern, f))) return true;
  }
  if (ls.length > 1) {
    const joined = ls.map((l) => (typeof l === 'string' ? l : scalarText(l))).join('');
    if (stringForms(joined, match).some((f) => globMatch(pattern, f))) return true;
    // JavaScript's join writes null as nothing: ["pass", null, "word"] reads "password" to such a tool.
    const joinedAsJs = ls.map((l) => (typeof l === 'string' ? l : l === null ? '' : scalarText(l))).join('');
    if (joinedAsJs !== joined && stringForms(joinedAsJs, match).some((f) => globMatch(pattern, f))) return true;
  }
  return false;
}

/** An allow constraint holds only when there is a leaf and every leaf matches in every form; objects never do. */
export function allowMatches(glob: string, v: unknown, match: ArgumentMatch): boolean {
  const pattern = patternFor(glob, match);
  const ls = leaves(v);
  return (
    ls.length > 0 &&
    ls.every((leaf) => {
      if (leaf !== null && typeof leaf === 'object') return false;
      const text = typeof leaf === 'string' ? leaf : scalarText(leaf);
      return stringForms(text, match).every((f) => globMatch(pattern, f));
    })
  );
}

/** What argumentsMatch needs of a rule. */
export interface ArgumentConstraints {
  effect: 'allow' | 'deny';
  arguments?: Record<string, string>;
  match?: ArgumentMatch;
}

/**
 * Whether a rule's argument constraints take in `args` (true when it has none). Keys are compared
 * without case; deny holds when any value of any such key matches, allow only when every one does.
 */
export function argumentsMatch(rule: ArgumentConstraints, args: Record<string, unknown>): boolean {
  if (!rule.arguments) return true;
  const match = rule.match ?? defaultArgumentMatch(rule.effect);
  for (const [name, glob] of Object.entries(rule.arguments)) {
    // Keys that differ only by case count as the same argument: some servers read them so.
    const lower = name.toLowerCase();
    const keys = Object.keys(args).filter((k) => k.toLowerCase() === lower);
    if (keys.length === 0) return false;
    const ok =
      rule.effect === 'deny' ? keys.some((k) => denyMatches(glob, args[k], match)) : keys.every((k) => allowMatches(glob, args[k], match));
    if (!ok) return false;
  }
  return true;
}
