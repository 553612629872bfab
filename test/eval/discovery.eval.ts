// npm run eval:discovery -- [--corpus P] [--queries P] [--metatool-dir P] [--metatool-queries P] [--json FILE] [--skip-metatool] [--warm-up N]
// (`--help` lists them; an unknown flag or an input that cannot be read is a usage error, exit 2)
// Retrieval quality of discover_tools through the discovery service's gRPC API, beside a plain BM25
// peer run on the same data in the same run. Scoring per shared/eval/README.md ("How to score").
import { join } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { DiscoveryServiceClient, type DiscoverToolsResponse } from '@toolsurface/proto';
import { Bm25Baseline, mrrAtK, ndcgAtK, recallAtK } from '@toolsurface/eval-kit';
import { startBareServer, type DiscoverCall } from './bare-grpc';
import {
  corpusDefinitions,
  DEFAULT_EVAL_DIR,
  checkRelevantInCorpus,
  evalFlags,
  percentile,
  readEvalFile,
  sliceOf,
  startEvalService,
  inputProblem,
  repoRelative,
  usageError,
  writeFigures,
  type CorpusRecord,
  type QueryRecord,
} from './support';

interface Figures {
  n: number;
  recall1: number;
  recall5: number;
  recall10: number;
  ndcg10: number;
  mrr10: number;
}
type Report = Record<string, { ours: Figures; bm25: Figures }>;
/**
 * Latency of the timed calls, ms. `bareP50` is the p50 of a bare grpc-js server's calls
 * (bare-grpc.ts: the same proto, ten canned hits, no domain code), each made right after one of
 * ours with the same query: the machine's own floor for a call in this run, which moves with its
 * load (0.4 to 1.0 ms seen on one machine within an hour), where the service's figures move with it.
 */
interface Latency {
  p50: number;
  p99: number;
  bareP50: number;
  firstSearchMs: number;
  warmUpCalls: number;
}

/** Untimed discover_tools calls after the first search and before the timed ones (default of `--warm-up N`). */
const WARM_UP_CALLS = 300;

function score(rows: Array<{ ranked: string[]; relevant: string[] }>): Figures {
  const n = rows.length;
  const avg = (f: (r: { ranked: string[]; relevant: string[] }) => number) => (n === 0 ? NaN : rows.reduce((s, r) => s + f(r), 0) / n);
  return {
    n,
    recall1: avg((r) => recallAtK(r.ranked, r.relevant, 1)),
    recall5: avg((r) => recallAtK(r.ranked, r.relevant, 5)),
    recall10: avg((r) => recallAtK(r.ranked, r.relevant, 10)),
    ndcg10: avg((r) => ndcgAtK(r.ranked, r.relevant, 10)),
    mrr10: avg((r) => mrrAtK(r.ranked, r.relevant, 10)),
  };
}

function discover(client: DiscoveryServiceClient, snapshotId: string, query: string): Promise<DiscoverToolsResponse> {
  return new Promise((resolve, reject) =>
    client.discoverTools({ snapshotId, query, limit: 10 }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

async function evaluate(
  label: string,
  corpus: CorpusRecord[],
  queries: QueryRecord[],
  client: DiscoveryServiceClient,
  save: (defs: ReturnType<typeof corpusDefinitions>) => Promise<string>,
  warmUpCalls: number,
  bare: DiscoverCall,
): Promise<{ report: Report; latency: Latency }> {
  const defs = corpusDefinitions(corpus);
  const nameOf = new Map(corpus.map((r) => [r.id, r.name]));
  const snapshotId = await save(defs);
  const bm25 = Bm25Baseline.build(defs.map((d) => ({ name: d.name, description: d.description, inputSchema: d.inputSchema })));
  // The first search of a snapshot nobody indexed yet waits for indexing: timed on its own.
  const t0 = performance.now();
  await discover(client, snapshotId, 'warm up');
  const firstSearchMs = performance.now() - t0;
  // Warm-up before timing, as any latency benchmark does: the gRPC client and the service run on
  // cold (unoptimised) code for their first few hundred calls. The warm-up queries are made from
  // the corpus (a tool description's first words), never from the query set being measured.
  for (let i = 0; i < warmUpCalls; i++) {
    const d = defs[(i * 7919) % defs.length];
    const words = (d.description ?? d.name).split(/\s+/).slice(0, 10).join(' ') || d.name; // whitespace-separated words
    await discover(client, snapshotId, words);
    await bare(words);
  }
  const times: number[] = [];
  const bareTimes: number[] = [];
  const toName = (ids: string[]) => ids.map((id) => nameOf.get(id) ?? id);
  // Every query through the service first, timed; the peer runs after, so its work (and its
  // garbage) in this process never lands inside a timed call.
  const ours: string[][] = [];
  for (const q of queries) {
    const started = performance.now();
    const res = await discover(client, snapshotId, q.query);
    times.push(performance.now() - started);
    ours.push(toName(res.hits.map((h) => h.name)));
    const bareStarted = performance.now();
    await bare(q.query);
    bareTimes.push(performance.now() - bareStarted);
  }
  const rows = queries.map((q, i) => ({
    slice: sliceOf(q.source),
    ours: ours[i],
    bm25: toName(bm25.search(q.query, 10).map((h) => h.name)),
    relevant: q.relevant,
  }));
  const report: Report = {};
  const slices = [label, ...new Set(rows.map((r) => r.slice))];
  for (const s of slices) {
    const sel = s === label ? rows : rows.filter((r) => r.slice === s);
    if (s !== label && sel.length === rows.length) continue;
    report[s] = {
      ours: score(sel.map((r) => ({ ranked: r.ours, relevant: r.relevant }))),
      bm25: score(sel.map((r) => ({ ranked: r.bm25, relevant: r.relevant }))),
    };
  }
  return {
    report,
    latency: { p50: percentile(times, 50), p99: percentile(times, 99), bareP50: percentile(bareTimes, 50), firstSearchMs, warmUpCalls },
  };
}

function print(report: Report, latency: Latency): void {
  const f = (x: number) => x.toFixed(3);
  console.log(`| slice | n | R@1 ours / bm25 | R@5 ours / bm25 | R@10 ours / bm25 | NDCG@10 ours / bm25 | MRR@10 ours / bm25 |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const [s, { ours, bm25 }] of Object.entries(report)) {
    console.log(
      `| ${s} | ${ours.n} | ${f(ours.recall1)} / ${f(bm25.recall1)} | ${f(ours.recall5)} / ${f(bm25.recall5)} | ${f(ours.recall10)} / ${f(bm25.recall10)} | ${f(ours.ndcg10)} / ${f(bm25.ndcg10)} | ${f(ours.mrr10)} / ${f(bm25.mrr10)} |`,
    );
  }
  console.log(
    `discover_tools through gRPC: p50 ${latency.p50.toFixed(3)} ms, p99 ${latency.p99.toFixed(3)} ms (after ${latency.warmUpCalls} warm-up calls); first search (indexing on demand) ${latency.firstSearchMs.toFixed(1)} ms`,
  );
  console.log(
    `a bare grpc-js server's call in the same run (bare-grpc.ts, ten canned hits, no domain code): p50 ${latency.bareP50.toFixed(3)} ms; the service's own share of the p50 about ${(latency.p50 - latency.bareP50).toFixed(3)} ms`,
  );
}

async function main(): Promise<void> {
  const defaults = {
    corpus: join(DEFAULT_EVAL_DIR, 'corpus.jsonl'),
    queries: join(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'),
    metatoolDir: join(DEFAULT_EVAL_DIR, 'metatool'),
  };
  const metatoolPaths = (given: ReadonlyMap<string, string>) => {
    const dir = given.get('metatool-dir') ?? defaults.metatoolDir;
    return { corpus: join(dir, 'corpus.jsonl'), queries: given.get('metatool-queries') ?? join(dir, 'queries.dev.jsonl') };
  };
  const opts = evalFlags(
    'eval:discovery',
    "discover_tools retrieval through the discovery service's gRPC API, beside a plain BM25 peer on the same data",
    process.argv.slice(2),
    [
      { name: 'corpus', value: 'P', description: `corpus JSONL, put in one snapshot (default ${defaults.corpus})`, input: 'file' },
      { name: 'queries', value: 'P', description: `queries JSONL (default ${defaults.queries})`, input: 'file' },
      {
        name: 'metatool-dir',
        value: 'P',
        description: `MetaTool directory: its corpus.jsonl, and its queries.dev.jsonl unless --metatool-queries is given (default ${defaults.metatoolDir})`,
        input: 'dir',
      },
      {
        name: 'metatool-queries',
        value: 'P',
        description: 'MetaTool queries JSONL, searched over the MetaTool corpus (default: queries.dev.jsonl of --metatool-dir)',
        input: 'file',
      },
      { name: 'skip-metatool', description: 'leave the MetaTool pass out' },
      { name: 'json', value: 'FILE', description: 'also write the figures to FILE as JSON', output: true },
      { name: 'warm-up', value: 'N', description: `untimed calls before the timed ones (default ${WARM_UP_CALLS})`, atLeast: 0 },
    ],
    (given) => [given.get('corpus') ?? defaults.corpus, given.get('queries') ?? defaults.queries, ...Object.values(metatoolPaths(given))],
  );
  const warmUp = Number(opts.get('warm-up') ?? WARM_UP_CALLS);
  const corpusPath = opts.get('corpus') ?? defaults.corpus;
  const queriesPath = opts.get('queries') ?? defaults.queries;
  const { corpus: metatoolCorpus, queries: metatoolQueries } = metatoolPaths(opts);
  const withMetatool = opts.get('skip-metatool') !== 'true';
  for (const flag of ['metatool-dir', 'metatool-queries'])
    if (!withMetatool && opts.has(flag))
      usageError(
        'eval:discovery',
        `--${flag} names what the MetaTool pass reads, and --skip-metatool leaves that pass out: give one or the other`,
      );
  // every input read and checked before anything starts (a bad record is named by file and line)
  const warn = (message: string): void => console.error(`eval:discovery: warning: ${message}`);
  let data: { corpus: CorpusRecord[]; queries: QueryRecord[]; metatool?: { corpus: CorpusRecord[]; queries: QueryRecord[] } };
  try {
    const mtQueriesFlag = opts.has('metatool-queries') ? 'metatool-queries' : 'metatool-dir';
    const inputs: Array<[string, string]> = [
      ['corpus', corpusPath],
      ['queries', queriesPath],
      ...(withMetatool
        ? ([
            ['metatool-dir', metatoolCorpus],
            [mtQueriesFlag, metatoolQueries],
          ] as Array<[string, string]>)
        : []),
    ];
    for (const [flag, path] of inputs) {
      const problem = inputProblem(`--${flag}`, path, opts.has(flag));
      if (problem !== undefined) throw new Error(problem);
    }
    data = { corpus: readEvalFile(corpusPath, 'corpus', warn), queries: readEvalFile(queriesPath, 'queries', warn) };
    if (withMetatool)
      data.metatool = { corpus: readEvalFile(metatoolCorpus, 'corpus', warn), queries: readEvalFile(metatoolQueries, 'queries', warn) };
    const warnings = [
      checkRelevantInCorpus(data.queries, queriesPath, data.corpus, corpusPath),
      data.metatool && checkRelevantInCorpus(data.metatool.queries, metatoolQueries, data.metatool.corpus, metatoolCorpus),
    ];
    for (const w of warnings) if (w) warn(w);
  } catch (e) {
    usageError('eval:discovery', (e as Error).message);
  }
  const svc = await startEvalService('discovery');
  const bare = await startBareServer().catch(async (e) => {
    await svc.stop();
    throw e;
  });
  const client = new DiscoveryServiceClient(svc.address, credentials.createInsecure());
  const save = async (defs: ReturnType<typeof corpusDefinitions>) => (await svc.snapshots.save(defs)).snapshot.snapshotId;
  const out: Record<string, unknown> = {
    corpus: repoRelative(corpusPath),
    queries: repoRelative(queriesPath),
    ...(withMetatool ? { metatoolCorpus: repoRelative(metatoolCorpus), metatoolQueries: repoRelative(metatoolQueries) } : {}),
  };
  try {
    console.log(`\n## ${queriesPath} over ${corpusPath}`);
    const main = await evaluate('all', data.corpus, data.queries, client, save, warmUp, bare.call);
    print(main.report, main.latency);
    out.main = main;
    if (data.metatool !== undefined) {
      console.log(`\n## metatool (its own corpus) ${metatoolQueries} over ${metatoolCorpus}`);
      const mt = await evaluate('metatool', data.metatool.corpus, data.metatool.queries, client, save, warmUp, bare.call);
      print(mt.report, mt.latency);
      out.metatool = mt;
    }
  } finally {
    client.close();
    bare.stop();
    await svc.stop();
  }
  const jsonPath = opts.get('json');
  if (jsonPath) {
    console.log('');
    writeFigures(jsonPath, out);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
