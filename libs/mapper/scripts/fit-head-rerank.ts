/**
 * Fits the head reranker of discover_tools (src/head-rerank.ts) on the shared dev data and
 * rewrites src/head-rerank-weights.ts. Run from /work/main:
 *
 *   npx tsx libs/mapper/scripts/fit-head-rerank.ts            # fit, cross-validated report, write
 *   npx tsx libs/mapper/scripts/fit-head-rerank.ts --dry-run  # report only
 *
 * Data: the main dev queries over the whole corpus as one snapshot (tool names = corpus ids, a
 * hit scored by the original `name`), and every METATOOL_STRIDE-th MetaTool dev query over the
 * MetaTool corpus (so the model also learns from descriptions without parameter schemas). Each
 * query is searched with ToolIndex's defaults, as the discovery service's embedded backend does,
 * through a recording head reranker: the features are exactly those the stage sees at run time.
 *
 * Model: listwise softmax over the head (fit-lib.ts), positives the tools whose name is relevant.
 * Report: 5-fold cross-validation by query (FNV-1a of the query id), pooled out of fold, beside
 * the search without the stage and the fit on all data in sample.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ToolIndex, readJsonl, fnv1a, corpusAsTools, sliceName, ndcgAtK, recallAtK, type CorpusRecord, type RetrievalQueryRecord, type SearchHit, type IndexTermStats } from '@toolsurface/search';
import { LexicalHeadReranker, HEAD_FEATURE_NAMES } from '../src/head-rerank.js';
import { fitListwise, type ListExample } from './fit-lib.js';

const EVAL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/eval');
/** Every n-th MetaTool query is used (12,594 in all; 3,149 at 4). */
const METATOOL_STRIDE = Number(process.env.FIT_MT_STRIDE ?? 4);
/**
 * L2 strength. 5-fold CV all-dev NDCG@10 on 2026-12-01 (300 steps): 1e-2 0.8011, 1e-3 0.8028,
 * 1e-4 0.8049, 1e-5 0.8046; 1e-4 with 600 steps 0.8051. 1e-4 is inside the plateau.
 */
const L2 = Number(process.env.FIT_L2 ?? 1e-4);
/** Gradient steps (Adam, rate 0.05). */
const ITERS = Number(process.env.FIT_ITERS ?? 300);
const K = 5;

/** One searched query: its head's features and the whole ranking around it. */
interface Row { q: RetrievalQueryRecord; set: 'main' | 'metatool'; ranked: string[]; head: string[]; feats: number[][]; nameOf: Map<string, string> }

/** Searches every query of one corpus, recording the head the stage would see. */
function searchAll(corpusPath: string, queries: RetrievalQueryRecord[], set: Row['set']): Row[] {
  const { tools, nameOf } = corpusAsTools(readJsonl<CorpusRecord>(corpusPath));
  const stage = new LexicalHeadReranker(tools, { featureNames: HEAD_FEATURE_NAMES, weights: HEAD_FEATURE_NAMES.map(() => 0) });
  let seen: { head: string[]; feats: number[][] } | undefined;
  const recorder = {
    rerank(query: string, head: readonly SearchHit[], stats: IndexTermStats): undefined {
      const f = stage.features(query, head, stats);
      seen = { head: head.map((h) => h.name), feats: f.map((x) => x ?? HEAD_FEATURE_NAMES.map(() => 0)) };
      return undefined;
    },
  };
  const index = ToolIndex.build(tools, { headReranker: recorder });
  return queries.map((q) => {
    seen = undefined;
    const ranked = index.search(q.query, 100).map((h) => h.name);
    // (set by the recorder during the search)
    const got = seen as { head: string[]; feats: number[][] } | undefined;
    return { q, set, ranked, head: got?.head ?? [], feats: got?.feats ?? [], nameOf };
  });
}

/** The ranking with the head re-ordered by weights `w` (head places keep their slots, as at run time). */
function reorder(r: Row, w: readonly number[] | undefined): string[] {
  if (!w || r.head.length < 2) return r.ranked;
  const s = r.feats.map((f) => f.reduce((a, x, i) => a + x * w[i], 0));
  const order = r.head.map((_, i) => i).sort((a, b) => s[b] - s[a] || a - b).map((i) => r.head[i]);
  const inHead = new Set(r.head);
  let k = 0;
  return r.ranked.map((n) => (inHead.has(n) ? order[k++] : n));
}

/** Mean of a list. */
const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Figures of a set of rankings. */
function figures(rows: Row[], weightsFor: (r: Row) => readonly number[] | undefined): { ndcg10: number; recall5: number; liveMcp: number; metatool: number } {
  const all: number[] = [];
  const r5: number[] = [];
  const live: number[] = [];
  const mt: number[] = [];
  for (const r of rows) {
    const ranked = reorder(r, weightsFor(r)).map((n) => r.nameOf.get(n) ?? n);
    const nd = ndcgAtK(ranked, r.q.relevant, 10);
    if (r.set === 'metatool') {
      mt.push(nd);
      continue;
    }
    all.push(nd);
    r5.push(recallAtK(ranked, r.q.relevant, 5));
    if (sliceName(r.q.source) === 'livemcpbench') live.push(nd);
  }
  return { ndcg10: mean(all), recall5: mean(r5), liveMcp: mean(live), metatool: mean(mt) };
}

/** Listwise fit on some rows. */
function fit(rows: Row[]): number[] {
  const examples: ListExample[] = rows.map((r) => ({ feats: r.feats, target: r.head.map((n) => (r.q.relevant.includes(r.nameOf.get(n) ?? n) ? 1 : 0)) }));
  return fitListwise(examples, HEAD_FEATURE_NAMES.length, { l2: L2, iters: ITERS, lr: 0.05 });
}

const t0 = Date.now();
const mainQueries = readJsonl<RetrievalQueryRecord>(resolve(EVAL_DIR, 'queries.dev.jsonl'));
const mtQueries = readJsonl<RetrievalQueryRecord>(resolve(EVAL_DIR, 'metatool/queries.dev.jsonl')).filter((_, i) => i % METATOOL_STRIDE === 0);
const rows = [...searchAll(resolve(EVAL_DIR, 'corpus.jsonl'), mainQueries, 'main'), ...searchAll(resolve(EVAL_DIR, 'metatool/corpus.jsonl'), mtQueries, 'metatool')];
console.error(`[fit] searched ${rows.length} queries in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
const foldOf = (r: Row): number => fnv1a(r.q.id) % K;
const foldWeights = Array.from({ length: K }, (_, k) => fit(rows.filter((r) => foldOf(r) !== k)));
const wAll = fit(rows);
const before = figures(rows, () => undefined);
const cv = figures(rows, (r) => foldWeights[foldOf(r)]);
const inSample = figures(rows, () => wAll);
const f4 = (x: number): string => x.toFixed(4);
const line = (x: ReturnType<typeof figures>): string => `all-dev NDCG@10 ${f4(x.ndcg10)}  Recall@5 ${f4(x.recall5)}  LiveMCPBench NDCG@10 ${f4(x.liveMcp)}  MetaTool (1 in ${METATOOL_STRIDE}) NDCG@10 ${f4(x.metatool)}`;
console.log(`without the stage:        ${line(before)}`);
console.log(`${K}-fold CV, out of fold:   ${line(cv)}`);
console.log(`fit on all, in sample:    ${line(inSample)}`);
console.log('weights:', HEAD_FEATURE_NAMES.map((n, i) => `${n}=${wAll[i].toFixed(3)}`).join(' '));

if (!process.argv.includes('--dry-run')) {
  const round = (x: number): number => Math.round(x * 1e6) / 1e6;
  const fig = (x: ReturnType<typeof figures>): string => `{ ndcg10: ${f4(x.ndcg10)}, recall5: ${f4(x.recall5)}, liveMcpNdcg10: ${f4(x.liveMcp)}, metatoolNdcg10: ${f4(x.metatool)} }`;
  const out = `// Generated by libs/mapper/scripts/fit-head-rerank.ts on ${new Date().toISOString().slice(0, 10)}; do not edit by hand.
// Fitted on the shared eval dev split: ${mainQueries.length} main queries (whole corpus as one snapshot) and ${mtQueries.length} MetaTool queries
// (1 in ${METATOOL_STRIDE}); listwise softmax, L2 ${L2}, ${ITERS} steps.
import type { HeadRerankWeights } from './head-rerank.js';

/** Figures of the fit: the search without the stage, ${K}-fold cross-validated by query (out of fold), and in sample. */
export const HEAD_RERANK_FIGURES = {
  without: ${fig(before)},
  crossValidated: ${fig(cv)},
  inSample: ${fig(inSample)},
} as const;

/** Weights of the head reranker, one per feature of HEAD_FEATURE_NAMES. */
export const HEAD_RERANK: HeadRerankWeights = {
  featureNames: ${JSON.stringify(HEAD_FEATURE_NAMES)},
  weights: ${JSON.stringify(wAll.map(round))},
};
`;
  writeFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../src/head-rerank-weights.ts'), out);
  console.log('wrote src/head-rerank-weights.ts');
}
