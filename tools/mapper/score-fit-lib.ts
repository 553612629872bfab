/**
 * The rules of tools/mapper/ablate-scores.ts as pure functions: how an ablation row is read, which
 * values a score is tried at, the protocol "tune on one half, keep what the other confirms", and
 * the rewrite of a score's entry in its data file (`hand(…)` → `fitted(…)`).
 */
import ts from 'typescript';
import { halfOf, type Effect, type Half, type HalfCounts } from './halves-lib.js';

/** How an ablation row reads. */
export type Reading = 'no effect' | 'gains on both halves' | 'one half only' | 'loses on a half';

/**
 * A half gains when the score makes requests right there, or argument values right on requests
 * that fail on another argument (values > 0 with a gain of 0). Any negative figure wins over
 * gains elsewhere: a score that loses somewhere is a fitting candidate whatever else it does.
 */
export function readingOf(e: Effect): Reading {
  if (e.gainA < 0 || e.gainB < 0 || e.valuesA < 0 || e.valuesB < 0) return 'loses on a half';
  const onA = e.gainA > 0 || e.valuesA > 0;
  const onB = e.gainB > 0 || e.valuesB > 0;
  if (onA && onB) return 'gains on both halves';
  return onA || onB ? 'one half only' : 'no effect';
}

/** The halves of the dev requests a rule was written from (Score.from): one half, both, or none known. */
export function sourceHalves(from: readonly string[] | undefined): Half | 'both' | undefined {
  const halves = new Set((from ?? []).map(halfOf));
  return halves.size === 2 ? 'both' : [...halves][0];
}

/**
 * What a rule written from one half's requests does on the other half, the one it was not written
 * from (issue 41 keeps a rule only where it gains there): 'gains' (requests or values), 'loses'
 * (either negative), 'nothing'; undefined where its sources are unknown or in both halves.
 */
export function onUnseenHalf(e: Effect, written: Half | 'both' | undefined): 'gains' | 'loses' | 'nothing' | undefined {
  if (written !== 'A' && written !== 'B') return undefined;
  const [gain, values] = written === 'A' ? [e.gainB, e.valuesB] : [e.gainA, e.valuesA];
  if (gain < 0 || values < 0) return 'loses';
  return gain > 0 || values > 0 ? 'gains' : 'nothing';
}

/** The factors of a score's current value that the fit tries. */
const TRIAL_FACTORS = [0, 0.5, 0.75, 1.25, 1.5, 2] as const;

/** The values a score is tried at: its value times each factor, to 3 decimals, without repeats or the value itself. */
export function trialValues(v: number): number[] {
  const out: number[] = [];
  for (const f of TRIAL_FACTORS) {
    const t = Math.round(v * f * 1000) / 1000 + 0; // (+ 0 turns -0 into 0)
    if (t !== v && !out.includes(t)) out.push(t);
  }
  return out;
}

/** A score at one value: the requests right and the checker's problems on each half. */
export interface Trial {
  value: number;
  right: HalfCounts;
  problems: HalfCounts;
}

/** Whether `a` does better than `b` on a half: more requests right, or as many and fewer problems. */
function betterOn(a: Trial, b: Trial, h: Half): boolean {
  return a.right[h] > b.right[h] || (a.right[h] === b.right[h] && a.problems[h] < b.problems[h]);
}

/**
 * The best value on one half among the current one and the trials. Only a strictly better trial
 * replaces the current value (ties keep it); among tied trials the one nearest the current value wins.
 */
function bestOn(current: Trial, trials: readonly Trial[], h: Half): Trial {
  const byNearness = [...trials].sort((a, b) => Math.abs(a.value - current.value) - Math.abs(b.value - current.value));
  let best = current;
  for (const t of byNearness) if (betterOn(t, best, h)) best = t;
  return best;
}

/** Whether the other half confirms a change: no fewer requests right, and more right or fewer problems. */
export function confirms(before: Trial, after: Trial, h: Half): boolean {
  return after.right[h] >= before.right[h] && (after.right[h] > before.right[h] || after.problems[h] < before.problems[h]);
}

/** A change chosen on one half and confirmed on the other. */
export interface Change {
  from: Trial;
  to: Trial;
  chosenOn: Half;
  confirmedOn: Half;
}

/** The fit's decision for one score: what each half chose, and the change kept (if any). */
export interface Decision {
  chosen: Record<Half, Trial>;
  confirmed: Record<Half, boolean>;
  kept?: Change;
}

const other = (h: Half): Half => (h === 'A' ? 'B' : 'A');

/**
 * Tunes on A and checks on B, then tunes on B and checks on A. A change confirmed in either
 * direction is kept; if both are, the one with the larger total gain in requests right (then in
 * problems fewer, then the one chosen on A).
 */
export function decide(current: Trial, trials: readonly Trial[]): Decision {
  const chosen = { A: bestOn(current, trials, 'A'), B: bestOn(current, trials, 'B') };
  const confirmed = {
    A: chosen.A !== current && confirms(current, chosen.A, 'B'),
    B: chosen.B !== current && confirms(current, chosen.B, 'A'),
  };
  const total = (t: Trial): [number, number] => [t.right.A + t.right.B, -(t.problems.A + t.problems.B)];
  const halves = (['A', 'B'] as const).filter((h) => confirmed[h]);
  const pick = halves.reduce<Half | undefined>((best, h) => {
    if (best === undefined) return h;
    const [r, p] = total(chosen[h]);
    const [br, bp] = total(chosen[best]);
    return r > br || (r === br && p > bp) ? h : best;
  }, undefined);
  return { chosen, confirmed, kept: pick && { from: current, to: chosen[pick], chosenOn: pick, confirmedOn: other(pick) } };
}

/** The `source` a kept change writes into its data file: the script, where it was chosen and where confirmed. */
export function fittedSource(c: Change, size: HalfCounts): string {
  const on = (h: Half): string => `${h} (${c.from.right[h]}→${c.to.right[h]} of ${size[h]})`;
  return `tools/mapper/ablate-scores.ts --fit; chosen on ${on(c.chosenOn)}, confirmed on ${on(c.confirmedOn)}`;
}

/** A TypeScript single-quoted string literal of `s`. */
function quoted(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Rewrites one entry of a score table in a data file's text: `key: hand(v, why, from?)` (or an
 * earlier `fitted(v, why, source, from?)`) in the `scoreGroup('<group>', { … })` call becomes
 * `key: fitted(value, why, 'source', from?)`, and `fitted` joins the import that brings `hand`.
 * Throws when the group or the key is not found there as such an entry.
 */
export function rewriteScore(text: string, group: string, key: string, value: number, source: string): string {
  const file = ts.createSourceFile('scores.ts', text, ts.ScriptTarget.Latest, true);
  let entry: ts.CallExpression | undefined;
  let importNames: ts.NamedImports | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause?.namedBindings && ts.isNamedImports(node.importClause.namedBindings)) {
      const names = node.importClause.namedBindings;
      if (names.elements.some((e) => e.name.text === 'hand' || e.name.text === 'scoreGroup')) importNames = names;
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'scoreGroup' &&
      node.arguments.length === 2 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      node.arguments[0].text === group &&
      ts.isObjectLiteralExpression(node.arguments[1])
    ) {
      for (const p of node.arguments[1].properties) {
        if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) || p.name.text !== key) continue;
        const init = p.initializer;
        if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && ['hand', 'fitted'].includes(init.expression.text))
          entry = init;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!entry || entry.arguments.length < 2) throw new Error(`no entry "${key}: hand(…)" in scoreGroup('${group}', …)`);
  const why = entry.arguments[1].getText(file);
  // (the requests the rule was written from stay: hand's third argument, fitted's fourth)
  const from = entry.arguments[(entry.expression as ts.Identifier).text === 'hand' ? 2 : 3]?.getText(file);
  const args = [String(value), why, quoted(source), ...(from === undefined ? [] : [from])].join(', ');
  let out = `${text.slice(0, entry.getStart(file))}fitted(${args})${text.slice(entry.getEnd())}`;
  if (importNames) {
    // (the import comes before the entry, so its place in `out` is unchanged)
    const names = new Set(importNames.elements.map((e) => e.getText(file)));
    names.add('fitted');
    if (!/\bhand\(/.test(out)) names.delete('hand');
    const list = [...names].sort((a, b) => a.localeCompare(b)).join(', ');
    out = `${out.slice(0, importNames.getStart(file))}{ ${list} }${out.slice(importNames.getEnd())}`;
  }
  return out;
}
