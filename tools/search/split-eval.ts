// Generalisation check for ToolIndex tuning: the dev queries (and MetaTool's) split into two halves
// by a hash of their id (FNV-1a of the id, even → A, odd → B). Tune on half A, confirm on half B.
// Prints per half: all-dev NDCG@10 and Recall@5, LiveMCPBench NDCG@10, MetaTool NDCG@10, and the
// build time and search p50 of each run.
// Run from the repository root:
//   npx tsx tools/search/split-eval.ts [--options JSON | --add JSON]... [--misses SLICE]
//   --options '{"namespaceWeight":0.5}'         one run with these ToolIndexOptions (several allowed)
//   --add '{"synonyms":[[...]],"related":[[...]],"options":{...}}'   one run with groups added to the default tables
//   --drop '{"synonyms":["monarch"],"related":["earthquake"],"translations":["工单"],"options":{...}}'   one run without the default
//                                               groups whose first word is listed (a rule's removal, measured)
//   --digits N                                  figures to N decimals (default 3; 4 tells one small group's removal apart)
//   --head                                      every run with the head reranker on, as the discovery service runs it
//   --misses livemcpbench|bfcl-live|bfcl-nonlive|metatool           list each run's queries with NDCG@10 < 0.5
import { resolve } from 'node:path';
import {
  corpusAsTools,
  DEFAULT_EVAL_DIR,
  evaluate,
  fnv1a,
  readJsonl,
  sliceName,
  type CorpusRecord,
  type QueryRecord,
} from '@toolsurface/eval-kit';
import { DEFAULT_SYNONYMS, LexicalHeadReranker, ToolIndex, type SearchableTool, type ToolIndexOptions } from '@toolsurface/search';
import { CJK_TERMS, DEFAULT_RELATED } from '@toolsurface/search/internal';

/** Half of a query by the hash of its id. */
function halfOf(id: string): 'A' | 'B' {
  return fnv1a(id) % 2 === 0 ? 'A' : 'B';
}

const argv = process.argv.slice(2);
const runs: ToolIndexOptions[] = [];
let misses: string | undefined;
let head = false;
let digits = 3;
/** The default groups without those whose first word is listed; an unknown word is an error, so a typo cannot measure nothing. */
function without(groups: readonly (readonly string[])[], firsts: readonly string[] | undefined, table: string): (readonly string[])[] {
  for (const w of firsts ?? []) if (!groups.some((g) => g[0] === w)) throw new Error(`--drop: no ${table} group starts with "${w}"`);
  return groups.filter((g) => !(firsts ?? []).includes(g[0]));
}
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--options') runs.push(JSON.parse(argv[++i]) as ToolIndexOptions);
  else if (argv[i] === '--add') {
    const add = JSON.parse(argv[++i]) as { synonyms?: string[][]; related?: string[][]; options?: ToolIndexOptions };
    runs.push({
      ...add.options,
      synonyms: [...DEFAULT_SYNONYMS, ...(add.synonyms ?? [])],
      related: [...DEFAULT_RELATED, ...(add.related ?? [])],
    });
  } else if (argv[i] === '--drop') {
    const drop = JSON.parse(argv[++i]) as { synonyms?: string[]; related?: string[]; translations?: string[]; options?: ToolIndexOptions };
    runs.push({
      ...drop.options,
      synonyms: without(DEFAULT_SYNONYMS, drop.synonyms, 'synonyms'),
      related: without(DEFAULT_RELATED, drop.related, 'related'),
      translations: without(CJK_TERMS, drop.translations, 'translations'),
    });
  } else if (argv[i] === '--head') head = true;
  else if (argv[i] === '--digits') digits = Math.max(0, Math.min(6, Number(argv[++i]) || 3));
  else if (argv[i] === '--misses') misses = argv[++i];
  else throw new Error(`unknown argument ${argv[i]}`);
}
if (runs.length === 0) runs.push({});

const main = corpusAsTools(readJsonl<CorpusRecord>(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl')));
const queries = readJsonl<QueryRecord>(resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'));
const mt = corpusAsTools(readJsonl<CorpusRecord>(resolve(DEFAULT_EVAL_DIR, 'metatool/corpus.jsonl')));
const mtQueries = readJsonl<QueryRecord>(resolve(DEFAULT_EVAL_DIR, 'metatool/queries.dev.jsonl'));

/** The index of a run: with the head reranker over the same tools when --head is given. */
const build = (tools: readonly SearchableTool[], options: ToolIndexOptions): ToolIndex =>
  ToolIndex.build(tools, head ? { ...options, headReranker: new LexicalHeadReranker(tools) } : options);
const f3 = (x: number): string => x.toFixed(digits);
const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((s, x) => s + x, 0) / xs.length);
console.log('| run | half | n | NDCG@10 all | R@5 all | NDCG@10 LiveMCP | NDCG@10 MetaTool | build ms | search p50 ms |');
console.log('|---|---|---|---|---|---|---|---|---|');
runs.forEach((options, ri) => {
  let t0 = performance.now();
  const index = build(main.tools, options);
  const buildMs = performance.now() - t0;
  const res = evaluate(index, queries, main.nameOf);
  const mtRes = evaluate(build(mt.tools, options), mtQueries, mt.nameOf);
  const times: number[] = [];
  for (const q of queries) {
    t0 = performance.now();
    index.search(q.query, 10);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  for (const half of ['A', 'B', 'all'] as const) {
    const pick = <T extends { q: QueryRecord }>(rows: T[]): T[] => (half === 'all' ? rows : rows.filter((r) => halfOf(r.q.id) === half));
    const rows = pick(res.perQuery);
    const live = rows.filter((r) => sliceName(r.q.source) === 'livemcpbench');
    console.log(
      `| ${ri} | ${half} | ${rows.length} | ${f3(mean(rows.map((r) => r.ndcg10)))} | ${f3(mean(rows.map((r) => r.r5)))} | ${f3(mean(live.map((r) => r.ndcg10)))} | ${f3(mean(pick(mtRes.perQuery).map((r) => r.ndcg10)))} | ${buildMs.toFixed(0)} | ${f3(times[times.length >> 1])} |`,
    );
  }
  if (misses !== undefined) {
    const rows = (misses === 'metatool' ? mtRes.perQuery : res.perQuery.filter((r) => sliceName(r.q.source) === misses)).filter(
      (r) => r.ndcg10 < 0.5,
    );
    for (const r of rows.slice(0, 40))
      console.log(
        `- ${r.ndcg10.toFixed(2)} ${JSON.stringify(r.q.query.slice(0, 200))}\n    want ${r.q.relevant.join(', ')}\n    got  ${r.ranked.slice(0, 6).join(', ')}`,
      );
  }
});
