// ToolIndex's options: what a caller may tune, and how each is read (clamped to a safe range,
// NaN or an infinity the default). The default values are data: data/ranking-defaults.ts.
import type { StaticEncoder } from './semantic.js';
import type { SearchHit } from './types.js';
import { DEFAULTS } from './data/ranking-defaults.js';

/** The fields ToolIndex weighs separately. */
export type ToolField = 'name' | 'title' | 'description' | 'params' | 'paramDescriptions';

export const FIELDS: readonly ToolField[] = ['name', 'title', 'description', 'params', 'paramDescriptions'];

/** Tuning knobs of ToolIndex; all optional. Defaults (DEFAULTS, data/ranking-defaults.ts) were fitted on the eval dev split (libs/search/README.md "Ranking"). */
export interface ToolIndexOptions {
  /** BM25 term-frequency saturation k1, in [0, MAX_OPTION_WEIGHT] like every weight below (default 1.0). */
  k1?: number;
  /** Per-field weight on term frequency, BM25F style, in [0, MAX_OPTION_WEIGHT] (defaults: name 1.1, title 1.1, description 1, params 0.9, paramDescriptions 0.45; NaN or an infinity the default). */
  fieldWeights?: Partial<Record<ToolField, number>>;
  /** Per-field length normalisation b in [0, 1] (defaults: name 0.1, title 0.1, description 0.7, params 1, paramDescriptions 0.45; outside the range clamped, NaN the default). */
  fieldB?: Partial<Record<ToolField, number>>;
  /** Synonym groups (plain words); `false` turns them off. Default: DEFAULT_SYNONYMS. */
  synonyms?: readonly (readonly string[])[] | false;
  /** Weight of a term a synonym group adds, relative to the query's own terms (default 0.5). */
  synonymWeight?: number;
  /** Topic groups (plain words); `false` turns them off. Default: DEFAULT_RELATED. */
  related?: readonly (readonly string[])[] | false;
  /** Weight of a term a topic group adds (default 0.7). */
  relatedWeight?: number;
  /** Factor on both expansion weights when the query word itself occurs in the catalog (default 0.3): expand mainly words the tools never use. */
  knownWordExpansionFactor?: number;
  /** Chinese/Korean ↔ English word groups; `false` (or `synonyms: false`) turns them off. Default: CJK_TERMS. */
  translations?: readonly (readonly string[])[] | false;
  /** Weight of a term the Chinese↔English table CJK_TERMS adds (default 0.8). */
  translationWeight?: number;
  /**
   * Weight of a lone CJK character of the query; its character bigrams weigh 1 (default 0.05: a
   * long Chinese request matched scattered characters of Chinese descriptions, 市 of 城市 for 广州市, and
   * put them before the English tool it asked for;
   * docs/decisions/search-cjk-length-and-script-mismatch.md).
   */
  cjkUnigramWeight?: number;
  /** Bonus for a tool whose name parts the query mentions: weight × top BM25F score × idf-weighted share of the parts (default 0.3). */
  nameCoverageWeight?: number;
  /** Near-duplicate demotion in [0, 1]; 0 turns it off (default 0.3). */
  diversity?: number;
  /** Content similarity (Jaccard of description + parameter-name terms) in [0, 1] from which a lower-ranked tool counts as a near-duplicate (default 0.4; outside the range clamped, NaN the default). */
  diversityThreshold?: number;
  /** Most distinct query terms scored, the highest idf × weight kept (default 64; at least 1, a fraction rounded down). */
  maxQueryTerms?: number;
  /** Weight of a namespace part of a dotted name ("geometry" in "geometry.area_triangle") in the name-coverage prior, relative to the tool's own parts (default 0.25): requests name what a tool does, rarely its namespace. */
  namespaceWeight?: number;
  /** Weight of the concept word ("date", "time") of a value the request holds ("March 8th", "4:30 PM"); 0 turns it off (default 0.7). See value-types.ts. */
  valueTypeWeight?: number;
  /**
   * Weight of the words of the tools a request implies without naming them (value-types.ts
   * impliedToolWords: "…/apple.pptx" → presentation, slide; "save it to /root/markdown/x.md" →
   * write, file; "list c drive" → execute, command; two currencies; a unit question; an order
   * between two ends); the head reranker reads them too. 0 turns it off (default 1: a word the
   * request implies counts as one it says).
   */
  impliedWordWeight?: number;
  /**
   * Weight of the words PLACE_WORDS (geocode, address, coordinates, location) for a request that
   * asks for places on a map (value-types.ts asksForPlaces: "within 1km of …", "a bike route from
   * … to …", "plan a two-day tour of Beijing"); the first stage reads them, the head reranker does
   * not. 0 turns it off (default 0.7).
   */
  placeWordWeight?: number;
  /** Demotion in [0, 1] of a tool whose name, up to case, separators and qualifiers, equals that of a tool already ranked above ("calculate_bmi" after "calculate_BMI", "srv2:search" after "srv1:search"); 0 turns it off (default 0.4). Applied with near-duplicate demotion. */
  sameNameDemotion?: number;
  /**
   * Encoder of the semantic stage (semantic.ts); `false` turns the stage off. Default: the
   * static table shipped with the package (the stage is off when it cannot be read).
   */
  semantic?: StaticEncoder | false;
  /** Weight of the semantic stage, in [0, 4]: each of the ranking's best `semanticDepth` tools gains weight × the best one's score × cos(request, tool); 0 turns it off (default 1). See semantic-rerank.ts. */
  semanticWeight?: number;
  /** How many of the final ranking's best tools (after near-duplicate demotion) the semantic stage re-orders, at least the search's limit, at most MAX_STAGE_DEPTH (default 20, NaN the default; 10 with the first table: docs/decisions/search-semantic-static-table.md has both). */
  semanticDepth?: number;
  /**
   * A learned second stage over the first `headDepth` places of the final ranking (after the
   * semantic stage), exact-name matches left out and kept first: the discovery service passes
   * LexicalHeadReranker (head-rerank.ts). Default: none.
   */
  headReranker?: HeadReranker;
  /** How many of the final ranking's best tools the head reranker re-orders, at most MAX_STAGE_DEPTH (default 15; NaN the default). */
  headDepth?: number;
  /**
   * The clause guarantee: a request of two or more clauses (splitClauses; each with at least
   * CLAUSE_MIN_TERMS indexed terms) is also searched clause by clause, and a clause none of
   * whose first CLAUSE_COVER_DEPTH tools is among the request's first `clauseSlots` hits has its
   * best tool moved into the last of those places, when the request's own ranking holds that
   * tool within its first CLAUSE_INSERT_MAX_RANK (else its second, when the ranking holds that
   * one there; docs/decisions/search-clause-guarantee.md). 0 turns it off (default 5).
   */
  clauseSlots?: number;
  /**
   * Share of its score a tool loses when its title or description says it is deprecated
   * ("DEPRECATED: Use read_text_file instead.", "Read File (Deprecated)"), so the tool that
   * replaces it ranks first; an exact-name query still puts it first. In [0, 1]; 0 turns it off
   * (default 0.5).
   */
  deprecatedDemotion?: number;
}

/** Term statistics of an index, for a head reranker's word weights. */
export interface IndexTermStats {
  /** tools in the index */
  size: number;
  /** tools whose indexed text (any field) holds the analyzed term (a lower-case Porter stem); 0 when none */
  docFreq(term: string): number;
}

/**
 * A second stage that re-scores the head of a ranking. `rerank` gets the head's hits best first
 * (name and score) and returns one score per hit, higher better; the head is re-ordered by them
 * (ties keep the search's order) and keeps the head's own scores, reassigned by place, so the
 * reported scores stay non-increasing. A result of another length, a NaN, or a throw leaves the
 * search's order as it was.
 */
export interface HeadReranker {
  rerank(query: string, head: readonly SearchHit[], stats: IndexTermStats): readonly number[] | undefined;
}

/**
 * Largest weight option accepted (k1 and every weight; larger ones are clamped to it). Every
 * default is at most 1.1; at 10 a request's scores stay finite and below the exact-name tiers
 * (TIER_SCORE), whereas 1e308 would overflow them to Infinity and NaN.
 */
export const MAX_OPTION_WEIGHT = 10;
/** Most places a re-ordering stage (semanticDepth, headDepth) may cover; larger values are clamped to it. */
export const MAX_STAGE_DEPTH = 100;

/** A weight option: finite and in [0, MAX_OPTION_WEIGHT] (a negative one is 0, a larger one the cap, NaN or an infinity the default). */
export function weightOr(x: number | undefined, fallback: number): number {
  return Math.min(MAX_OPTION_WEIGHT, Math.max(0, finiteOr(x, fallback)));
}

/** A share option (a demotion, a threshold, a field's b): in [0, 1], NaN or an infinity the default. */
export function shareOr(x: number | undefined, fallback: number): number {
  return Math.min(1, Math.max(0, finiteOr(x, fallback)));
}

/** A depth option: a whole number in [0, MAX_STAGE_DEPTH] (NaN the default, Infinity the cap). */
export function depthOr(x: number | undefined, fallback: number): number {
  const v = typeof x === 'number' && !Number.isNaN(x) ? x : fallback;
  return Math.min(MAX_STAGE_DEPTH, Math.max(0, Math.floor(v)));
}

/** Highest semanticWeight accepted (larger values are clamped to it). */
const MAX_SEMANTIC_WEIGHT = 4;

/** Options as an index reads them: every one present, each clamped to its range. */
export type ResolvedOptions = typeof DEFAULTS;

/** `options` read as ToolIndex reads them: a weight in [0, MAX_OPTION_WEIGHT], a share in [0, 1], a depth in [0, MAX_STAGE_DEPTH], NaN → default. */
export function resolveOptions(options: ToolIndexOptions): ResolvedOptions {
  return {
    // every weight in [0, MAX_OPTION_WEIGHT], NaN → default: scores stay finite and non-negative
    // (near-duplicate demotion's lazy greedy relies on it) and below the exact-name tiers
    k1: weightOr(options.k1, DEFAULTS.k1),
    fieldWeights: Object.fromEntries(FIELDS.map((f) => [f, weightOr(options.fieldWeights?.[f], DEFAULTS.fieldWeights[f])])) as Record<
      ToolField,
      number
    >,
    fieldB: Object.fromEntries(FIELDS.map((f) => [f, shareOr(options.fieldB?.[f], DEFAULTS.fieldB[f])])) as Record<ToolField, number>,
    synonymWeight: weightOr(options.synonymWeight, DEFAULTS.synonymWeight),
    relatedWeight: weightOr(options.relatedWeight, DEFAULTS.relatedWeight),
    knownWordExpansionFactor: weightOr(options.knownWordExpansionFactor, DEFAULTS.knownWordExpansionFactor),
    nameCoverageWeight: weightOr(options.nameCoverageWeight, DEFAULTS.nameCoverageWeight),
    cjkUnigramWeight: weightOr(options.cjkUnigramWeight, DEFAULTS.cjkUnigramWeight),
    diversity: shareOr(options.diversity, DEFAULTS.diversity),
    diversityThreshold: shareOr(options.diversityThreshold, DEFAULTS.diversityThreshold),
    translationWeight: weightOr(options.translationWeight, DEFAULTS.translationWeight),
    // at least one term is scored, or no query could match anything
    maxQueryTerms: Math.max(1, Math.floor(finiteOr(options.maxQueryTerms, DEFAULTS.maxQueryTerms))),
    namespaceWeight: weightOr(options.namespaceWeight, DEFAULTS.namespaceWeight),
    valueTypeWeight: weightOr(options.valueTypeWeight, DEFAULTS.valueTypeWeight),
    impliedWordWeight: weightOr(options.impliedWordWeight, DEFAULTS.impliedWordWeight),
    placeWordWeight: weightOr(options.placeWordWeight, DEFAULTS.placeWordWeight),
    sameNameDemotion: shareOr(options.sameNameDemotion, DEFAULTS.sameNameDemotion),
    // bounded so the stage can never lift a tool past an exact-name tier (TIER_SCORE); NaN → off
    semanticWeight: Math.min(MAX_SEMANTIC_WEIGHT, Math.max(0, options.semanticWeight ?? DEFAULTS.semanticWeight) || 0),
    semanticDepth: depthOr(options.semanticDepth, DEFAULTS.semanticDepth),
    headDepth: depthOr(options.headDepth, DEFAULTS.headDepth),
    clauseSlots: Math.max(0, Math.floor(finiteOr(options.clauseSlots, DEFAULTS.clauseSlots))),
    deprecatedDemotion: shareOr(options.deprecatedDemotion, DEFAULTS.deprecatedDemotion),
  };
}

/** `x` when it is a finite number, else `fallback` (an option left out, NaN or ±Infinity). */
export function finiteOr(x: number | undefined, fallback: number): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : fallback;
}
