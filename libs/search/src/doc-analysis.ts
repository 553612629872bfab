// Step 1 of a ToolIndex build: every field of every tool analysed into term ids, with the
// lengths, document frequencies, name parts and exact-name tiers the postings are made from.
import { lastSegment, splitQualifiedName, stem } from '@toolsurface/analysis';
import { analyzeInto, identifierParts, namePartWords, nameKey, type AnalyzeOptions } from './tokenize.js';
import { STOP_WORDS } from './stopwords.js';
import type { SearchableTool } from './types.js';
import { DEFAULTS } from './data/ranking-defaults.js';
import { FIELDS, weightOr, type ToolIndexOptions } from './tool-index-options.js';

// One CJK character (Han, kana, Hangul): the analyzer's unigram terms.
export const CJK_SINGLE_RE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
// Two CJK characters: the analyzer's bigram terms.
export const CJK_PAIR_RE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}$/u;

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

/** Most characters of one tool text (description, parameter description…) that are indexed. */
const MAX_DOC_CHARS = 32_000;

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
 * Step 1 of a ToolIndex build, resumable: every field of every tool analysed into one flat run of
 * term ids (field fi of doc d is flat[bounds[d * nf + fi] .. bounds[d * nf + fi + 1])), with the
 * per-field lengths, document frequencies, name parts and exact-name tiers the rest of the build
 * reads. `run(deadline)` analyses tools until all are done or the deadline has passed, so that
 * ToolIndex.buildAsync can give the event loop back between slices: a 10,000-tool snapshot holds it
 * for about 0.9 s in one piece, and every other request of the replica, health checks included, waits.
 * (Indexed loops rather than for-of here and in the helpers: a new replica's first build runs
 * largely on unoptimized code, where every for-of step allocates an iterator result.)
 */
export class DocAnalysis {
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
