// Offline retrieval eval: ToolIndex vs the Bm25Baseline peer on the public eval data.
// Run from the repository root:
//   npx tsx tools/search/offline-eval.ts [--corpus P] [--queries P] [--metatool] [--all] [--no-synonyms]
// Defaults: ../shared/eval/corpus.jsonl and queries.dev.jsonl beside the repo root; --metatool uses
// the metatool/ corpus and queries instead; --all runs both. Scoring follows the eval README:
// whole corpus as one index, query text only, tools indexed under `id`, hits scored by `name`.
import { resolve } from 'node:path';
import {
  Bm25Baseline,
  corpusAsTools,
  DEFAULT_EVAL_DIR,
  evaluate,
  readJsonl,
  sliceName,
  type CorpusRecord,
  type QueryRecord,
  type Searcher,
  type SliceMetrics,
} from '@toolsurface/eval-kit';
import { ToolIndex, type ToolIndexOptions } from '@toolsurface/search';

interface Args {
  corpus: string;
  queries: string;
  runs: ('main' | 'metatool')[];
  options: ToolIndexOptions;
}

/** Command-line flags → run list and paths. */
function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    corpus: resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl'),
    queries: resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'),
    runs: ['main'],
    options: {},
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--corpus') args.corpus = resolve(argv[++i]);
    else if (a === '--queries') args.queries = resolve(argv[++i]);
    else if (a === '--metatool') args.runs = ['metatool'];
    else if (a === '--all') args.runs = ['main', 'metatool'];
    else if (a === '--no-synonyms') args.options.synonyms = false;
    else if (a === '--options') args.options = { ...args.options, ...(JSON.parse(argv[++i]) as ToolIndexOptions) };
    else if (a === '--help' || a === '-h') {
      console.log('offline-eval.ts [--corpus P] [--queries P] [--metatool | --all] [--no-synonyms] [--options JSON]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

/** p-th percentile (0–100) of a sorted-in-place sample. */
function percentile(sample: number[], p: number): number {
  sample.sort((a, b) => a - b);
  return sample[Math.min(sample.length - 1, Math.floor((p / 100) * sample.length))] ?? 0;
}

/** Search latency (ms) of each query, after one warm-up pass. */
function latencies(engine: Searcher, queries: readonly QueryRecord[]): number[] {
  for (const q of queries.slice(0, 200)) engine.search(q.query, 10);
  return queries.map((q) => {
    const t0 = performance.now();
    engine.search(q.query, 10);
    return performance.now() - t0;
  });
}

const f3 = (x: number): string => x.toFixed(3);

/** Print one table: a row per slice, ours and the peer side by side. */
function printTable(ours: Map<string, SliceMetrics>, peer: Map<string, SliceMetrics>): void {
  // 'all' first, then the README groups, then raw sources
  const rank = (k: string): number => (k === 'all' ? 0 : k.startsWith('source=') ? 2 : 1);
  const order = [...ours.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  console.log('| slice | n | engine | Recall@1 | Recall@5 | Recall@10 | NDCG@10 | MRR@10 |');
  console.log('|---|---|---|---|---|---|---|---|');
  const total = ours.get('all')?.n;
  for (const slice of order) {
    // a group that is the whole query set repeats the 'all' row
    if (slice !== 'all' && !slice.startsWith('source=') && ours.get(slice)?.n === total) continue;
    for (const [label, m] of [
      ['ToolIndex', ours.get(slice)],
      ['BM25 peer', peer.get(slice)],
    ] as const) {
      if (!m) continue;
      console.log(`| ${slice} | ${m.n} | ${label} | ${f3(m.r1)} | ${f3(m.r5)} | ${f3(m.r10)} | ${f3(m.ndcg10)} | ${f3(m.mrr10)} |`);
    }
  }
}

/** Build both engines over one corpus, score one query set, print metrics and latency. */
function run(title: string, corpusPath: string, queriesPath: string, options: ToolIndexOptions): void {
  const records = readJsonl<CorpusRecord>(corpusPath);
  const queries = readJsonl<QueryRecord>(queriesPath);
  const { tools, nameOf } = corpusAsTools(records);
  // build time: the first build in this process (cold: JIT and analyzer caches empty), then the best of 3 more (warm)
  let t0 = performance.now();
  let ours = ToolIndex.build(tools, options);
  const buildCold = performance.now() - t0;
  let buildWarm = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    ours = ToolIndex.build(tools, options);
    buildWarm = Math.min(buildWarm, performance.now() - t0);
  }
  t0 = performance.now();
  const peer = Bm25Baseline.build(tools);
  const buildPeer = performance.now() - t0;
  console.log(`\n## ${title}: ${records.length} tools, ${queries.length} queries`);
  console.log(`corpus ${corpusPath}\nqueries ${queriesPath}\n`);
  // slices: the eval README's groups (bfcl-nonlive, bfcl-live, livemcpbench, metatool) and each raw `source`
  const slicesOf = (source: string): string[] => [sliceName(source), `source=${source}`];
  const a = evaluate(ours, queries, nameOf, slicesOf);
  const b = evaluate(peer, queries, nameOf, slicesOf);
  printTable(a.slices, b.slices);
  const sample = queries.length > 3000 ? queries.filter((_q, i) => i % Math.ceil(queries.length / 3000) === 0) : queries;
  const la = latencies(ours, sample);
  const lb = latencies(peer, sample);
  console.log(`\nbuild: ToolIndex ${buildCold.toFixed(1)} ms cold, ${buildWarm.toFixed(1)} ms warm; BM25 peer ${buildPeer.toFixed(1)} ms`);
  console.log(
    `search latency (limit 10, ${sample.length} queries): ToolIndex p50 ${f3(percentile(la, 50))} ms p99 ${f3(percentile(la, 99))} ms; BM25 peer p50 ${f3(percentile(lb, 50))} ms p99 ${f3(percentile(lb, 99))} ms`,
  );
}

const args = parseArgs(process.argv.slice(2));
for (const which of args.runs) {
  if (which === 'main') run('dev split', args.corpus, args.queries, args.options);
  else
    run(
      'MetaTool (own corpus)',
      resolve(DEFAULT_EVAL_DIR, 'metatool/corpus.jsonl'),
      resolve(DEFAULT_EVAL_DIR, 'metatool/queries.dev.jsonl'),
      args.options,
    );
}
