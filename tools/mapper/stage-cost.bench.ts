/**
 * What each stage of a discover_tools search costs, in process (not a test: speed lives in
 * benchmarks). One ToolIndex of the eval corpus (3,091 tools) per variant, each with every stage
 * as the discovery service runs it but one; per-tool work done before timing (profiles, encodings),
 * one untimed pass, then `--passes` passes over the dev requests (limit 10), the variants taking
 * turns request by request so the machine's drift falls on all of them alike. Prints p50, p90 and
 * mean a search, and the head reranker's own split: its features (the request's part and a tool's)
 * and its model. Ratios between the rows hold from run to run; absolute figures move with the
 * machine. With `--cold MB`, every timed search follows a pass over a buffer of that many
 * megabytes (one write a 64-byte line), as the discovery service's follows the work of the other
 * processes between two requests: what a search costs with the caches it found warm in a tight
 * loop taken from it. Run from the repository root:
 *
 *   npx tsx tools/mapper/stage-cost.bench.ts [--passes N] [--cold MB]
 */
import { resolve } from 'node:path';
import { corpusAsTools, readJsonl, type CorpusRecord, type RetrievalQueryRecord } from '@toolsurface/eval-kit';
import { ToolIndex, type SearchHit, type ToolIndexOptions } from '@toolsurface/search';
import { LexicalHeadReranker } from '@toolsurface/search';
import { evalDir } from './data.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--passes');
const passes = at >= 0 ? Number(argv[at + 1]) : 6;
if (!(Number.isInteger(passes) && passes > 0)) throw new Error('--passes takes a whole number above 0');
const coldAt = argv.indexOf('--cold');
const coldMb = coldAt >= 0 ? Number(argv[coldAt + 1]) : 0;
if (!(Number.isInteger(coldMb) && coldMb >= 0 && coldMb <= 1024)) throw new Error('--cold takes a whole number of megabytes, 0 to 1,024');
// (read and written once a cache line before each timed search; the sum, kept in a typed array,
// keeps the loop from being dropped without allocating: a sum kept in a module variable boxed
// each addition, and the timed searches paid for the scavenges of that garbage)
const evictor = new Float64Array((coldMb << 20) / 8);
const evictedSum = new Float64Array(1);
const evict = (): void => {
  let sum = 0;
  for (let i = 0; i < evictor.length; i += 8) sum += evictor[i]++;
  evictedSum[0] += sum;
};

const EVAL_DIR = evalDir();
const { tools } = corpusAsTools(readJsonl<CorpusRecord>(resolve(EVAL_DIR, 'corpus.jsonl')));
const queries = readJsonl<RetrievalQueryRecord>(resolve(EVAL_DIR, 'queries.dev.jsonl')).map((q) => q.query);

const variants: { label: string; options: ToolIndexOptions; head: boolean }[] = [
  { label: 'every stage', options: {}, head: true },
  { label: 'no head reranker', options: {}, head: false },
  { label: 'no clause guarantee', options: { clauseSlots: 0 }, head: true },
  { label: 'no semantic stage', options: { semanticWeight: 0 }, head: true },
  { label: 'no demotion', options: { diversity: 0, sameNameDemotion: 0 }, head: true },
  { label: 'BM25F alone', options: { clauseSlots: 0, semanticWeight: 0, diversity: 0, sameNameDemotion: 0 }, head: false },
];
const built = variants.map((v) => {
  const stage = v.head ? new LexicalHeadReranker(tools) : undefined;
  stage?.warm(Infinity);
  const index = ToolIndex.build(tools, { ...v.options, headReranker: stage });
  index.warm(Infinity);
  return { ...v, index, stage, times: [] as number[] };
});
for (const b of built) for (const q of queries) b.index.search(q, 10);
for (let p = 0; p < passes; p++) {
  for (const q of queries) {
    for (const b of built) {
      if (coldMb > 0) evict();
      const started = performance.now();
      b.index.search(q, 10);
      b.times.push(performance.now() - started);
    }
  }
}
const pct = (xs: number[], f: number): string =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))].toFixed(3);
if (coldMb > 0) console.log(`each search after ${coldMb} MB of other work (${evictedSum[0] > 0 ? 'done' : 'skipped'})`);
for (const b of built) {
  const mean = b.times.reduce((a, x) => a + x, 0) / b.times.length;
  console.log(`${b.label.padEnd(20)} p50 ${pct(b.times, 0.5)} ms  p90 ${pct(b.times, 0.9)} ms  mean ${mean.toFixed(3)} ms`);
}

// the head reranker alone, on the heads the full search hands it (its first 15 hits)
const full = built[0];
const stage = full.stage!;
const heads: SearchHit[][] = queries.map((q) => full.index.search(q, 15));
const timeFeatures = (k: number): number => {
  const started = performance.now();
  for (let p = 0; p < passes; p++) queries.forEach((q, i) => stage.features(q, heads[i].slice(0, k), full.index.termStats));
  return (performance.now() - started) / (passes * queries.length);
};
timeFeatures(15);
const one = timeFeatures(1);
const fifteen = timeFeatures(15);
const started = performance.now();
for (let p = 0; p < passes; p++) queries.forEach((q, i) => stage.rerank(q, heads[i], full.index.termStats));
const rerank = (performance.now() - started) / (passes * queries.length);
console.log(
  `head reranker, mean a search: features ${fifteen.toFixed(3)} ms (the request's part about ${(one - (fifteen - one) / 14).toFixed(3)} ms, a tool ${(((fifteen - one) / 14) * 1000).toFixed(1)} µs), model about ${(rerank - fifteen).toFixed(3)} ms`,
);
