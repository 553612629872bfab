// The plain peer of the eval data's README.md ("Reference numbers"): Okapi BM25, k1 0.9, b 0.4,
// one bag of words per tool over name + description + parameter names, identifiers (name and
// parameter names) split on `._-` and camelCase, text lower-cased into runs of letters/digits,
// Lucene's 33 English stop words dropped, Porter-stemmed, each distinct query term counted once.
// The analyzer details are not in the README; this combination (Pyserini's default English
// analyzer with its k1/b) reproduces the README's all-dev NDCG@10 (0.669) and MetaTool NDCG@10
// (0.496) to the third decimal.
import { stemmer } from 'stemmer';
import { splitQualifiedName } from '@toolsurface/analysis';
import type { SearchableTool, SearchHit } from './types.js';

/** BM25 term-frequency saturation of the README's peer (Pyserini's default). */
const K1 = 0.9;
/** BM25 length normalisation of the README's peer (Pyserini's default). */
const B = 0.4;

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (33 words). */
const LUCENE_STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/** Lower-case runs of letters/digits, stop words dropped, Porter-stemmed. */
function plainTerms(text: string): string[] {
  // runs of letters, marks and digits are words; everything else (incl. . _ -) separates
  const words = text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return words.filter((w) => !LUCENE_STOP.has(w)).map((w) => stemmer(w));
}

/** An identifier's terms: camelCase boundaries opened up, then as plainTerms. */
function identifierTerms(id: string): string[] {
  const spaced = id
    // lower/digit→Upper boundary: "getWeather" → "get Weather"
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    // acronym→Word boundary: "HTTPServer" → "HTTP Server"
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return plainTerms(spaced);
}

/** Parameter names of a JSON Schema's top-level `properties`. */
function paramNames(schema: Record<string, unknown> | undefined): string[] {
  const props = schema?.['properties'];
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return [];
  return Object.keys(props);
}

/** Okapi BM25 peer (k1 0.9, b 0.4) exactly as the eval README describes it. */
export class Bm25Baseline {
  private readonly names: string[];
  private readonly docLen: Float64Array;
  private readonly avgLen: number;
  /** term → parallel arrays of doc ids and term frequencies */
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();

  private constructor(tools: readonly SearchableTool[]) {
    this.names = tools.map((t) => t.name);
    this.docLen = new Float64Array(tools.length);
    let total = 0;
    tools.forEach((tool, doc) => {
      const tokens = [
        // a qualified id ("bfcl:math.factorial:10fae9e4") contributes only the tool's own name
        ...identifierTerms(splitQualifiedName(String(tool.name)).base),
        ...plainTerms(typeof tool.description === 'string' ? tool.description : ''),
        ...paramNames(tool.inputSchema).flatMap(identifierTerms),
      ];
      this.docLen[doc] = tokens.length;
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        let p = this.postings.get(term);
        if (!p) this.postings.set(term, (p = { docs: [], tfs: [] }));
        p.docs.push(doc);
        p.tfs.push(n);
      }
    });
    this.avgLen = tools.length > 0 ? total / tools.length : 1;
  }

  /** Index the tools (one document each, in the given order). */
  static build(tools: readonly SearchableTool[]): Bm25Baseline {
    return new Bm25Baseline(tools);
  }

  /** Top `limit` tools by BM25 (Lucene idf: ln(1 + (N - df + 0.5) / (df + 0.5))); ties keep corpus order. */
  search(query: string, limit: number): SearchHit[] {
    const max = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
    if (max === 0 || typeof query !== 'string') return [];
    const n = this.names.length;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    // each distinct query term counts once (camelCase in the query is opened up as in names)
    for (const term of new Set(identifierTerms(query.slice(0, 20_000)))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const df = p.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        const tf = p.tfs[i];
        const norm = tf + K1 * (1 - B + (B * this.docLen[d]) / this.avgLen);
        if (scores[d] === 0) touched.push(d);
        scores[d] += (idf * tf * (K1 + 1)) / norm;
      }
    }
    touched.sort((a, b) => scores[b] - scores[a] || a - b);
    return touched.slice(0, max).map((d) => ({ name: this.names[d], score: scores[d] }));
  }
}
