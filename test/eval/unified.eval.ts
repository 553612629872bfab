// npm run eval:unified -- [--corpus P] [--queries P] [--irrelevance P] [--json FILE] [--png FILE (default .data/unified-reliability.png)]
// (`--help` lists them; an unknown flag or an input that cannot be read is a usage error, exit 2)
// unified_tool quality through the unified-mapper's gRPC API (whole corpus as one snapshot), beside
// a baseline that takes the top BM25 hit and maps nothing. Scoring per shared/eval/README.md.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { CONFIDENCE_THRESHOLD } from '@toolsurface/core';
import { CALIBRATION } from '@toolsurface/mapper/internal';
import { scoreArguments } from '@toolsurface/eval-kit';
import { UnifiedServiceClient, type MapRequestResponse } from '@toolsurface/proto';
import { Bm25Baseline } from '@toolsurface/eval-kit';
import { bins, writeReliabilityPng } from './reliability-png';
import {
  checkRelevantInCorpus,
  corpusDefinitions,
  DEFAULT_EVAL_DIR,
  evalFlags,
  percentile,
  readEvalFile,
  startEvalService,
  inputProblem,
  usageError,
  writeFigures,
  type CorpusRecord,
  type QueryRecord,
} from './support';

/** Where the reliability diagram goes when `--png` is not given (beside the local stack's data). */
const DEFAULT_PNG = join('.data', 'unified-reliability.png');

/**
 * "Now" for relative dates: the eval data was written in 2023 and its ground truth resolves dates
 * without a year in 2023 (a deployment sends the user's real time, or none for the server clock).
 */
const EVAL_REFERENCE_TIME_MS = Date.UTC(2023, 9, 1);

function mapRequest(client: UnifiedServiceClient, snapshotId: string, request: string): Promise<MapRequestResponse> {
  return new Promise((resolve, reject) =>
    client.mapRequest({ snapshotId, request, contextJson: '', preferredTools: [], referenceTimeMs: EVAL_REFERENCE_TIME_MS }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

interface Row {
  irrelevant: boolean;
  single: boolean;
  toolRight: boolean;
  argsRight: boolean;
  executed: boolean;
  /** the answer names missing required arguments (its confidence is P(tool right)) */
  missing: boolean;
  confidence: number;
  baselineToolRight: boolean;
  baselineArgsRight: boolean;
}

const share = (rows: Row[], f: (r: Row) => boolean) => (rows.length === 0 ? NaN : rows.filter(f).length / rows.length);

async function main(): Promise<void> {
  const defaults = {
    corpus: join(DEFAULT_EVAL_DIR, 'corpus.jsonl'),
    queries: join(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'),
    irrelevance: join(DEFAULT_EVAL_DIR, 'queries.irrelevance.dev.jsonl'),
  };
  const opts = evalFlags(
    'eval:unified',
    "unified_tool selection, argument mapping and confidence through the unified-mapper's gRPC API, beside a baseline that takes the top BM25 hit and maps nothing",
    process.argv.slice(2),
    [
      { name: 'corpus', value: 'P', description: `corpus JSONL, put in one snapshot (default ${defaults.corpus})`, input: 'file' },
      { name: 'queries', value: 'P', description: `queries JSONL (default ${defaults.queries})`, input: 'file' },
      { name: 'irrelevance', value: 'P', description: `requests no tool serves, JSONL (default ${defaults.irrelevance})`, input: 'file' },
      { name: 'json', value: 'FILE', description: 'also write the figures to FILE as JSON', output: true },
      {
        name: 'png',
        value: 'FILE',
        description: `where the reliability diagram goes (default ${DEFAULT_PNG}; its directory is made)`,
        output: 'make-dirs',
      },
    ],
    // (the default diagram path too, so --json cannot name it)
    (given) => [
      given.get('corpus') ?? defaults.corpus,
      given.get('queries') ?? defaults.queries,
      given.get('irrelevance') ?? defaults.irrelevance,
      ...(given.has('png') ? [] : [DEFAULT_PNG]),
    ],
  );
  const corpusPath = opts.get('corpus') ?? defaults.corpus;
  const queriesPath = opts.get('queries') ?? defaults.queries;
  const irrelevancePath = opts.get('irrelevance') ?? defaults.irrelevance;
  // (by default beside the local stack's data, not in the checkout's root)
  const png = opts.get('png') ?? DEFAULT_PNG;
  // every input read and checked before anything starts (a bad record is named by file and line)
  const warn = (message: string): void => console.error(`eval:unified: warning: ${message}`);
  let corpus: CorpusRecord[];
  let relevantQueries: QueryRecord[];
  let irrelevantQueries: QueryRecord[];
  try {
    for (const [flag, path] of [
      ['corpus', corpusPath],
      ['queries', queriesPath],
      ['irrelevance', irrelevancePath],
    ]) {
      const problem = inputProblem(`--${flag}`, path, opts.has(flag));
      if (problem !== undefined) throw new Error(problem);
    }
    corpus = readEvalFile(corpusPath, 'corpus', warn);
    relevantQueries = readEvalFile(queriesPath, 'queries', warn);
    irrelevantQueries = readEvalFile(irrelevancePath, 'irrelevance', warn);
    const warning = checkRelevantInCorpus(relevantQueries, queriesPath, corpus, corpusPath);
    if (warning) warn(warning);
  } catch (e) {
    usageError('eval:unified', (e as Error).message);
  }
  const byId = new Map(corpus.map((r) => [r.id, r]));
  const defs = corpusDefinitions(corpus);
  const bm25 = Bm25Baseline.build(defs.map((d) => ({ name: d.name, description: d.description, inputSchema: d.inputSchema })));
  const argsRightFor = (q: QueryRecord, toolId: string, args: Record<string, unknown>) => {
    const rec = byId.get(toolId);
    if (!rec || !q.calls) return false;
    const schema = q.schema_override?.[toolId] ?? rec.parameters;
    return q.calls.some((c) => c.name === rec.name && scoreArguments(args, c.arguments, schema));
  };

  const svc = await startEvalService('unified-mapper');
  const client = new UnifiedServiceClient(svc.address, credentials.createInsecure());
  const rows: Row[] = [];
  const times: number[] = [];
  // who answered each request: a model deployment's run whose model never answered measures the
  // rule engine, and must say so
  const answeredBy = { model: 0, rules: 0, modelFallbacks: {} as Record<string, number> };
  try {
    const { snapshot } = await svc.snapshots.save(defs);
    const all: Array<[QueryRecord, boolean]> = [
      ...relevantQueries.map((q): [QueryRecord, boolean] => [q, false]),
      ...irrelevantQueries.map((q): [QueryRecord, boolean] => [q, true]),
    ];
    await mapRequest(client, snapshot.snapshotId, 'warm up');
    for (const [q, irrelevant] of all) {
      const started = performance.now();
      const res = await mapRequest(client, snapshot.snapshotId, q.query);
      times.push(performance.now() - started);
      if (res.mapper === 'model') answeredBy.model++;
      else answeredBy.rules++;
      if (res.modelFallback) answeredBy.modelFallbacks[res.modelFallback] = (answeredBy.modelFallbacks[res.modelFallback] ?? 0) + 1;
      const md = res.metadata!;
      const top = md.tool || md.candidates[0]?.name || '';
      const topArgs = md.tool ? md.argumentsJson : (md.candidates[0]?.argumentsJson ?? '{}');
      const toolRight = !irrelevant && q.relevant.includes(byId.get(top)?.name ?? '');
      const argsRight = toolRight && md.missingArguments.length === 0 && argsRightFor(q, top, JSON.parse(topArgs || '{}'));
      const b = bm25.search(q.query, 1)[0]?.name ?? '';
      const baselineToolRight = !irrelevant && q.relevant.includes(byId.get(b)?.name ?? '');
      rows.push({
        irrelevant,
        single: !irrelevant && q.arguments != null,
        toolRight,
        argsRight,
        executed: res.decision === 'execute',
        missing: md.missingArguments.length > 0,
        confidence: md.confidence,
        baselineToolRight,
        baselineArgsRight: baselineToolRight && argsRightFor(q, b, {}),
      });
    }
  } finally {
    client.close();
    await svc.stop();
  }

  const dev = rows.filter((r) => !r.irrelevant);
  const single = dev.filter((r) => r.single);
  const executed = dev.filter((r) => r.executed);
  const irrelevant = rows.filter((r) => r.irrelevant);
  const figures = {
    queries: dev.length,
    singleCall: single.length,
    irrelevantQueries: irrelevant.length,
    ours: {
      top1Selection: share(dev, (r) => r.toolRight),
      argumentAccuracySingleCall: share(single, (r) => r.argsRight),
      executedShare: share(dev, (r) => r.executed),
      executedFullyRight: share(executed, (r) => r.argsRight),
      irrelevantExecuted: share(irrelevant, (r) => r.executed),
    },
    baseline: {
      top1Selection: share(dev, (r) => r.baselineToolRight),
      argumentAccuracySingleCall: share(single, (r) => r.baselineArgsRight),
      executedShare: 1,
      executedFullyRight: share(dev, (r) => r.baselineArgsRight),
      irrelevantExecuted: 1,
    },
    latencyMs: { p50: percentile(times, 50), p99: percentile(times, 99) },
    answeredBy,
    threshold: CONFIDENCE_THRESHOLD,
    // a confidence claims what its decision needs: P(tool and arguments right) for a complete
    // call, P(tool right) when required arguments are missing (missing_arguments); judged so
    reliability: bins(rows.map((r) => ({ confidence: r.confidence, correct: r.missing ? r.toolRight : r.argsRight }))),
    // the calibration's own honest estimate: its fitting procedure cross-validated by query
    // (tools/mapper/fit-confidence.ts, 5 folds, pooled out-of-fold predictions)
    crossValidated: CALIBRATION.crossValidated,
  };
  const f = (x: number | null) => (x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(3));
  console.log(
    `\n## unified_tool on ${queriesPath} (${dev.length} requests, ${single.length} single-call) and ${irrelevancePath} (${irrelevant.length})`,
  );
  console.log('| measure | ours | top BM25 hit, no mapping | target |');
  console.log('|---|---|---|---|');
  console.log(`| top-1 selection | ${f(figures.ours.top1Selection)} | ${f(figures.baseline.top1Selection)} | >= 0.75 |`);
  console.log(
    `| argument accuracy, single-call | ${f(figures.ours.argumentAccuracySingleCall)} | ${f(figures.baseline.argumentAccuracySingleCall)} | >= 0.60 |`,
  );
  console.log(`| requests executed (confidence >= ${CONFIDENCE_THRESHOLD}) | ${f(figures.ours.executedShare)} | 1.000 | |`);
  console.log(
    `| executed calls fully right (in sample) | ${f(figures.ours.executedFullyRight)} | ${f(figures.baseline.executedFullyRight)} | >= 0.90 |`,
  );
  const cv = figures.crossValidated.wholeCorpus;
  console.log(
    `| executed calls fully right, 5-fold CV out of fold (fit-confidence.ts on the dev split, fixed when the calibration was fitted: not this run's files) | ${cv.executedFullyRight === null ? 'n/a' : f(cv.executedFullyRight)} (${cv.executedCalls} calls, ${f(cv.executed)} executed) | | >= 0.90 |`,
  );
  console.log(`| irrelevant requests executed | ${f(figures.ours.irrelevantExecuted)} | 1.000 | <= 0.05 |`);
  console.log(`MapRequest through gRPC: p50 ${figures.latencyMs.p50.toFixed(2)} ms, p99 ${figures.latencyMs.p99.toFixed(2)} ms`);
  const fallbacks = Object.entries(answeredBy.modelFallbacks)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  console.log(
    answeredBy.model === 0 && fallbacks === ''
      ? `answered by: the rule engine, all ${rows.length} requests`
      : `answered by: the model ${answeredBy.model} of ${rows.length} requests, the rule engine ${answeredBy.rules}; the model's answer not used: ${fallbacks || 'never'}`,
  );
  if (fallbacks !== '' && answeredBy.model === 0)
    warn(`the model answered none of the ${rows.length} requests: these are the rule engine's figures (${fallbacks})`);
  console.log(
    `reliability over all ${rows.length} requests, the ${irrelevant.length} no tool serves among them (never right: any call is wrong there) (confidence bin: n, share right: tool and arguments, or the tool alone where arguments are missing):`,
  );
  for (const b of figures.reliability)
    if (b.n > 0)
      console.log(`  [${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}): n=${b.n}, right ${f(b.accuracy)}, mean confidence ${f(b.meanConfidence)}`);
  // (by default beside the local stack's data, not in the checkout's root)
  // (the figures first: a diagram that cannot be written loses nothing else)
  const jsonPath = opts.get('json');
  if (jsonPath) writeFigures(jsonPath, figures);
  try {
    mkdirSync(dirname(png), { recursive: true });
    writeReliabilityPng(png, figures.reliability, CONFIDENCE_THRESHOLD);
    console.log(`reliability diagram written to ${png}`);
  } catch (e) {
    console.error(`could not write the reliability diagram to ${png}: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
