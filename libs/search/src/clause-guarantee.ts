// The clause guarantee of a ToolIndex search (ToolIndexOptions.clauseSlots): each step of a
// request of several steps gets a tool among the first hits.
import { analyze, MAX_ANALYZED_CHARS, WHOLE_PREFIX } from './tokenize.js';
import { splitClauses } from './clauses.js';
import type { SearchHit } from './types.js';
import { CLAUSE_COVER_DEPTH, CLAUSE_INSERT_MAX_RANK, CLAUSE_MIN_TERMS, MAX_CLAUSES } from './data/ranking-defaults.js';

/** What the clause guarantee reads of an index. */
export interface ClauseSearch {
  /** ToolIndexOptions.clauseSlots as the index reads it */
  readonly clauseSlots: number;
  /** the index's terms: a clause counts only the terms some tool holds */
  readonly termIds: ReadonlyMap<string, number>;
  /** the index's own ranking of a text, with or without its head reranker */
  searchUnsafe(query: string, limit: number, headStage?: boolean): SearchHit[];
}

/**
 * The clause guarantee (ToolIndexOptions.clauseSlots): the request's ranking, with the best tool (or second)
 * of each clause that none of the first clauseSlots hits serves moved into the last of those
 * places, in clause order; the first place always stays, and the rest keep their order.
 * Scores stay those of the places, so they never rise down the list.
 */
export function searchByClause(index: ClauseSearch, query: string, limit: number): SearchHit[] {
  const max = typeof limit === 'number' && Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  if (max === 0 || typeof query !== 'string') return [];
  const clauses = splitClauses(query.slice(0, MAX_ANALYZED_CHARS))
    .filter(
      (c) =>
        new Set(analyze(c, { joined: false }).filter((t) => !t.startsWith(WHOLE_PREFIX) && index.termIds.has(t))).size >= CLAUSE_MIN_TERMS,
    )
    .slice(0, MAX_CLAUSES);
  // a one-step request is the plain search
  if (clauses.length < 2) return index.searchUnsafe(query, max);
  // the decisions are made on the ranking at a fixed depth, so that they do not depend on the limit
  const depth = Math.max(index.clauseSlots, CLAUSE_INSERT_MAX_RANK);
  const fixed = index.searchUnsafe(query, depth);
  const main = max > depth ? index.searchUnsafe(query, max) : fixed;
  if (main.length < 2) return main.slice(0, max);
  const slots = Math.min(index.clauseSlots, fixed.length);
  const served = new Set(fixed.slice(0, slots).map((h) => h.name));
  // a repeated name keeps its first (best) place
  const rank = new Map<string, number>();
  fixed.forEach((h, i) => {
    if (!rank.has(h.name)) rank.set(h.name, i);
  });
  const moved: string[] = [];
  for (const clause of clauses) {
    // the clause's own ranking, without the head reranker (fitted on whole requests)
    const own = index.searchUnsafe(clause, CLAUSE_COVER_DEPTH, false);
    if (own.length === 0 || own.some((h) => served.has(h.name))) continue;
    // its best tool, or its second when the request's own ranking does not reach the best
    const pick = own.find((h) => (rank.get(h.name) ?? CLAUSE_INSERT_MAX_RANK) < CLAUSE_INSERT_MAX_RANK);
    if (pick === undefined) continue;
    served.add(pick.name);
    moved.push(pick.name);
  }
  // move one hit per moved name (its best-placed copy in the returned ranking, which a limit
  // past the fixed depth draws from a deeper ranking); other copies of a repeated name stay put
  const picks: number[] = [];
  for (const name of moved) {
    const i = main.findIndex((h) => h.name === name);
    if (i >= slots) picks.push(i);
  }
  if (picks.length === 0) return main.slice(0, max);
  const keep = Math.max(1, slots - picks.length);
  const pick = new Set(picks.slice(0, slots - keep));
  const rest = main.filter((_, i) => !pick.has(i));
  const order = [...rest.slice(0, keep), ...[...pick].map((i) => main[i]), ...rest.slice(keep)];
  return order.slice(0, max).map((h, i) => ({ name: h.name, score: main[i].score }));
}
