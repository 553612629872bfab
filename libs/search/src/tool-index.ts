// ToolIndex: BM25F over a tool's fields, plus a name-coverage prior and exact-name tiers.
// Design of each part: libs/search/README.md "Ranking"; measured effects: docs/decisions/search-*.md.
// The build's analysis (doc-analysis.ts), postings (bm25f.ts), query terms (query-terms.ts),
// near-duplicate demotion (near-duplicates.ts) and clause guarantee (clause-guarantee.ts) are
// modules of their own; the options and their defaults are tool-index-options.ts and
// data/ranking-defaults.ts.
import { nameKey } from './tokenize.js';
import { buildSynonymMap, CJK_TERMS, DEFAULT_RELATED, DEFAULT_SYNONYMS } from './synonyms.js';
import type { SearchableTool, SearchHit } from './types.js';
import { asksForPlaces, impliedToolWords } from './value-types.js';
import { sharedEncoder } from './semantic.js';
import { SemanticReranker } from './semantic-rerank.js';
import { MAX_ANALYZED_CHARS } from './tokenize.js';
import {
  FIELDS,
  finiteOr,
  resolveOptions,
  type HeadReranker,
  type IndexTermStats,
  type ResolvedOptions,
  type ToolIndexOptions,
} from './tool-index-options.js';
import { DocAnalysis } from './doc-analysis.js';
import { bm25fPostings } from './bm25f.js';
import { topK } from './top-k.js';
import { queryTerms, type QueryTermSource } from './query-terms.js';
import { NearDuplicates } from './near-duplicates.js';
import { searchByClause, type ClauseSearch } from './clause-guarantee.js';
import { saysDeprecated } from './deprecation.js';
import { rerankHead, type HeadStage } from './head-stage.js';

export { MAX_OPTION_WEIGHT, MAX_STAGE_DEPTH } from './tool-index-options.js';
export type { HeadReranker, IndexTermStats, ToolField, ToolIndexOptions } from './tool-index-options.js';
export { SELECTION_RETRIEVAL_OPTIONS } from './data/ranking-defaults.js';

/** Score added per exact-match tier (verbatim name 4, normalized name 3, title 2, last dotted segment 1), above any BM25F score. */
const TIER_SCORE = 1e6;

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
  /** docs below this index have their signature (made by `warm`, or already by a search) */
  private signed = 0;
  /** content signatures and near-duplicate demotion */
  private readonly near: NearDuplicates;
  /** what queryTerms reads of this index */
  private readonly termSource: QueryTermSource;
  /** what the clause guarantee reads of this index */
  private readonly clauseSearch: ClauseSearch;
  /** per doc: id of its normalized base name (nameKey of the name without qualifiers); equal ids = same-named tools */
  private readonly baseNameIds: Int32Array;
  /** verbatim name (and base of a qualified name) → docs · 8 + tier 4 */
  private readonly verbatim: Map<string, number[]>;
  /** nameKey of base name (tier 3, and the same without its spaces: "getweather"), title (2), last dotted segment (1) → docs · 8 + tier */
  private readonly normalized: Map<string, number[]>;
  private readonly synonyms: Map<string, string[]>;
  private readonly related: Map<string, string[]>;
  private readonly translations: Map<string, string[]>;
  private readonly opts: ResolvedOptions;
  /** the semantic stage, when on */
  private readonly semantic: SemanticReranker | undefined;
  /** the learned second stage, when given */
  private readonly headReranker: HeadReranker | undefined;
  /** what the head stage reads of this index, when a head reranker is given */
  private readonly headStage: HeadStage | undefined;
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
  /** whether a search runs (a search it calls, through a head reranker, takes scratch arrays of its own) */
  private searching = false;

  private constructor(tools: readonly SearchableTool[], options: ToolIndexOptions, analysis?: DocAnalysis) {
    this.opts = resolveOptions(options);
    this.headReranker = options.headReranker;
    this.synonyms = options.synonyms === false ? new Map() : buildSynonymMap(options.synonyms ?? DEFAULT_SYNONYMS);
    this.translations =
      options.synonyms === false || options.translations === false ? new Map() : buildSynonymMap(options.translations ?? CJK_TERMS);
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
    this.headStage =
      this.headReranker === undefined
        ? undefined
        : {
            reranker: this.headReranker,
            depth: this.opts.headDepth,
            names: this.names,
            termStats: this.termStats,
            deprecated: this.deprecated,
            deprecatedDemotion: this.opts.deprecatedDemotion,
          };
    this.near = new NearDuplicates(this.flat, bounds, this.baseNameIds, nTermsAll);
    this.termSource = {
      termIds: this.termIds,
      idf: this.idf,
      synonyms: this.synonyms,
      related: this.related,
      translations: this.translations,
      opts: this.opts,
    };
    this.clauseSearch = {
      clauseSlots: this.opts.clauseSlots,
      termIds: this.termIds,
      searchUnsafe: (q, l, headStage) => this.searchUnsafe(q, l, headStage),
    };

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

  /**
   * Does, for up to `budgetMs` milliseconds, the per-tool work that searches otherwise do when a
   * tool first reaches a head: its semantic encoding and its content signature (near-duplicate
   * demotion). Call it between requests after a build (the discovery service does, in short
   * slices); searches give the same results either way.
   * @returns true when nothing is left to do
   */
  warm(budgetMs: number): boolean {
    const end = performance.now() + Math.max(0, budgetMs);
    while (this.signed < this.size && performance.now() < end) this.near.signature(this.signed++);
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
      return this.opts.clauseSlots > 0 ? searchByClause(this.clauseSearch, query, limit) : this.searchUnsafe(query, limit);
    } catch {
      return [];
    }
  }

  /**
   * Runs a search started from within another (a head reranker that searches this index) on
   * scratch arrays of its own, and gives the outer search its arrays back as it left them.
   */
  private withOwnScratch<T>(run: () => T): T {
    const { scratchScores, scratchTouched, scratchListed, scratchQw, scratchPartHit, scratchNameHit } = this;
    this.scratchScores = this.scratchQw = this.scratchPartHit = undefined;
    this.scratchTouched = undefined;
    this.scratchListed = this.scratchNameHit = undefined;
    try {
      return run();
    } finally {
      Object.assign(this, { scratchScores, scratchTouched, scratchListed, scratchQw, scratchPartHit, scratchNameHit });
    }
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
      for (const [t, w] of queryTerms(this.termSource, query, implied, places)) {
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
          ? this.near.diversify(touched, scores, want, tiers, this.opts)
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
        hits = rerankHead(this.headStage!, implied.length > 0 ? `${implied.join(' ')} ${query}` : query, hits, scores, tiers);
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
