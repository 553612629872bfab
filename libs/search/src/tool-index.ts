// ToolIndex: BM25F over a tool's fields, plus a name-coverage prior and exact-name tiers.
// Design of each part: libs/search/README.md "Ranking"; measured effects: docs/decisions/search-*.md.
import { lastSegment, splitQualifiedName, stem } from '@toolsurface/analysis';
import {
  analyze,
  analyzeInto,
  identifierParts,
  MAX_ANALYZED_CHARS,
  namePartWords,
  nameKey,
  WHOLE_PREFIX,
  type AnalyzeOptions,
} from './tokenize.js';
import { CJK_STOP_CHARS, STOP_WORDS } from './stopwords.js';
import { buildSynonymMap, CJK_TERMS, DEFAULT_RELATED, DEFAULT_SYNONYMS } from './synonyms.js';
import type { SearchableTool, SearchHit } from './types.js';
import { asksForPlaces, impliedToolWords, PLACE_WORDS, readOperations, valueTypeTerms } from './value-types.js';
import { sharedEncoder, type StaticEncoder } from './semantic.js';
import { SemanticReranker } from './semantic-rerank.js';
import { splitClauses } from './clauses.js';

/** The fields ToolIndex weighs separately. */
export type ToolField = 'name' | 'title' | 'description' | 'params' | 'paramDescriptions';

const FIELDS: readonly ToolField[] = ['name', 'title', 'description', 'params', 'paramDescriptions'];

/** Tuning knobs of ToolIndex; all optional. Defaults (DEFAULTS below) were fitted on the eval dev split (libs/search/README.md "Ranking"). */
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
 * Default weight of the words a request that asks for places on a map stands for (PLACE_WORDS;
 * docs/decisions/search-place-words.md). At 1, and read by the head reranker too, a geocoding
 * tool takes the first place on catalogs with a map server for most requests that fire, ahead of
 * the right route or nearby tool; at 0.7, in the first stage alone, the clearly right tool keeps
 * its place (MRR@10 0.744 against 0.747 without the words and 0.621 at 1, on 60 requests of a
 * 49-tool catalog: npx tsx tools/mapper/place-words-probe.ts) and LiveMCPBench's map tasks still
 * gain on both halves of the dev requests.
 */
const PLACE_WORD_WEIGHT = 0.7;
/** PLACE_WORDS as the analyzer reads them, once. */
const PLACE_TERMS: readonly string[] = PLACE_WORDS.flatMap((w) => analyze(w));

/** Defaults of ToolIndexOptions (fitted on the eval dev split; libs/search/README.md "Ranking"). */
const DEFAULTS = {
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

/** Fewest distinct indexed terms (stems, whole identifiers left out) a clause needs to count as a step of the request. */
const CLAUSE_MIN_TERMS = 3;
/**
 * A clause's own first this many tools stand for it: it counts as served when one of them is among
 * the request's first clauseSlots hits, and otherwise the first of them that the request's ranking
 * holds within CLAUSE_INSERT_MAX_RANK is moved up. 2: a clause's third tool is too weak a match to
 * stand for it; with 3, "calculate the area of a circle with radius 5" counted as served by
 * circle.area, its third, while its first (area_circle.calculate, the tool asked for) stayed
 * seventh (docs/decisions/search-clause-guarantee.md).
 */
const CLAUSE_COVER_DEPTH = 2;
/** A clause's best tool is moved up only from within the request's own first this many hits: one found only by the clause alone is too often wrong. */
const CLAUSE_INSERT_MAX_RANK = 20;
/** Most clauses of one request searched on their own (the first ones; bounds the work a long request costs). */
const MAX_CLAUSES = 8;

// One CJK character (Han, kana, Hangul): the analyzer's unigram terms.
const CJK_SINGLE_RE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
// Two CJK characters: the analyzer's bigram terms.
const CJK_PAIR_RE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}$/u;

/**
 * What one occurrence of an analyzed term adds to its field's length in BM25F's length
 * normalisation: 1 for a word, 1 for a CJK character pair, 0 for a lone CJK character. The analyzer
 * cuts a CJK run of n characters into n characters and n − 1 pairs, so counted as terms a Chinese
 * description would be about twice as long as itself in pairs, and three to four times as long as
 * an English text of the same content (a Chinese word is about 1.7 characters): an English request
 * that reaches it through the translation table ("news" → 新闻) would score it far below an English
 * description that says the word as often. Pairs alone are counted, with cjkUnigramWeight 0.05 and
 * the head reranker's scriptMismatch feature fitted to go with it:
 * docs/decisions/search-cjk-length-and-script-mismatch.md.
 */
function termLength(term: string): number {
  return CJK_SINGLE_RE.test(term) ? 0 : 1;
}

/**
 * The characters of a request's CJK bigram terms (`terms`, analyzed) that the catalog holds
 * (`known`) and the translation table translates (`translated`): read through their word, not
 * again alone.
 */
function cjkCoveredChars(
  terms: readonly string[],
  known: ReadonlyMap<string, number>,
  translated: ReadonlyMap<string, unknown>,
): Set<string> {
  const covered = new Set<string>();
  for (const t of terms) {
    if (t.length === 2 && known.has(t) && translated.has(t) && CJK_PAIR_RE.test(t)) {
      covered.add(t[0]);
      covered.add(t[1]);
    }
  }
  return covered;
}

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

/** Highest semanticWeight accepted (larger values are clamped to it). */
const MAX_SEMANTIC_WEIGHT = 4;

/** Most leading positions of a result list that near-duplicate demotion re-orders. */
const DIVERSIFY_HEAD = 50;
/**
 * Fewest places near-duplicate demotion re-orders, whatever the limit: the pool it draws from
 * grows with the places, so without a floor a search with limit 5 would not be the first 5 hits
 * of the same search with limit 10. Every limit up to this one gives a prefix of the same list.
 */
const DIVERSIFY_MIN_HEAD = 20;

/** Most characters of one tool text (description, parameter description…) that are indexed. */
const MAX_DOC_CHARS = 32_000;

/** Score added per exact-match tier (verbatim name 4, normalized name 3, title 2, last dotted segment 1), above any BM25F score. */
const TIER_SCORE = 1e6;

/** Schema keywords whose subschemas collectParams follows besides `properties` and `items`. */
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * Most parameter names, and most parameter texts (descriptions, enum values), indexed of one tool,
 * as the Meilisearch backend's MAX_PARAMS: a tool of 20,000 parameters takes about 5 s to analyse, in one
 * piece even for buildAsync, and no request reads that far into a schema.
 */
const MAX_INDEXED_PARAMS = 1_000;

/** Parameter names, their descriptions and string enum values in a JSON Schema, following `properties`, `items` and anyOf/oneOf/allOf (6 levels deep; at most MAX_INDEXED_PARAMS of each). */
function collectParams(schema: unknown, out: { names: string[]; texts: string[] }, depth = 0): void {
  if (depth > 6 || schema === null || typeof schema !== 'object') return;
  if (out.names.length >= MAX_INDEXED_PARAMS && out.texts.length >= MAX_INDEXED_PARAMS) return;
  const s = schema as Record<string, unknown>;
  const props = s['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    // Object.keys, then every value read before any is used (as Object.entries does), without a
    // [key, value] array per parameter (some 24,000 in the eval corpus)
    const keys = Object.keys(props);
    const subs = keys.map((k) => (props as Record<string, unknown>)[k]);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const sub = subs[i];
      if (out.names.length < MAX_INDEXED_PARAMS) out.names.push(key);
      if (sub !== null && typeof sub === 'object') {
        const d = (sub as Record<string, unknown>)['description'];
        if (typeof d === 'string' && out.texts.length < MAX_INDEXED_PARAMS) out.texts.push(d);
        const e = (sub as Record<string, unknown>)['enum'];
        if (Array.isArray(e))
          for (let j = 0; j < e.length && out.texts.length < MAX_INDEXED_PARAMS; j++)
            if (typeof e[j] === 'string') out.texts.push(e[j] as string);
      }
      collectParams(sub, out, depth + 1);
    }
  }
  if (s['items'] !== undefined) collectParams(s['items'], out, depth + 1);
  for (let c = 0; c < COMBINATORS.length; c++) {
    const list = s[COMBINATORS[c]];
    if (Array.isArray(list)) for (let j = 0; j < list.length; j++) collectParams(list[j], out, depth + 1);
  }
}

/** Stemmed, stop-filtered name parts of an identifier, in order. */
function nameTerms(name: string): string[] {
  const out: string[] = [];
  // (a Thai, Lao, Khmer or Myanmar part by its words, as the analyzer reads a request's)
  const parts = identifierParts(name).flatMap(namePartWords);
  for (let i = 0; i < parts.length; i++) if (!STOP_WORDS.has(parts[i])) out.push(stem(parts[i]));
  return out;
}

/** Record in `table` that `key` points at `doc` with exact-match tier `tier` (packed as doc · 8 + tier). */
function addTier(table: Map<string, number[]>, key: string, doc: number, tier: number): void {
  if (key === '') return;
  const list = table.get(key);
  if (list === undefined) table.set(key, [doc * 8 + tier]);
  else list.push(doc * 8 + tier);
}

/**
 * BM25F postings, doc by doc (docs ascending within each term): per field w·tf / (1 − b + b·len/avgLen),
 * summed over the fields in order of occurrence, then saturated and multiplied by the term's idf.
 * `flat`/`bounds` as in ToolIndex (FIELDS.length fields per doc); `offsets` the CSR offsets by df;
 * `lens` each field's length (termLength summed, at least 1 when the field holds a term).
 * A function of its own, with plain indexed loops, rather than inside the constructor: V8 optimizes
 * a small hot function within the first build of a fresh process instead of running it on slower
 * unoptimized code that allocates a heap number per floating-point step.
 */
function bm25fPostings(
  flat: Int32Array,
  bounds: Int32Array,
  n: number,
  offsets: Int32Array,
  idf: Float64Array,
  k1: number,
  weights: readonly number[],
  bs: readonly number[],
  avgLen: readonly number[],
  lens: Float64Array,
): { docs: Int32Array; weights: Float64Array } {
  const nf = FIELDS.length;
  const nTerms = idf.length;
  const total = offsets[nTerms];
  const postDocs = new Int32Array(total);
  const postWeights = new Float64Array(total);
  const cursor = offsets.slice(0, nTerms);
  const acc = new Float64Array(nTerms);
  /** distinct term ids of the current doc, in order of first occurrence */
  const seen = new Int32Array(nTerms);
  for (let doc = 0; doc < n; doc++) {
    let nSeen = 0;
    for (let fi = 0; fi < nf; fi++) {
      const from = bounds[doc * nf + fi];
      const to = bounds[doc * nf + fi + 1];
      const add = weights[fi] / (1 - bs[fi] + (bs[fi] * lens[doc * nf + fi]) / avgLen[fi]);
      for (let i = from; i < to; i++) {
        const t = flat[i];
        if (acc[t] === 0) seen[nSeen++] = t;
        // a zero-weight field still marks the term as present (tiny weight keeps df and postings consistent)
        acc[t] += add > 0 ? add : 1e-9;
      }
    }
    for (let j = 0; j < nSeen; j++) {
      const t = seen[j];
      const tf = acc[t];
      const at = cursor[t]++;
      postDocs[at] = doc;
      postWeights[at] = idf[t] * ((tf * (k1 + 1)) / (tf + k1));
      acc[t] = 0;
    }
  }
  return { docs: postDocs, weights: postWeights };
}

/**
 * A run of 40 or more letters, digits, '+' and '=' holding a digit: encoded data, not words,
 * unless it is shaped like a camelCase identifier, where no two capitals stand together
 * ("getOrganizationBillingSummaryForFiscalYear2024" is a tool's name; "iVBORw0KGgoAAAANSUh…" is not).
 */
const BLOB_RE = /(?<![\w+=])(?=[A-Za-z+=]*\d)[A-Za-z0-9+=]{40,}(?![\w+=])/g;
const CAMEL_IDENTIFIER_RE = /^[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*$/;

/**
 * Step 1 of a ToolIndex build, resumable: every field of every tool analysed into one flat run of
 * term ids (field fi of doc d is flat[bounds[d * nf + fi] .. bounds[d * nf + fi + 1])), with the
 * per-field lengths, document frequencies, name parts and exact-name tiers the rest of the build
 * reads. `run(deadline)` analyses tools until all are done or the deadline has passed, so that
 * ToolIndex.buildAsync can give the event loop back between slices: a 10,000-tool snapshot holds it
 * for about 0.9 s in one piece, and every other request of the replica, health checks included, waits.
 * (Indexed loops rather than for-of here and in the helpers: a new replica's first build runs
 * largely on unoptimized code, where every for-of step allocates an iterator result.)
 */
class DocAnalysis {
  readonly termIds = new Map<string, number>();
  /** verbatim name (and base of a qualified name) → docs · 8 + tier 4 */
  readonly verbatim = new Map<string, number[]>();
  /** nameKey of base name, title, last dotted segment → docs · 8 + tier */
  readonly normalized = new Map<string, number[]>();
  readonly baseNameIds: Int32Array;
  flat = new Int32Array(1 << 16);
  used = 0;
  readonly bounds: Int32Array;
  readonly sumLen: Float64Array;
  readonly lens: Float64Array;
  readonly df: number[] = [];
  readonly docNameTerms: number[][] = [];
  readonly docNameWeights: number[][] = [];
  /** per term id: what one occurrence adds to its field's length (termLength) */
  private readonly lenW: number[] = [];
  private readonly lastDoc: number[] = [];
  private readonly buf: string[] = [];
  // texts repeat across a catalog (parameter names and descriptions): analyze each once per build.
  // The term ids of the i-th distinct text are memoIds[memoStart[i] .. memoStart[i + 1]): one flat
  // typed array rather than an array per text (less for the young-generation GC to copy).
  private readonly textMemo = new Map<string, number>();
  private memoIds = new Int32Array(1 << 16);
  private memoUsed = 0;
  private readonly memoStart: number[] = [0];
  // (one memo per analysis: a parameter name is read without joined camelCase words)
  private readonly nameMemo = new Map<string, number>();
  private readonly baseKeys = new Map<string, number>();
  /** the next tool to analyse */
  private next = 0;

  /** the names the index keeps of its tools (a missing one is '') */
  readonly names: string[];
  /** weight of a name's namespace parts in the name prior (ToolIndexOptions.namespaceWeight, read as the index reads its options) */
  private readonly namespaceWeight: number;

  constructor(
    private readonly tools: readonly SearchableTool[],
    options: ToolIndexOptions,
  ) {
    this.names = tools.map((t) => String(t?.name ?? ''));
    this.namespaceWeight = weightOr(options.namespaceWeight, DEFAULTS.namespaceWeight);
    const n = tools.length;
    const nf = FIELDS.length;
    this.baseNameIds = new Int32Array(n);
    this.bounds = new Int32Array(n * nf + 1);
    this.sumLen = new Float64Array(nf);
    this.lens = new Float64Array(n * nf);
  }

  /** Analyses tools until every one is (true) or `deadline` (a performance.now() time) has passed (false). */
  run(deadline = Infinity): boolean {
    const {
      tools,
      names,
      termIds,
      lenW,
      df,
      lastDoc,
      buf,
      textMemo,
      nameMemo,
      memoStart,
      bounds,
      sumLen,
      lens,
      docNameTerms,
      docNameWeights,
      baseKeys,
    } = this;
    const n = tools.length;
    const nf = FIELDS.length;
    const docOpts = { maxChars: MAX_DOC_CHARS };
    // a name keeps its stop words ("do", "can", "me" are tool names too), found by a query made only of stop words
    const nameOpts = { maxChars: MAX_DOC_CHARS, stop: false, joined: false };
    const paramNameOpts = { maxChars: MAX_DOC_CHARS, joined: false };
    let { flat, used, memoIds, memoUsed } = this;
    const idOf = (t: string): number => {
      let id = termIds.get(t);
      if (id === undefined) {
        termIds.set(t, (id = termIds.size));
        lenW[id] = termLength(t);
      }
      return id;
    };
    /** append one term occurrence of `doc` to the flat run, counting df */
    const push = (id: number, doc: number): void => {
      if (used === flat.length) {
        const grown = new Int32Array(flat.length * 2);
        grown.set(flat);
        flat = grown;
      }
      flat[used++] = id;
      if (lastDoc[id] !== doc) {
        lastDoc[id] = doc;
        df[id] = (df[id] ?? 0) + 1;
      }
    };
    const pushText = (text: unknown, doc: number, opts: AnalyzeOptions = docOpts): void => {
      if (typeof text !== 'string' || text === '') return;
      const memo = opts === docOpts ? textMemo : nameMemo;
      let m = memo.get(text);
      if (m === undefined) {
        buf.length = 0;
        analyzeInto(text, buf, opts);
        if (memoUsed + buf.length > memoIds.length) {
          const grown = new Int32Array(Math.max(memoIds.length * 2, memoUsed + buf.length));
          grown.set(memoIds);
          memoIds = grown;
        }
        for (let i = 0; i < buf.length; i++) memoIds[memoUsed++] = idOf(buf[i]);
        m = memoStart.length - 1;
        memoStart.push(memoUsed);
        memo.set(text, m);
      }
      for (let i = memoStart[m], end = memoStart[m + 1]; i < end; i++) push(memoIds[i], doc);
    };
    try {
      while (this.next < n) {
        const doc = this.next++;
        const tool = tools[doc] ?? ({} as SearchableTool);
        const params = { names: [] as string[], texts: [] as string[] };
        try {
          collectParams(tool.inputSchema, params);
        } catch {
          // a schema object that throws on access (getters, proxies) contributes no parameters
        }
        const { base, qualifiers } = splitQualifiedName(names[doc]);
        const nTerms = nameTerms(base);
        const key = nameKey(base);
        let keyId = baseKeys.get(key);
        if (keyId === undefined) baseKeys.set(key, (keyId = baseKeys.size));
        // a name without a key (no letters or digits) matches no other tool
        this.baseNameIds[doc] = key === '' ? -1 - doc : keyId;
        for (let fi = 0; fi < nf; fi++) {
          buf.length = 0;
          if (fi === 0) {
            for (let i = 0; i < qualifiers.length; i++) analyzeInto(qualifiers[i], buf, nameOpts);
            analyzeInto(base, buf, nameOpts);
            for (let i = 0; i < buf.length; i++) push(idOf(buf[i]), doc);
          } else if (fi === 1) pushText(tool.title, doc);
          else if (fi === 2) pushText(tool.description, doc);
          else if (fi === 3) for (let i = 0; i < params.names.length; i++) pushText(params.names[i], doc, paramNameOpts);
          else for (let i = 0; i < params.texts.length; i++) pushText(params.texts[i], doc);
          bounds[doc * nf + fi + 1] = used;
          let len = 0;
          for (let i = bounds[doc * nf + fi]; i < used; i++) len += lenW[flat[i]];
          // a field of lone CJK characters alone (a parameter named 名) is one word long, not 0: at
          // b = 1 a length of 0 made its terms' weight infinite
          if (used > bounds[doc * nf + fi] && len < 1) len = 1;
          lens[doc * nf + fi] = len;
          sumLen[fi] += len;
        }
        const nameIds: number[] = [];
        const nameWeights: number[] = [];
        // parts before the last dot are a namespace ("geometry" of "geometry.area_triangle")
        const last = lastSegment(base);
        const ownParts = last === undefined ? undefined : new Set(nameTerms(last));
        for (let i = 0; i < nTerms.length; i++) {
          const t = nTerms[i];
          const id = idOf(t);
          const w = ownParts === undefined || ownParts.has(t) ? 1 : this.namespaceWeight;
          const at = nameIds.indexOf(id);
          if (at < 0) {
            nameIds.push(id);
            nameWeights.push(w);
          } else if (w > nameWeights[at]) nameWeights[at] = w;
        }
        docNameTerms.push(nameIds);
        docNameWeights.push(nameWeights);
        addTier(this.verbatim, names[doc], doc, 4);
        if (base !== names[doc]) addTier(this.verbatim, base, doc, 4);
        addTier(this.normalized, key, doc, 3);
        // the name written as one word ("getweather", "createpullrequest" for createPullRequest)
        if (key.includes(' ')) addTier(this.normalized, key.replace(/ /g, ''), doc, 3);
        if (typeof tool.title === 'string') addTier(this.normalized, nameKey(tool.title), doc, 2);
        if (last !== undefined) addTier(this.normalized, nameKey(last), doc, 1);
        // (the clock read after every tool: a wide tool, up to MAX_INDEXED_PARAMS parameters, takes milliseconds)
        if (performance.now() > deadline) return this.next >= n;
      }
      return true;
    } finally {
      this.flat = flat;
      this.used = used;
      this.memoIds = memoIds;
      this.memoUsed = memoUsed;
    }
  }
}

/** Search index over an immutable snapshot of tools: BM25F + name prior + exact-name tiers. */
export class ToolIndex {
  /** Number of tools indexed. */
  readonly size: number;
  private readonly names: string[];
  /** docs whose title or description says they are deprecated ("DEPRECATED: Use read_text_file instead."); undefined when none does */
  private readonly deprecated: Uint8Array | undefined;
  /** term → term id */
  private readonly termIds: Map<string, number>;
  /** per term id: idf */
  private readonly idf: Float64Array;
  /** CSR postings: docs/weights of term t are at [offsets[t], offsets[t + 1]) */
  private readonly offsets: Int32Array;
  private readonly postDocs: Int32Array;
  /** saturated BM25F term weight × idf */
  private readonly postWeights: Float64Array;
  /**
   * Name-coverage prior, CSR like the postings: the distinct base-name parts of doc d are the
   * places j in [nameStart[d], nameStart[d + 1]), each weighing namePartWeights[j] = its term's idf
   * × its weight (namespace parts namespaceWeight, the rest 1); nameTotals[d] is their sum. Flat
   * typed arrays, read by term (below) rather than for every doc a search touches.
   */
  private readonly nameStart: Int32Array;
  private readonly namePartWeights: Float64Array;
  private readonly nameTotals: Float64Array;
  /** the same places by term: those holding term t are nameSlots[nameSlotStart[t] .. nameSlotStart[t + 1]); nameSlotDoc[j] is the doc of place j */
  private readonly nameSlotStart: Int32Array;
  private readonly nameSlots: Int32Array;
  private readonly nameSlotDoc: Int32Array;
  /** every doc's term ids, field by field: field fi of doc d is flat[bounds[d·5 + fi] .. bounds[d·5 + fi + 1]) */
  private readonly flat: Int32Array;
  private readonly bounds: Int32Array;
  /** per doc, made on first use: sorted distinct term ids of description + parameter names (near-duplicate test) */
  private readonly signatures: (Int32Array | undefined)[] = [];
  /** docs below this index have their signature (made by `warm`, or already by a search) */
  private signed = 0;
  /** per doc: id of its normalized base name (nameKey of the name without qualifiers); equal ids = same-named tools */
  private readonly baseNameIds: Int32Array;
  /** verbatim name (and base of a qualified name) → docs · 8 + tier 4 */
  private readonly verbatim: Map<string, number[]>;
  /** nameKey of base name (tier 3, and the same without its spaces: "getweather"), title (2), last dotted segment (1) → docs · 8 + tier */
  private readonly normalized: Map<string, number[]>;
  private readonly synonyms: Map<string, string[]>;
  private readonly related: Map<string, string[]>;
  private readonly translations: Map<string, string[]>;
  private readonly opts: typeof DEFAULTS;
  /** the semantic stage, when on */
  private readonly semantic: SemanticReranker | undefined;
  /** the learned second stage, when given */
  private readonly headReranker: HeadReranker | undefined;
  /** what a head reranker sees of this index */
  readonly termStats: IndexTermStats = {
    size: 0,
    docFreq: (term: string): number => {
      const id = this.termIds.get(term);
      return id === undefined ? 0 : this.offsets[id + 1] - this.offsets[id];
    },
  };
  /** per doc, reused by every search (searches are synchronous): scores; only touched entries are reset */
  private scratchScores: Float64Array | undefined;
  /** per search, reused: the docs the search reached, in the order it did (each once: scratchListed) */
  private scratchTouched: Int32Array | undefined;
  /** per doc, reused: 1 while the doc is in scratchTouched (a posting can add 0, and a full demotion take a score back to 0) */
  private scratchListed: Uint8Array | undefined;
  /** per term id, reused by every search: the query's weight of the term (0 = not in the query) */
  private scratchQw: Float64Array | undefined;
  /** per name part (a place j as nameStart): its share of the name-coverage prior in the current search; per doc: whether it has one */
  private scratchPartHit: Float64Array | undefined;
  private scratchNameHit: Uint8Array | undefined;
  /** per term id: the stamp of the last signature marked in it (markTerms, near-duplicate demotion); 0 = never */
  private scratchStamps: Int32Array | undefined;
  private stamp = 0;
  /** whether a search runs (a search it calls, through a head reranker, takes scratch arrays of its own) */
  private searching = false;

  private constructor(tools: readonly SearchableTool[], options: ToolIndexOptions, analysis?: DocAnalysis) {
    this.opts = {
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
    this.headReranker = options.headReranker;
    this.synonyms = options.synonyms === false ? new Map() : buildSynonymMap(options.synonyms ?? DEFAULT_SYNONYMS);
    this.translations = options.synonyms === false ? new Map() : buildSynonymMap(CJK_TERMS);
    this.related = options.related === false ? new Map() : buildSynonymMap(options.related ?? DEFAULT_RELATED);
    this.size = tools.length;
    this.termStats.size = tools.length;
    // 1. every field of every tool analysed into one flat run of term ids (DocAnalysis; done
    //    already, in slices, when buildAsync made the index)
    const a = analysis ?? new DocAnalysis(tools, options);
    a.run();
    this.names = a.names;
    const deprecated = Uint8Array.from(tools, (t) => (saysDeprecated(t?.title) || saysDeprecated(t?.description) ? 1 : 0));
    this.deprecated = deprecated.includes(1) ? deprecated : undefined;
    const encoder = options.semantic === false ? undefined : (options.semantic ?? sharedEncoder());
    this.semantic =
      encoder !== undefined && this.opts.semanticWeight > 0 && this.opts.semanticDepth > 1
        ? new SemanticReranker(
            encoder,
            tools.map((t, i) => ({
              name: this.names[i],
              title: typeof t?.title === 'string' ? t.title : undefined,
              description: typeof t?.description === 'string' ? t.description : undefined,
            })),
          )
        : undefined;
    const n = this.size;
    this.termIds = a.termIds;
    this.verbatim = a.verbatim;
    this.normalized = a.normalized;
    this.baseNameIds = a.baseNameIds;
    const { bounds, sumLen, lens, df, docNameTerms, docNameWeights } = a;
    this.flat = a.flat.slice(0, a.used);
    this.bounds = bounds;

    // 2. idf over the union of fields; BM25F: per field w·tf / (1 − b + b·len/avgLen), summed, then saturated
    const nTermsAll = this.termIds.size;
    this.idf = new Float64Array(nTermsAll);
    this.offsets = new Int32Array(nTermsAll + 1);
    for (let t = 0; t < nTermsAll; t++) {
      const d = df[t] ?? 0;
      this.idf[t] = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      this.offsets[t + 1] = this.offsets[t] + d;
    }
    // (both clamped when the options were read)
    const weights = FIELDS.map((f) => this.opts.fieldWeights[f]);
    const bs = FIELDS.map((f) => this.opts.fieldB[f]);
    const avgLen = Array.from(sumLen, (s) => (n > 0 ? Math.max(s / n, 1) : 1));
    const post = bm25fPostings(this.flat, bounds, n, this.offsets, this.idf, this.opts.k1, weights, bs, avgLen, lens);
    this.postDocs = post.docs;
    this.postWeights = post.weights;

    // 3. the name-coverage prior's parts, weighted once here rather than at every search, and
    //    indexed by term (counted, then placed: CSR like the postings)
    this.nameStart = new Int32Array(n + 1);
    for (let d = 0; d < n; d++) this.nameStart[d + 1] = this.nameStart[d] + docNameTerms[d].length;
    const parts = this.nameStart[n];
    const partTerm = new Int32Array(parts);
    this.namePartWeights = new Float64Array(parts);
    this.nameTotals = new Float64Array(n);
    this.nameSlotDoc = new Int32Array(parts);
    this.nameSlotStart = new Int32Array(nTermsAll + 1);
    for (let d = 0; d < n; d++) {
      let all = 0;
      for (let j = 0, at = this.nameStart[d]; j < docNameTerms[d].length; j++, at++) {
        const t = docNameTerms[d][j];
        const w = this.idf[t] * docNameWeights[d][j];
        partTerm[at] = t;
        this.namePartWeights[at] = w;
        this.nameSlotDoc[at] = d;
        this.nameSlotStart[t + 1]++;
        all += w;
      }
      this.nameTotals[d] = all;
    }
    for (let t = 0; t < nTermsAll; t++) this.nameSlotStart[t + 1] += this.nameSlotStart[t];
    this.nameSlots = new Int32Array(parts);
    const fill = this.nameSlotStart.slice(0, nTermsAll);
    for (let j = 0; j < parts; j++) this.nameSlots[fill[partTerm[j]]++] = j;
  }

  /** Term occurrences indexed over every field of every tool (the length of the flat run the postings were made from): what the index's memory grows with, beside its tool count. */
  get termOccurrences(): number {
    return this.flat.length;
  }

  /** Index a snapshot of tools; names should be unique (a repeated name is indexed as separate tools). */
  static build(tools: readonly SearchableTool[], options: ToolIndexOptions = {}): ToolIndex {
    return new ToolIndex(Array.isArray(tools) ? tools : [], options ?? {});
  }

  /**
   * The index `build` makes, made with the event loop given back between slices: the analysis of
   * the tools (the bulk of a build) runs `sliceMs` milliseconds at a time (default 8), each slice
   * followed by a turn of the event loop (setImmediate), so that other requests of the process are
   * answered while a large snapshot is indexed. The rest (postings, name prior) runs in one piece:
   * about a fifth of the build.
   */
  static async buildAsync(tools: readonly SearchableTool[], options: ToolIndexOptions = {}, sliceMs = 8): Promise<ToolIndex> {
    const list = Array.isArray(tools) ? tools : [];
    const opts = options ?? {};
    const analysis = new DocAnalysis(list, opts);
    const slice = Math.max(1, finiteOr(sliceMs, 8));
    while (!analysis.run(performance.now() + slice)) await new Promise<void>((resolve) => setImmediate(resolve));
    return new ToolIndex(list, opts, analysis);
  }

  /** Weighted query terms: own terms 1 (a lone CJK character less), the words it implies (`implied`, impliedToolWords), then synonym, topic and translation expansions; capped to maxQueryTerms. */
  private queryTerms(query: string, implied: readonly string[], places: boolean): Map<string, number> {
    const terms = new Map<string, number>();
    // an operation written between numbers ("394 times 213") means its words, in the operator's place
    const ops = readOperations(query.slice(0, MAX_ANALYZED_CHARS));
    if (ops.words.length > 0) query = ops.rest + query.slice(MAX_ANALYZED_CHARS);
    // an encoded blob (base64 data, a hash) is no words: split at its case changes it would fill
    // the query with fragments ("iVBORw0KGgo…" → vbo, rw0, ggo…) that crowd out the request's words
    query = query.replace(BLOB_RE, (m) => (CAMEL_IDENTIFIER_RE.test(m) ? m : ' '));
    let own = analyze(query);
    // a request made only of stop words ("do it", "who am I") is read with them, so a tool named by one is found
    if (own.length === 0) own = analyze(query, { stop: false });
    // a CJK character inside a two-character word of the query that the catalog holds and the
    // translation table translates (天 and 气 of 天气 → weather) is read through that word: counted
    // again alone it would give a tool written in the request's script 1 + 2 × cjkUnigramWeight for the
    // word, against translationWeight for a tool that says it in English. Words without a
    // translation (place names: 北京) keep their characters, which match 北京市 and the like.
    const covered = cjkCoveredChars(own, this.termIds, this.translations);
    for (const t of own) {
      if (t.length === 1 && CJK_SINGLE_RE.test(t)) {
        // a lone CJK character: weak evidence, and none at all for a function character or one the catalog's word covers
        if (!CJK_STOP_CHARS.has(t) && !covered.has(t)) terms.set(t, Math.max(terms.get(t) ?? 0, this.opts.cjkUnigramWeight));
      } else terms.set(t, 1);
    }
    // a value the request holds (a date, a clock time) stands for its type, which tools name as a parameter
    if (this.opts.valueTypeWeight > 0) {
      for (const t of valueTypeTerms(query.slice(0, MAX_ANALYZED_CHARS)))
        if ((terms.get(t) ?? 0) < this.opts.valueTypeWeight) terms.set(t, this.opts.valueTypeWeight);
    }
    // the tools the request implies ("…/apple.pptx" → presentation, slide; "list c drive" → execute, command)
    for (const w of implied)
      for (const t of analyze(w)) if ((terms.get(t) ?? 0) < this.opts.impliedWordWeight) terms.set(t, this.opts.impliedWordWeight);
    if (places) for (const t of PLACE_TERMS) if ((terms.get(t) ?? 0) < this.opts.placeWordWeight) terms.set(t, this.opts.placeWordWeight);
    for (const w of ops.words) for (const t of analyze(w)) terms.set(t, 1);
    const words = own.filter((t) => !t.startsWith(WHOLE_PREFIX));
    const tables = [
      [this.synonyms, this.opts.synonymWeight, this.opts.knownWordExpansionFactor],
      [this.related, this.opts.relatedWeight, this.opts.knownWordExpansionFactor],
      // a translation means the same thing: full weight, whether or not the corpus has the word
      [this.translations, this.opts.translationWeight, 1],
    ] as const;
    for (const [table, weight, knownFactor] of tables) {
      if (weight <= 0) continue;
      for (const t of words) {
        const w = this.termIds.has(t) ? weight * knownFactor : weight;
        for (const s of table.get(t) ?? []) {
          if ((terms.get(s) ?? 0) < w) terms.set(s, w);
        }
      }
    }
    if (terms.size > this.opts.maxQueryTerms) {
      const idf = (t: string): number => this.idf[this.termIds.get(t) ?? -1] ?? 0;
      const kept = [...terms.entries()]
        .filter(([t]) => this.termIds.has(t))
        .sort((a, b) => idf(b[0]) * b[1] - idf(a[0]) * a[1])
        .slice(0, this.opts.maxQueryTerms);
      return new Map(kept);
    }
    return terms;
  }

  /** Content signature of a doc: sorted distinct term ids of its description and parameter names (memoised). */
  private signature(doc: number): Int32Array {
    let sig = this.signatures[doc];
    if (sig === undefined) {
      const nf = FIELDS.length;
      const ids = new Set<number>();
      for (let i = this.bounds[doc * nf + 2]; i < this.bounds[doc * nf + 4]; i++) ids.add(this.flat[i]);
      this.signatures[doc] = sig = Int32Array.from(ids).sort();
    }
    return sig;
  }

  /**
   * Greedy near-duplicate demotion (MMR-style) over the best candidates: each pick is the candidate
   * maximizing score × (1 − diversity · s), s = its highest content similarity (Jaccard of
   * signatures) to a tool already picked when that similarity reaches diversityThreshold, else 0;
   * a candidate named like a tool already picked (same nameKey of its base name) is further
   * multiplied by 1 − sameNameDemotion.
   * Exact-name matches keep their place. Returned scores stay the original ones, made
   * non-increasing down the list.
   */
  private diversify(touched: Int32Array, scores: Float64Array, k: number, tiers: Map<number, number>): number[] {
    // only the head of the list is re-ordered (bounded work for any limit); the tail follows by score
    const head = Math.min(Math.max(k, DIVERSIFY_MIN_HEAD), DIVERSIFY_HEAD);
    const pool = topK(touched, scores, Math.min(touched.length, Math.max(head * 3, 30)));
    const picked: number[] = [];
    const maxSim = new Float64Array(pool.length);
    const sameName = new Uint8Array(pool.length);
    const nameFactor = 1 - this.opts.sameNameDemotion;
    // Lazy greedy: a candidate's similarity to the picks is brought up to date only when it is
    // the best by its last known (stale) value. Similarities only grow and scores are not negative
    // (k1, field weights, diversity and the name factor are clamped at 0), so a stale value bounds
    // the true one from above: when the best candidate is up to date, no other can beat it. Same picks,
    // ties included (the lowest pool place wins), as comparing every candidate with every pick;
    // about a third of the Jaccard tests (323 a search on the dev requests, against 990), and the
    // best is kept in a binary heap rather than found by a scan of the pool.
    const seen = new Int32Array(pool.length);
    const pinned = new Uint8Array(pool.length);
    if (tiers.size > 0) for (let i = 0; i < pool.length; i++) pinned[i] = tiers.has(pool[i]) ? 1 : 0;
    const diversity = this.opts.diversity;
    const value = new Float64Array(pool.length);
    const adjusted = (i: number): number => {
      const d = pool[i];
      return pinned[i] ? scores[d] : scores[d] * (1 - diversity * maxSim[i]) * (sameName[i] ? nameFactor : 1);
    };
    const heap = new Int32Array(pool.length);
    let size = 0;
    const above = (a: number, b: number): boolean => value[a] > value[b] || (value[a] === value[b] && a < b);
    const siftDown = (at: number): void => siftHeapDown(heap, size, at, above);
    // (the pool comes in score order, with every similarity 0, so this heapify moves nothing)
    for (let i = 0; i < pool.length; i++) {
      value[i] = adjusted(i);
      heap[size++] = i;
    }
    for (let at = (size >> 1) - 1; at >= 0; at--) siftDown(at);
    while (picked.length < head && size > 0) {
      const best = heap[0];
      if (!pinned[best] && seen[best] < picked.length) {
        // stale: compare it with the picks made since it was last brought up to date, then look again
        const sig = this.signature(pool[best]);
        const threshold = this.opts.diversityThreshold;
        // the candidate's terms are marked once (on the first pick it must be compared with), and
        // each pick's terms are counted against the marks: the same shared count as merging the
        // two sorted signatures, in one pass over the pick's alone
        let mark = 0;
        for (let p = seen[best]; p < picked.length; p++) {
          if (this.baseNameIds[pool[best]] === this.baseNameIds[picked[p]]) sameName[best] = 1;
          const other = this.signature(picked[p]);
          // (Jaccard is at most the smaller size over the larger: no count where that is already
          // under the threshold or under the similarity held)
          const bound = Math.min(sig.length, other.length) / Math.max(sig.length, other.length, 1);
          if (bound < threshold || bound <= maxSim[best]) continue;
          if (mark === 0) mark = this.markTerms(sig);
          const stamps = this.scratchStamps!;
          let common = 0;
          for (let i = 0; i < other.length; i++) if (stamps[other[i]] === mark) common++;
          const sim = common / (sig.length + other.length - common);
          if (sim >= threshold && sim > maxSim[best]) maxSim[best] = sim;
        }
        seen[best] = picked.length;
        value[best] = adjusted(best);
        siftDown(0);
        continue;
      }
      heap[0] = heap[--size];
      siftDown(0);
      const chosen = pool[best];
      picked.push(chosen);
      // its score is the demoted one that placed it (non-increasing along the head: similarities only grow)
      scores[chosen] = value[best];
    }
    if (k > picked.length) {
      const chosen = new Set(picked);
      for (const d of topK(touched, scores, k + picked.length)) {
        if (picked.length >= k) break;
        if (!chosen.has(d)) picked.push(d);
      }
    }
    // keep reported scores consistent with the order
    for (let i = 1; i < picked.length; i++) {
      if (scores[picked[i]] > scores[picked[i - 1]]) scores[picked[i]] = scores[picked[i - 1]];
    }
    return picked;
  }

  /**
   * Marks the term ids of `sig` in the shared stamp array (scratchStamps) with a fresh stamp and
   * returns it: a term of the index is in `sig` when its entry equals the stamp. Stamps grow by
   * one a call; the array is cleared when they would pass 2^31 − 1.
   */
  private markTerms(sig: Int32Array): number {
    const stamps = (this.scratchStamps ??= new Int32Array(this.idf.length));
    if (this.stamp === 0x7fffffff) {
      stamps.fill(0);
      this.stamp = 0;
    }
    const mark = ++this.stamp;
    for (let i = 0; i < sig.length; i++) stamps[sig[i]] = mark;
    return mark;
  }

  /** The head reranker's order of the first headDepth hits (exact-name matches stay first); the search's order when it fails. */
  private rerankHead(query: string, hits: number[], scores: Float64Array, tiers: Map<number, number>): number[] {
    const depth = Math.min(this.opts.headDepth, hits.length);
    const pinned = hits.slice(0, depth).filter((d) => tiers.has(d));
    const head = hits.slice(0, depth).filter((d) => !tiers.has(d));
    if (head.length < 2) return hits;
    let s: readonly number[] | undefined;
    try {
      s = this.headReranker!.rerank(
        query,
        head.map((d) => ({ name: this.names[d], score: Math.max(0, scores[d]) })),
        this.termStats,
      );
    } catch {
      return hits;
    }
    if (!s || s.length !== head.length || s.some((x) => Number.isNaN(x))) return hits;
    const own = head.map((d) => scores[d]).sort((a, b) => b - a);
    const order = head.map((_, i) => i).sort((a, b) => s[b] - s[a] || a - b);
    let reordered = order.map((i) => head[i]);
    // the stage scores each tool alone and knows nothing of deprecation: a deprecated tool gains no
    // place over a tool that is not deprecated (it stays after its replacement)
    const deprecated = this.deprecated;
    if (deprecated !== undefined && this.opts.deprecatedDemotion > 0 && head.some((d) => deprecated[d] === 1)) {
      // (each at the lower of its two places, the first stage's and the stage's, or lower still
      // where another deprecated tool holds that place; the other tools fill the places left, in
      // the stage's order)
      const held = head
        .map((d, i) => ({ d, at: Math.max(i, reordered.indexOf(d)) }))
        .filter((x) => deprecated[x.d] === 1)
        .sort((a, b) => a.at - b.at);
      const rest = reordered.filter((d) => deprecated[d] !== 1);
      const merged: number[] = [];
      let h = 0;
      let k = 0;
      while (merged.length < reordered.length) {
        const i = merged.length;
        if (h < held.length && (held[h].at <= i || k >= rest.length)) merged.push(held[h++].d);
        else merged.push(rest[k++]);
      }
      reordered = merged;
    }
    reordered.forEach((d, i) => (scores[d] = own[i]));
    return [...pinned, ...reordered, ...hits.slice(depth)];
  }

  /**
   * Does, for up to `budgetMs` milliseconds, the per-tool work that searches otherwise do when a
   * tool first reaches a head: its semantic encoding and its content signature (near-duplicate
   * demotion). Call it between requests after a build (the discovery service does, in short
   * slices); searches give the same results either way.
   * @returns true when nothing is left to do
   */
  warm(budgetMs: number): boolean {
    const end = performance.now() + Math.max(0, budgetMs);
    while (this.signed < this.size && performance.now() < end) this.signature(this.signed++);
    if (this.signed < this.size) return false;
    return this.semantic === undefined ? true : this.semantic.warm(end - performance.now());
  }

  /** Ranked hits, best first, at most `limit` (floored; non-finite or < 1 → []); never throws (blank or non-string query → []). */
  search(query: string, limit: number): SearchHit[] {
    if (this.searching) return this.withOwnScratch(() => this.searchOnce(query, limit));
    this.searching = true;
    try {
      return this.searchOnce(query, limit);
    } finally {
      this.searching = false;
    }
  }

  private searchOnce(query: string, limit: number): SearchHit[] {
    try {
      return this.opts.clauseSlots > 0 ? this.searchByClause(query, limit) : this.searchUnsafe(query, limit);
    } catch {
      return [];
    }
  }

  /**
   * Runs a search started from within another (a head reranker that searches this index) on
   * scratch arrays of its own, and gives the outer search its arrays back as it left them.
   */
  private withOwnScratch<T>(run: () => T): T {
    const { scratchScores, scratchTouched, scratchListed, scratchQw, scratchPartHit, scratchNameHit, scratchStamps } = this;
    this.scratchScores = this.scratchQw = this.scratchPartHit = undefined;
    this.scratchTouched = this.scratchStamps = undefined;
    this.scratchListed = this.scratchNameHit = undefined;
    try {
      return run();
    } finally {
      Object.assign(this, { scratchScores, scratchTouched, scratchListed, scratchQw, scratchPartHit, scratchNameHit, scratchStamps });
    }
  }

  /**
   * The clause guarantee (ToolIndexOptions.clauseSlots): the request's ranking, with the best tool (or second)
   * of each clause that none of the first clauseSlots hits serves moved into the last of those
   * places, in clause order; the first place always stays, and the rest keep their order.
   * Scores stay those of the places, so they never rise down the list.
   */
  private searchByClause(query: string, limit: number): SearchHit[] {
    const max = typeof limit === 'number' && Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
    if (max === 0 || typeof query !== 'string') return [];
    const clauses = splitClauses(query.slice(0, MAX_ANALYZED_CHARS))
      .filter(
        (c) =>
          new Set(analyze(c, { joined: false }).filter((t) => !t.startsWith(WHOLE_PREFIX) && this.termIds.has(t))).size >= CLAUSE_MIN_TERMS,
      )
      .slice(0, MAX_CLAUSES);
    // a one-step request is the plain search
    if (clauses.length < 2) return this.searchUnsafe(query, max);
    // the decisions are made on the ranking at a fixed depth, so that they do not depend on the limit
    const depth = Math.max(this.opts.clauseSlots, CLAUSE_INSERT_MAX_RANK);
    const fixed = this.searchUnsafe(query, depth);
    const main = max > depth ? this.searchUnsafe(query, max) : fixed;
    if (main.length < 2) return main.slice(0, max);
    const slots = Math.min(this.opts.clauseSlots, fixed.length);
    const served = new Set(fixed.slice(0, slots).map((h) => h.name));
    // a repeated name keeps its first (best) place
    const rank = new Map<string, number>();
    fixed.forEach((h, i) => {
      if (!rank.has(h.name)) rank.set(h.name, i);
    });
    const moved: string[] = [];
    for (const clause of clauses) {
      // the clause's own ranking, without the head reranker (fitted on whole requests)
      const own = this.searchUnsafe(clause, CLAUSE_COVER_DEPTH, false);
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

  private searchUnsafe(query: string, limit: number, headStage = true): SearchHit[] {
    const max = typeof limit === 'number' && Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
    if (max === 0 || typeof query !== 'string' || this.size === 0 || query.trim() === '') return [];
    // scratch arrays shared by all searches of this index (no allocation per search); reset in `finally`
    const scores = (this.scratchScores ??= new Float64Array(this.size));
    const qw = (this.scratchQw ??= new Float64Array(this.idf.length));
    const touchedAll = (this.scratchTouched ??= new Int32Array(this.size));
    const listed = (this.scratchListed ??= new Uint8Array(this.size));
    let nTouched = 0;
    const qIds: number[] = [];
    try {
      // the words the request implies, read once for the first stage and the head stage
      const implied = this.opts.impliedWordWeight > 0 ? impliedToolWords(query.slice(0, MAX_ANALYZED_CHARS)) : [];
      const places = this.opts.placeWordWeight > 0 && asksForPlaces(query.slice(0, MAX_ANALYZED_CHARS));
      for (const [t, w] of this.queryTerms(query, implied, places)) {
        const id = this.termIds.get(t);
        if (id === undefined || w <= 0) continue;
        qw[id] = w;
        qIds.push(id);
        for (let i = this.offsets[id]; i < this.offsets[id + 1]; i++) {
          const d = this.postDocs[i];
          if (scores[d] === 0 && listed[d] === 0) {
            listed[d] = 1;
            touchedAll[nTouched++] = d;
          }
          scores[d] += w * this.postWeights[i];
        }
      }
      // name-coverage prior: share of the tool's name parts (idf-weighted, namespace parts less) that the query mentions
      if (this.opts.nameCoverageWeight > 0 && nTouched > 0) {
        let top = 0;
        for (let i = 0; i < nTouched; i++) if (scores[touchedAll[i]] > top) top = scores[touchedAll[i]];
        const bonus = this.opts.nameCoverageWeight * top;
        // only docs whose name holds a query term gain: found through the parts by term, and each
        // summed over its own parts in their order (the same sum as reading every part of every
        // touched doc, where the others add 0)
        const { nameStart, namePartWeights, nameTotals, nameSlotStart, nameSlots, nameSlotDoc } = this;
        const partHit = (this.scratchPartHit ??= new Float64Array(namePartWeights.length));
        const nameHit = (this.scratchNameHit ??= new Uint8Array(this.size));
        const hitDocs: number[] = [];
        for (let k = 0; k < qIds.length; k++) {
          const id = qIds[k];
          const q = Math.min(1, qw[id]);
          for (let i = nameSlotStart[id], end = nameSlotStart[id + 1]; i < end; i++) {
            const j = nameSlots[i];
            const d = nameSlotDoc[j];
            if (!(scores[d] > 0)) continue;
            partHit[j] = namePartWeights[j] * q;
            if (nameHit[d] === 0) {
              nameHit[d] = 1;
              hitDocs.push(d);
            }
          }
        }
        for (let k = 0; k < hitDocs.length; k++) {
          const d = hitDocs[k];
          nameHit[d] = 0;
          const all = nameTotals[d];
          let hit = 0;
          for (let j = nameStart[d], end = nameStart[d + 1]; j < end; j++) {
            hit += partHit[j];
            partHit[j] = 0;
          }
          if (all > 0) scores[d] += (bonus * hit) / all;
        }
      }
      // a tool that says it is deprecated comes after the ones that replace it
      const deprecated = this.deprecated;
      if (deprecated !== undefined && this.opts.deprecatedDemotion > 0) {
        for (let i = 0; i < nTouched; i++) if (deprecated[touchedAll[i]] === 1) scores[touchedAll[i]] *= 1 - this.opts.deprecatedDemotion;
      }
      // exact-name tiers: a query that is a tool's name, title or last dotted segment puts it first
      const tiers = new Map<number, number>();
      if (query.length <= 512) {
        for (const table of [this.verbatim.get(query.trim()), this.normalized.get(nameKey(query))]) {
          for (const packed of table ?? []) {
            const doc = packed >> 3;
            tiers.set(doc, Math.max(packed & 7, tiers.get(doc) ?? 0));
          }
        }
      }
      for (const [doc, tier] of tiers) {
        if (listed[doc] === 0) {
          listed[doc] = 1;
          touchedAll[nTouched++] = doc;
        }
        scores[doc] += tier * TIER_SCORE;
      }
      const touched = touchedAll.subarray(0, nTouched);
      // the semantic stage re-orders the first semanticDepth places of the final ranking, whatever the limit
      const depth = this.opts.semanticDepth;
      const want = Math.max(max, this.semantic !== undefined ? depth : 0, this.headReranker !== undefined ? this.opts.headDepth : 0);
      let hits =
        this.opts.diversity > 0 || this.opts.sameNameDemotion > 0
          ? this.diversify(touched, scores, want, tiers)
          : topK(touched, scores, want);
      if (this.semantic !== undefined && hits.length > 1) {
        const head = hits.slice(0, depth);
        // exact-name matches keep their places above the rest (and their tier scores stay out of the scale)
        if (this.semantic.rerank(query, tiers.size === 0 ? head : head.filter((d) => !tiers.has(d)), scores, this.opts.semanticWeight)) {
          const place = new Map(head.map((d, i) => [d, i]));
          head.sort((a, b) => scores[b] - scores[a] || place.get(a)! - place.get(b)!);
          hits = head.concat(hits.slice(depth));
          // places past the head keep their order: their scores are held at or below the head's last
          for (let i = head.length; i < hits.length; i++) if (scores[hits[i]] > scores[hits[i - 1]]) scores[hits[i]] = scores[hits[i - 1]];
        }
      }
      if (headStage && this.headReranker !== undefined && this.opts.headDepth > 1 && hits.length > 1) {
        // the reranker reads the implied words too, put first so its 1,000-character window holds them
        // (the place words are left out of its text: read there, a geocoding tool takes the first
        // place from the tool a request named, "directions to the Golden Gate Bridge" → geocode_address)
        hits = this.rerankHead(implied.length > 0 ? `${implied.join(' ')} ${query}` : query, hits, scores, tiers);
      }
      if (hits.length > max) hits = hits.slice(0, max);
      return hits.map((d) => ({ name: this.names[d], score: Number.isFinite(scores[d]) ? Math.max(0, scores[d]) : 0 }));
    } finally {
      for (let i = 0; i < nTouched; i++) {
        scores[touchedAll[i]] = 0;
        listed[touchedAll[i]] = 0;
      }
      for (const id of qIds) qw[id] = 0;
    }
  }
}

/**
 * Does a tool's title or description say the tool itself is deprecated? "DEPRECATED" in capitals,
 * "(deprecated)", "deprecated:" or a text that opens with "deprecated", "this tool is deprecated";
 * not a tool about deprecation ("Check if packages are deprecated").
 */
function saysDeprecated(text: unknown): boolean {
  if (typeof text !== 'string' || text === '') return false;
  const t = text.slice(0, 2000);
  return (
    /\bDEPRECATED\b/.test(t) ||
    /\(deprecated\)|\[deprecated\]|\bdeprecated\s*:|^\W*deprecated\b|\b(?:this (?:tool|function|endpoint|method|command|api) is|is now|has been)\s+deprecated\b/i.test(
      t,
    )
  );
}

/** `x` when it is a finite number, else `fallback` (an option left out, NaN or ±Infinity). */
function finiteOr(x: number | undefined, fallback: number): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : fallback;
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
function weightOr(x: number | undefined, fallback: number): number {
  return Math.min(MAX_OPTION_WEIGHT, Math.max(0, finiteOr(x, fallback)));
}

/** A share option (a demotion, a threshold, a field's b): in [0, 1], NaN or an infinity the default. */
function shareOr(x: number | undefined, fallback: number): number {
  return Math.min(1, Math.max(0, finiteOr(x, fallback)));
}

/** A depth option: a whole number in [0, MAX_STAGE_DEPTH] (NaN the default, Infinity the cap). */
function depthOr(x: number | undefined, fallback: number): number {
  const v = typeof x === 'number' && !Number.isNaN(x) ? x : fallback;
  return Math.min(MAX_STAGE_DEPTH, Math.max(0, Math.floor(v)));
}

/**
 * Moves `heap[at]` down a binary heap of `size` entries until neither child comes `first` before
 * it (`first(a, b)`: a belongs nearer the root than b).
 */
function siftHeapDown(heap: Int32Array, size: number, at: number, first: (a: number, b: number) => boolean): void {
  const x = heap[at];
  for (;;) {
    let c = 2 * at + 1;
    if (c >= size) break;
    if (c + 1 < size && first(heap[c + 1], heap[c])) c++;
    if (!first(heap[c], x)) break;
    heap[at] = heap[c];
    at = c;
  }
  heap[at] = x;
}

/** Indices of the `k` highest scores among `docs` (ties: lower index first); a short `docs` is sorted in place. */
function topK(docs: Int32Array, scores: Float64Array, k: number): number[] {
  const byScore = (a: number, b: number): number => scores[b] - scores[a] || a - b;
  if (k <= 0) return [];
  if (docs.length <= k * 4) return Array.from(docs.sort(byScore).subarray(0, k));
  // partial selection: a binary heap of the best k so far with the one ranked last at its root; a
  // doc scoring under the root's score (most docs, once the heap holds good ones) is passed over
  // on one comparison of two numbers, and one that ranks above it takes its place in log k steps
  const heap = new Int32Array(k);
  // does doc a rank after doc b (lower score, or the same score and a higher index)?
  const after = (a: number, b: number): boolean => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  let size = 0;
  let floor = -Infinity;
  for (let n = 0; n < docs.length; n++) {
    const d = docs[n];
    if (size < k) {
      let i = size++;
      heap[i] = d;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!after(heap[i], heap[p])) break;
        heap[i] = heap[p];
        heap[p] = d;
        i = p;
      }
      if (size === k) floor = scores[heap[0]];
      continue;
    }
    if (scores[d] < floor || !after(heap[0], d)) continue;
    heap[0] = d;
    siftHeapDown(heap, k, 0, after);
    floor = scores[heap[0]];
  }
  return Array.from(heap.subarray(0, size)).sort(byScore);
}
