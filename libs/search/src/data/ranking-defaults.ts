// Hand-set and dev-fitted constants of ToolIndex's ranking, as data: each names its source (a
// decision record, a measurement, or "hand-set"). Values are read by tool-index-options.ts,
// query-terms.ts and clause-guarantee.ts.
import type { ToolField, ToolIndexOptions } from '../tool-index-options.js';

/**
 * Default weight of the words a request that asks for places on a map stands for (PLACE_WORDS;
 * docs/decisions/search-place-words.md). At 1, and read by the head reranker too, a geocoding
 * tool takes the first place on catalogs with a map server for most requests that fire, ahead of
 * the right route or nearby tool; at 0.7, in the first stage alone, the clearly right tool keeps
 * its place (MRR@10 0.744 against 0.747 without the words and 0.621 at 1, on 60 requests of a
 * 49-tool catalog: npx tsx tools/mapper/place-words-probe.ts) and LiveMCPBench's map tasks still
 * gain on both halves of the dev requests.
 */
export const PLACE_WORD_WEIGHT = 0.7;

/** Defaults of ToolIndexOptions. Source: fitted on the eval dev split (libs/search/README.md "Ranking"; each option's own doc names its decision record where one exists). */
export const DEFAULTS = {
  k1: 1.0,
  fieldWeights: { name: 1.1, title: 1.1, description: 1, params: 0.9, paramDescriptions: 0.45 } as Record<ToolField, number>,
  fieldB: { name: 0.1, title: 0.1, description: 0.7, params: 1, paramDescriptions: 0.45 } as Record<ToolField, number>,
  synonymWeight: 0.5,
  relatedWeight: 0.7,
  knownWordExpansionFactor: 0.3,
  translationWeight: 0.8,
  cjkUnigramWeight: 0.05,
  nameCoverageWeight: 0.3,
  diversity: 0.3,
  diversityThreshold: 0.4,
  maxQueryTerms: 64,
  namespaceWeight: 0.25,
  valueTypeWeight: 0.7,
  impliedWordWeight: 1,
  placeWordWeight: PLACE_WORD_WEIGHT,
  sameNameDemotion: 0.4,
  semanticWeight: 1,
  semanticDepth: 20,
  headDepth: 15,
  clauseSlots: 5,
  deprecatedDemotion: 0.5,
};

/** Source: hand-set (docs/decisions/search-clause-guarantee.md). Fewest distinct indexed terms (stems, whole identifiers left out) a clause needs to count as a step of the request. */
export const CLAUSE_MIN_TERMS = 3;
/**
 * A clause's own first this many tools stand for it: it counts as served when one of them is among
 * the request's first clauseSlots hits, and otherwise the first of them that the request's ranking
 * holds within CLAUSE_INSERT_MAX_RANK is moved up. 2: a clause's third tool is too weak a match to
 * stand for it; with 3, "calculate the area of a circle with radius 5" counted as served by
 * circle.area, its third, while its first (area_circle.calculate, the tool asked for) stayed
 * seventh (docs/decisions/search-clause-guarantee.md).
 */
export const CLAUSE_COVER_DEPTH = 2;
/** A clause's best tool is moved up only from within the request's own first this many hits: one found only by the clause alone is too often wrong. */
export const CLAUSE_INSERT_MAX_RANK = 20;
/** Most clauses of one request searched on their own (the first ones; bounds the work a long request costs). */
export const MAX_CLAUSES = 8;

/**
 * Options for a ranking that feeds a learned reranker rather than an agent: unified_tool's
 * selection (libs/mapper) re-ranks the first 30 hits on its own features, and there a semantic
 * stage of weight 0.6 over the first 10 places selects better than the defaults: top-1 selection
 * 0.744 out of fold against 0.734 (`npx tsx tools/mapper/fit-confidence.ts`). The mapper's
 * calibration is fitted on rankings made with these options.
 */
export const SELECTION_RETRIEVAL_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  semanticWeight: 0.6,
  semanticDepth: 10,
  clauseSlots: 0,
});
