// Loading and scoring the public eval data ($TOOLSURFACE_EVAL_DIR or ../shared/eval, format in its README.md).
// Used by the eval scripts (tools/search, tools/mapper, test/eval) and the tests; not part of the package's runtime API.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mrrAtK, ndcgAtK, recallAtK } from './metrics.js';
import type { SearchableTool, SearchHit } from './types.js';

/**
 * Default eval folder: $TOOLSURFACE_EVAL_DIR where set, else ../shared/eval beside the repository
 * (tools/eval-kit/src → ../../../../shared/eval), where the workspace keeps it.
 */
export const DEFAULT_EVAL_DIR = process.env.TOOLSURFACE_EVAL_DIR
  ? resolve(process.env.TOOLSURFACE_EVAL_DIR)
  : resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/eval');

/** One corpus record (eval README "Record formats"). */
export interface CorpusRecord {
  id: string;
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  source: string;
}

/** One query record; only the fields retrieval scoring needs. */
export interface QueryRecord {
  id: string;
  query: string;
  relevant: string[];
  source: string;
}

/** Parse a JSON-lines file (blank lines skipped). */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Corpus as searchable tools keyed by the unique `id` (names repeat), plus the id → original name map. */
export function corpusAsTools(records: readonly CorpusRecord[]): { tools: SearchableTool[]; nameOf: Map<string, string> } {
  const nameOf = new Map<string, string>();
  const tools = records.map((r) => {
    nameOf.set(r.id, r.name);
    return { name: r.id, description: r.description, inputSchema: r.parameters } satisfies SearchableTool;
  });
  return { tools, nameOf };
}

/** Anything that ranks tools for a query (ToolIndex, Bm25Baseline). */
export interface Searcher {
  search(query: string, limit: number): SearchHit[];
}

/** Mean metrics of one slice. */
export interface SliceMetrics {
  n: number;
  r1: number;
  r5: number;
  r10: number;
  ndcg10: number;
  mrr10: number;
}

/** Per-query metrics and per-slice means ('all' plus the keys slicesOf gives a query's source) of one engine; hits mapped id → name. */
export function evaluate(
  engine: Searcher,
  queries: readonly QueryRecord[],
  nameOf: ReadonlyMap<string, string>,
  slicesOf: (source: string) => string[] = (source) => [sliceName(source)],
): { slices: Map<string, SliceMetrics>; perQuery: { q: QueryRecord; ranked: string[]; ndcg10: number; r5: number }[] } {
  const sums = new Map<string, SliceMetrics>();
  const perQuery: { q: QueryRecord; ranked: string[]; ndcg10: number; r5: number }[] = [];
  const add = (key: string, m: Omit<SliceMetrics, 'n'>): void => {
    const s = sums.get(key) ?? { n: 0, r1: 0, r5: 0, r10: 0, ndcg10: 0, mrr10: 0 };
    s.n += 1;
    s.r1 += m.r1;
    s.r5 += m.r5;
    s.r10 += m.r10;
    s.ndcg10 += m.ndcg10;
    s.mrr10 += m.mrr10;
    sums.set(key, s);
  };
  for (const q of queries) {
    const ranked = engine.search(q.query, 10).map((h) => nameOf.get(h.name) ?? h.name);
    const m = {
      r1: recallAtK(ranked, q.relevant, 1),
      r5: recallAtK(ranked, q.relevant, 5),
      r10: recallAtK(ranked, q.relevant, 10),
      ndcg10: ndcgAtK(ranked, q.relevant, 10),
      mrr10: mrrAtK(ranked, q.relevant, 10),
    };
    perQuery.push({ q, ranked, ndcg10: m.ndcg10, r5: m.r5 });
    add('all', m);
    for (const key of new Set(slicesOf(q.source))) if (key !== 'all') add(key, m);
  }
  for (const s of sums.values()) {
    s.r1 /= s.n;
    s.r5 /= s.n;
    s.r10 /= s.n;
    s.ndcg10 /= s.n;
    s.mrr10 /= s.n;
  }
  return { slices: sums, perQuery };
}

/** README slices: BFCL non-live, BFCL live, LiveMCPBench, MetaTool; anything else keeps its source. */
export function sliceName(source: string): string {
  if (source.startsWith('livemcpbench')) return 'livemcpbench';
  if (source.startsWith('bfcl_v4:live')) return 'bfcl-live';
  if (source.startsWith('bfcl_v4:')) return 'bfcl-nonlive';
  if (source.startsWith('metatool')) return 'metatool';
  return source;
}

/** FNV-1a 32-bit hash of a string: splits eval queries into halves and folds by their id, reproducibly. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
