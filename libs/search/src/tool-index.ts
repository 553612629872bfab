// ToolIndex: BM25F over a tool's fields, plus a name-coverage prior and exact-name tiers.
// Design and measured effect of each part: libs/search/README.md.
import { analyze, identifierParts, nameKey, stem, WHOLE_PREFIX } from './tokenize.js';
import { STOP_WORDS } from './stopwords.js';
import { buildSynonymMap, DEFAULT_SYNONYMS } from './synonyms.js';
import type { SearchableTool, SearchHit } from './types.js';

/** The fields ToolIndex weighs separately. */
export type ToolField = 'name' | 'title' | 'description' | 'params' | 'paramDescriptions';

const FIELDS: readonly ToolField[] = ['name', 'title', 'description', 'params', 'paramDescriptions'];

/** Tuning knobs of ToolIndex; every one optional (defaults were measured on the eval dev split, see README). */
export interface ToolIndexOptions {
  /** BM25 term-frequency saturation (default 1.2). */
  k1?: number;
  /** Per-field weight on the term frequency (BM25F). */
  fieldWeights?: Partial<Record<ToolField, number>>;
  /** Per-field length normalisation b in [0, 1]. */
  fieldB?: Partial<Record<ToolField, number>>;
  /** Query-side synonym groups (words, not stems); `false` turns expansion off. Default: DEFAULT_SYNONYMS. */
  synonyms?: readonly (readonly string[])[] | false;
  /** Weight of a term added by synonym expansion, relative to a query's own term (default 0.4). */
  synonymWeight?: number;
  /** Bonus for covering the tool's name parts, in units of the top BM25F score (default 0.3). */
  nameCoverageWeight?: number;
  /** Weight of adjacent name-part pairs ("current weather") matched as a phrase (default 1). */
  nameBigramWeight?: number;
  /** Most distinct query terms scored; the rarest are kept (default 64). */
  maxQueryTerms?: number;
}

const DEFAULTS = {
  k1: 1.2,
  fieldWeights: { name: 3, title: 2, description: 1, params: 1, paramDescriptions: 0.3 } as Record<ToolField, number>,
  fieldB: { name: 0.3, title: 0.3, description: 0.75, params: 0.5, paramDescriptions: 0.75 } as Record<ToolField, number>,
  synonymWeight: 0.4,
  nameCoverageWeight: 0.3,
  nameBigramWeight: 1,
  maxQueryTerms: 64,
};

/** Score added per exact-match tier (full name 3, title 2, last dotted segment 1), above any BM25F score. */
const TIER_SCORE = 1e6;

/** Prefix of a name-bigram term (adjacent stemmed name parts). */
const BIGRAM_PREFIX = '~';

interface Posting {
  docs: Int32Array;
  /** per doc: saturated BM25F term weight × idf */
  weights: Float64Array;
}

/** Property schemas (name → schema) of a JSON Schema object, following `properties`, `items`, and combinators. */
function collectParams(schema: unknown, out: { names: string[]; texts: string[] }, depth = 0): void {
  if (depth > 6 || schema === null || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  const props = s['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [key, sub] of Object.entries(props as Record<string, unknown>)) {
      out.names.push(key);
      if (sub !== null && typeof sub === 'object') {
        const d = (sub as Record<string, unknown>)['description'];
        if (typeof d === 'string') out.texts.push(d);
        const e = (sub as Record<string, unknown>)['enum'];
        if (Array.isArray(e)) for (const v of e) if (typeof v === 'string') out.texts.push(v);
      }
      collectParams(sub, out, depth + 1);
    }
  }
  if (s['items'] !== undefined) collectParams(s['items'], out, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[k];
    if (Array.isArray(list)) for (const sub of list) collectParams(sub, out, depth + 1);
  }
}

/** Stemmed, stop-filtered name parts of an identifier, in order. */
function nameTerms(name: string): string[] {
  return identifierParts(name)
    .filter((p) => !STOP_WORDS.has(p))
    .map(stem);
}

/** Adjacent pairs of a term list as bigram terms. */
function bigrams(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < terms.length; i++) out.push(BIGRAM_PREFIX + terms[i] + ' ' + terms[i + 1]);
  return out;
}

// A content-hash or version-stamp segment of a qualified name ("10fae9e4"): 6+ hex digits with at least one digit.
const HASH_SEGMENT_RE = /^(?=[^\d]*\d)[0-9a-f]{6,}$/i;

/**
 * A qualified name split on ':' ("server:tool", "bfcl:math.factorial:10fae9e4"): `base` is the last
 * segment that is not a hash (the tool's own name), `qualifiers` the other non-hash segments.
 */
export function splitQualifiedName(name: string): { base: string; qualifiers: string[] } {
  const segs = name.split(':').filter((s) => s !== '' && !HASH_SEGMENT_RE.test(s));
  if (segs.length === 0) return { base: name, qualifiers: [] };
  return { base: segs[segs.length - 1], qualifiers: segs.slice(0, -1) };
}

/** Last segment of a dotted name ("math.factorial" → "factorial"), or undefined. */
function lastSegment(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1) : undefined;
}

/** Search index over an immutable snapshot of tools: BM25F + name prior + exact-name tiers. */
export class ToolIndex {
  /** Number of tools indexed. */
  readonly size: number;
  private readonly names: string[];
  private readonly postings = new Map<string, Posting>();
  private readonly idf = new Map<string, number>();
  private readonly docNameTerms: string[][];
  private readonly exact = new Map<string, { doc: number; tier: number }[]>();
  private readonly synonyms: Map<string, string[]>;
  private readonly opts: typeof DEFAULTS;

  private constructor(tools: readonly SearchableTool[], options: ToolIndexOptions) {
    this.opts = {
      k1: options.k1 ?? DEFAULTS.k1,
      fieldWeights: { ...DEFAULTS.fieldWeights, ...options.fieldWeights },
      fieldB: { ...DEFAULTS.fieldB, ...options.fieldB },
      synonymWeight: options.synonymWeight ?? DEFAULTS.synonymWeight,
      nameCoverageWeight: options.nameCoverageWeight ?? DEFAULTS.nameCoverageWeight,
      nameBigramWeight: options.nameBigramWeight ?? DEFAULTS.nameBigramWeight,
      maxQueryTerms: options.maxQueryTerms ?? DEFAULTS.maxQueryTerms,
    };
    this.synonyms = options.synonyms === false ? new Map() : buildSynonymMap(options.synonyms ?? DEFAULT_SYNONYMS);
    this.size = tools.length;
    this.names = tools.map((t) => String(t.name));
    this.docNameTerms = [];

    // 1. analyze every field of every tool
    const fieldTf: Map<string, number>[][] = [];
    const fieldLen: number[][] = [];
    const sumLen = FIELDS.map(() => 0);
    tools.forEach((tool, doc) => {
      const params = { names: [] as string[], texts: [] as string[] };
      collectParams(tool.inputSchema, params);
      const { base, qualifiers } = splitQualifiedName(this.names[doc]);
      const nTerms = nameTerms(base);
      this.docNameTerms.push([...new Set(nTerms)]);
      const terms: Record<ToolField, string[]> = {
        name: [...qualifiers.flatMap((q) => analyze(q)), ...analyze(base), ...bigrams(nTerms)],
        title: analyze(tool.title ?? ''),
        description: analyze(tool.description ?? ''),
        params: params.names.flatMap((p) => analyze(p)),
        paramDescriptions: analyze(params.texts.join(' \n ')),
      };
      fieldTf.push(
        FIELDS.map((f) => {
          const m = new Map<string, number>();
          for (const t of terms[f]) m.set(t, (m.get(t) ?? 0) + 1);
          return m;
        }),
      );
      fieldLen.push(FIELDS.map((f, i) => ((sumLen[i] += terms[f].length), terms[f].length)));
      this.addExact(nameKey(this.names[doc]), doc, 3);
      if (base !== this.names[doc]) this.addExact(nameKey(base), doc, 3);
      if (typeof tool.title === 'string') this.addExact(nameKey(tool.title), doc, 2);
      const last = lastSegment(base);
      if (last !== undefined) this.addExact(nameKey(last), doc, 1);
    });

    // 2. document frequency over the union of fields, then BM25F weights per (term, doc)
    const n = tools.length;
    const avgLen = sumLen.map((s) => (n > 0 ? Math.max(s / n, 1) : 1));
    const df = new Map<string, number>();
    for (const perField of fieldTf) {
      const seen = new Set<string>();
      for (const m of perField) for (const t of m.keys()) seen.add(t);
      for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
    }
    for (const [t, d] of df) this.idf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    const k1 = this.opts.k1;
    const acc = new Map<string, { docs: number[]; weights: number[] }>();
    fieldTf.forEach((perField, doc) => {
      const pseudo = new Map<string, number>();
      perField.forEach((m, fi) => {
        const f = FIELDS[fi];
        const w = this.opts.fieldWeights[f];
        if (w <= 0) return;
        const b = this.opts.fieldB[f];
        const norm = 1 - b + (b * fieldLen[doc][fi]) / avgLen[fi];
        for (const [t, tf] of m) pseudo.set(t, (pseudo.get(t) ?? 0) + (w * tf) / norm);
      });
      for (const [t, tf] of pseudo) {
        let p = acc.get(t);
        if (!p) acc.set(t, (p = { docs: [], weights: [] }));
        p.docs.push(doc);
        p.weights.push((this.idf.get(t) ?? 0) * ((tf * (k1 + 1)) / (tf + k1)));
      }
    });
    for (const [t, p] of acc) this.postings.set(t, { docs: Int32Array.from(p.docs), weights: Float64Array.from(p.weights) });
  }

  /** Index a snapshot of tools; names should be unique (a repeated name is indexed as separate tools). */
  static build(tools: readonly SearchableTool[], options: ToolIndexOptions = {}): ToolIndex {
    return new ToolIndex(Array.isArray(tools) ? tools : [], options ?? {});
  }

  private addExact(key: string, doc: number, tier: number): void {
    if (key === '') return;
    let list = this.exact.get(key);
    if (!list) this.exact.set(key, (list = []));
    list.push({ doc, tier });
  }

  /** Weighted query terms: own terms weight 1, name-part bigrams, synonyms at synonymWeight; capped to the rarest maxQueryTerms. */
  private queryTerms(query: string): Map<string, number> {
    const terms = new Map<string, number>();
    const own = analyze(query);
    for (const t of own) terms.set(t, 1);
    // bigrams over the plain word sequence (not whole-identifier tokens, not CJK)
    const words = own.filter((t) => !t.startsWith(WHOLE_PREFIX));
    if (this.opts.nameBigramWeight > 0) {
      for (const bg of bigrams(words)) if (this.postings.has(bg)) terms.set(bg, this.opts.nameBigramWeight);
    }
    if (this.opts.synonymWeight > 0) {
      for (const t of words) {
        for (const s of this.synonyms.get(t) ?? []) {
          if (!terms.has(s)) terms.set(s, this.opts.synonymWeight);
        }
      }
    }
    if (terms.size > this.opts.maxQueryTerms) {
      const kept = [...terms.entries()]
        .filter(([t]) => this.postings.has(t))
        .sort((a, b) => (this.idf.get(b[0]) ?? 0) * b[1] - (this.idf.get(a[0]) ?? 0) * a[1])
        .slice(0, this.opts.maxQueryTerms);
      return new Map(kept);
    }
    return terms;
  }

  /** Ranked hits, best first, at most `limit`; never throws (non-string or empty query → []). */
  search(query: string, limit: number): SearchHit[] {
    try {
      return this.searchUnsafe(query, limit);
    } catch {
      return [];
    }
  }

  private searchUnsafe(query: string, limit: number): SearchHit[] {
    const max = typeof limit === 'number' && Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
    if (max === 0 || typeof query !== 'string' || this.size === 0) return [];
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
    const qTerms = this.queryTerms(query);
    for (const [t, qw] of qTerms) {
      const p = this.postings.get(t);
      if (!p) continue;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        if (scores[d] === 0) touched.push(d);
        scores[d] += qw * p.weights[i];
      }
    }
    // name-coverage prior: share of the tool's name parts (idf-weighted) that the query mentions
    if (this.opts.nameCoverageWeight > 0 && touched.length > 0) {
      let top = 0;
      for (const d of touched) if (scores[d] > top) top = scores[d];
      const bonus = this.opts.nameCoverageWeight * top;
      for (const d of touched) {
        const parts = this.docNameTerms[d];
        if (parts.length === 0) continue;
        let hit = 0;
        let all = 0;
        for (const t of parts) {
          const w = this.idf.get(t) ?? 0;
          all += w;
          if (qTerms.has(t)) hit += w * Math.min(1, qTerms.get(t) ?? 0);
        }
        if (all > 0) scores[d] += (bonus * hit) / all;
      }
    }
    // exact-name tiers: a query that is a tool's name, title or last dotted segment puts it first
    const key = query.length <= 512 ? nameKey(query) : '';
    const tiers = new Map<number, number>();
    for (const { doc, tier } of this.exact.get(key) ?? []) tiers.set(doc, Math.max(tier, tiers.get(doc) ?? 0));
    for (const [doc, tier] of tiers) {
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += tier * TIER_SCORE;
    }
    const hits = topK(touched, scores, max);
    return hits.map((d) => ({ name: this.names[d], score: Number.isFinite(scores[d]) ? Math.max(0, scores[d]) : 0 }));
  }
}

/** Indices of the `k` highest scores among `docs` (ties: lower index first). */
function topK(docs: number[], scores: Float64Array, k: number): number[] {
  const byScore = (a: number, b: number): number => scores[b] - scores[a] || a - b;
  if (docs.length <= k * 4) return docs.sort(byScore).slice(0, k);
  // partial selection: keep a sorted buffer of the best k
  const best: number[] = [];
  for (const d of docs) {
    if (best.length < k) {
      best.push(d);
      if (best.length === k) best.sort(byScore);
      continue;
    }
    if (byScore(d, best[k - 1]) < 0) {
      let i = k - 1;
      while (i > 0 && byScore(d, best[i - 1]) < 0) {
        best[i] = best[i - 1];
        i--;
      }
      best[i] = d;
    }
  }
  return best.length < k ? best.sort(byScore) : best;
}
