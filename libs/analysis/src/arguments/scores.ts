/**
 * The scores value-kind modules give a candidate value, as data: each one named
 * (`group.key`), with what it rewards and where its value came from. The tables are in
 * `data/scores/*.ts`; modules read `.v` on the hot path. The ablation and fitting scripts
 * (tools/mapper/ablate-scores.ts) move values with setScores and put them back with resetScores,
 * so that a rule's worth is measured by turning its score off (0), one at a time.
 */

/** One score: a base value, a bonus (positive) or a penalty (negative) a rule adds to a candidate. */
export interface Score {
  /** the value; mutable only through setScores/resetScores */
  v: number;
  /** what the rule rewards or penalises */
  readonly why: string;
  /** where the value came from: 'hand-set' (chosen by hand when the rule was written), or the fit that set it */
  readonly source: string;
  /**
   * The dev requests the rule was written from, by eval id ('bfcl:simple_python_348', as in
   * queries.dev.jsonl or queries.irrelevance.dev.jsonl), where that is known; absent where it is
   * not. Found from the request a module comment, a test, a fixture or a decision record quotes
   * for the rule. A rule's entries (its bonus and its penalty) share them. The ablation compares a
   * rule's gain on the half of the dev split its requests are not in (tools/mapper/score-sources.ts).
   */
  readonly from?: readonly string[];
}

/** A score chosen by hand when its rule was written: not yet fitted. `from`: the dev requests the rule was written from, where known. */
export function hand(v: number, why: string, from?: readonly string[]): Score {
  return from === undefined ? { v, why, source: 'hand-set' } : { v, why, source: 'hand-set', from };
}

/** A score set by a fitting script; `source` names the script and the data it was fitted and checked on. */
export function fitted(v: number, why: string, source: string, from?: readonly string[]): Score {
  const s: Score = { v, why, source: `fitted: ${source}` };
  return from === undefined ? s : { ...s, from };
}

const GROUPS = new Map<string, Readonly<Record<string, Score>>>();
const DEFAULTS = new Map<string, number>();

/** Registers a module's score table under `group` (names are `group.key`) and returns it. */
export function scoreGroup<T extends Record<string, Score>>(group: string, table: T): T {
  if (GROUPS.has(group)) throw new Error(`score group "${group}" is defined twice`);
  if (!/^[a-z][A-Za-z]*$/.test(group)) throw new Error(`score group "${group}" is no lowerCamel word`);
  GROUPS.set(group, table);
  for (const [key, s] of Object.entries(table)) DEFAULTS.set(`${group}.${key}`, s.v);
  return table;
}

/** Every registered score, by name (`group.key`), in registration order. */
export function allScores(): Map<string, Score> {
  const out = new Map<string, Score>();
  for (const [group, table] of GROUPS) for (const [key, s] of Object.entries(table)) out.set(`${group}.${key}`, s);
  return out;
}

function lookup(name: string): Score {
  const dot = name.indexOf('.');
  const s = dot > 0 ? GROUPS.get(name.slice(0, dot))?.[name.slice(dot + 1)] : undefined;
  if (s === undefined) throw new Error(`no score named "${name}"`);
  return s;
}

/** Sets scores by name (an unknown name throws): the ablation and fitting scripts' only way in. */
export function setScores(values: Readonly<Record<string, number>>): void {
  for (const [name, v] of Object.entries(values)) {
    if (!Number.isFinite(v)) throw new Error(`score "${name}" must be a finite number, got ${v}`);
    lookup(name).v = v;
  }
}

/** Puts every score back to the value its table gives. */
export function resetScores(): void {
  for (const [name, v] of DEFAULTS) lookup(name).v = v;
}
