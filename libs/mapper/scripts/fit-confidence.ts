/**
 * Refits the reranker and the confidence calibration on the dev data and rewrites
 * libs/mapper/src/calibration.ts. Run from /work/main:
 *
 *   npx tsx libs/mapper/scripts/fit-confidence.ts            # fit + 5-fold CV report + write
 *   npx tsx libs/mapper/scripts/fit-confidence.ts --dry-run  # report only
 *
 * 1. Reranker: listwise softmax over the retrieved top-30 of each dev query; positives are the
 *    candidates whose corpus name is in `relevant` (weight 2 when their mapped arguments are
 *    also right, else 1). The `preferred` and `contextKeys` weights are fixed priors (the dev
 *    data has neither preferred_tools nor context objects).
 * 2. Confidence: two L2 logistic regressions on the top candidate's confidence features,
 *    dev + irrelevance queries: P(tool right) and P(tool and arguments right) (the latter on
 *    queries whose top candidate has no missing required argument; irrelevance = 0). Both the
 *    reranker and these learn from two settings: the whole corpus as one snapshot, and each
 *    query's own `candidates` as the snapshot (the small surfaces the gateway usually has).
 * 3. Conservative map: the raw probability above which whole-corpus dev precision (tool and
 *    arguments right) reaches PRECISION_TARGET is mapped to 0.7 (monotone, piecewise linear).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { runRanking, runCandidateRanking, type LabeledQuery } from './eval-lib.js';
import { fitListwise, fitLogistic, predict, precisionCutoff, type ListExample } from './fit-lib.js';
import { FEATURE_NAMES, dot } from '../src/select.js';
import { confidenceFeatures, CONF_FEATURE_NAMES, conservative } from '../src/confidence.js';
import type { Calibration } from '../src/calibration.js';

/** Precision the execution cut aims for on dev (with WILSON_Z > 0: a Wilson lower bound of it). */
const PRECISION_TARGET = Number(process.env.FIT_PRECISION ?? 0.95);
/** z of the Wilson lower bound on dev precision (0 = the point estimate). */
const WILSON_Z = Number(process.env.FIT_Z ?? 0);
/** Fewest dev queries above the execution cut. */
const MIN_EXECUTED = Number(process.env.FIT_MIN ?? 10);
/** Reranker weight of "the caller listed this tool in preferred_tools" (hand-set: no dev query has preferred tools). */
const PREFERRED_PRIOR = 2;
/** Reranker weight of "context object keys name this tool's parameters" (hand-set: no dev query has a context object). */
const CONTEXT_PRIOR = 1;
/** Also learn from rankings with each query's own `candidates` as the snapshot (small surfaces). */
const USE_CANDIDATES = process.env.FIT_CANDIDATES !== '0';
/** Candidates per query the confidence models learn from. */
const HEAD = Number(process.env.FIT_HEAD ?? 1);

/** Fitted parameters without provenance. */
type Fit = Omit<Calibration, 'fittedOn'>;

/** Softmax. */
function softmax(xs: number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

/** Confidence features and labels of one ranked candidate. */
interface Scored { g: number[]; toolRight: boolean; argsRight: boolean; missing: boolean }

/** Re-ranks a labeled query with reranker weights; returns the first `k` candidates' confidence features and labels. */
function headOf(q: LabeledQuery, w: number[], k: number): Scored[] {
  if (q.ranked.length === 0) return [];
  const scored = q.ranked.map((r) => ({ r, s: dot(w, r.c.features) }));
  scored.sort((a, b) => b.s - a.s || a.r.c.retrieval.rank - b.r.c.retrieval.rank);
  const probs = softmax(scored.map((x) => x.s));
  return scored.slice(0, k).map((x, i) => {
    const other = i === 0 ? scored[1] : scored[0];
    const margin = other ? x.s - other.s : 3;
    const g = confidenceFeatures(x.r.c.features, x.r.c.mapping, probs[i], margin);
    return { g, toolRight: x.r.toolRight, argsRight: x.r.argsRight, missing: x.r.c.mapping.missingArguments.length > 0 };
  });
}

/** The top candidate of a re-ranked query. */
function topOf(q: LabeledQuery, w: number[]): Scored | undefined {
  return headOf(q, w, 1)[0];
}

/** Fits everything: models on whole-corpus + candidates-snapshot rankings, the execution cut on whole-corpus ones. */
function fitAll(train: LabeledQuery[], extra: LabeledQuery[] = []): Fit {
  const cutOn = train;
  train = [...train, ...extra];
  const examples: ListExample[] = train.filter((q) => !q.irrelevant).map((q) => ({
    feats: q.ranked.map((r) => r.c.features),
    target: q.ranked.map((r) => (r.argsRight ? 2 : r.toolRight ? 1 : 0)),
  }));
  const rerankWeights = fitListwise(examples, FEATURE_NAMES.length, { l2: 1e-3, iters: 500, lr: 0.05 });
  // dev queries carry no preferred_tools and no context object: those two weights are hand-set priors
  rerankWeights[FEATURE_NAMES.indexOf('preferred')] = PREFERRED_PRIOR;
  rerankWeights[FEATURE_NAMES.indexOf('contextKeys')] = CONTEXT_PRIOR;
  const tops = train.map((q) => topOf(q, rerankWeights)).filter((t): t is NonNullable<typeof t> => t !== undefined);
  // the logistic models learn from the first HEAD candidates of each query (more examples of right and wrong mappings)
  const heads = train.flatMap((q) => headOf(q, rerankWeights, HEAD));
  const toolWeights = fitLogistic(heads.map((t) => t.g), heads.map((t) => (t.toolRight ? 1 : 0)), { l2: 1 });
  const completeHeads = heads.filter((t) => !t.missing);
  const fullWeights = fitLogistic(completeHeads.map((t) => t.g), completeHeads.map((t) => (t.argsRight ? 1 : 0)), { l2: 1 });
  const cutTops = cutOn.map((q) => topOf(q, rerankWeights)).filter((t): t is NonNullable<typeof t> => t !== undefined);
  const complete = cutTops.filter((t) => !t.missing);
  const fullCut = precisionCutoff(complete.map((t) => ({ p: predict(fullWeights, t.g), y: t.argsRight ? 1 : 0 })), PRECISION_TARGET, MIN_EXECUTED, WILSON_Z);
  // P(tool right) stays a plain calibrated probability (cut 0.7 = identity map): it only decides
  // between missing_arguments and low_confidence, and nothing runs in either case
  const toolCut = 0.7;
  void tops;
  return { rerankWeights, toolWeights, fullWeights, toolCut, fullCut };
}

/** Metrics of a fit on held-out queries. */
function evaluate(fit: Fit, test: LabeledQuery[]): { top1: number; executed: number; execRight: number; irrelevantExecuted: number; n: number } {
  let dev = 0, top1 = 0, exec = 0, execRight = 0, irr = 0, irrExec = 0;
  for (const q of test) {
    const t = topOf(q, fit.rerankWeights);
    const executes = t !== undefined && !t.missing && conservative(predict(fit.fullWeights, t.g), fit.fullCut) >= 0.7;
    if (q.irrelevant) {
      irr++;
      if (executes) irrExec++;
      continue;
    }
    dev++;
    if (t?.toolRight) top1++;
    if (executes) {
      exec++;
      if (t?.argsRight) execRight++;
    }
  }
  return { top1: top1 / Math.max(1, dev), executed: exec / Math.max(1, dev), execRight: execRight / Math.max(1, exec), irrelevantExecuted: irrExec / Math.max(1, irr), n: test.length };
}

/** Deterministic fold of a query id. */
function foldOf(id: string, k: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % k;
}

/** Formats a number array for the generated source. */
function arr(xs: number[]): string {
  return `[${xs.map((x) => Number(x.toFixed(4))).join(', ')}]`;
}

async function main(): Promise<void> {
  const dry = process.argv.includes('--dry-run');
  const { queries, retrieverLabel, data } = await runRanking({ log: true });
  const t0 = Date.now();
  const candQueries = USE_CANDIDATES ? await runCandidateRanking(data) : [];
  console.error(`[fit] candidates-snapshot rankings: ${candQueries.length} queries in ${Date.now() - t0} ms`);
  const k = 5;
  const folds = Array.from({ length: k }, () => ({ top1: 0, executed: 0, execRight: 0, irrelevantExecuted: 0 }));
  for (let f = 0; f < k; f++) {
    const fit = fitAll(queries.filter((q) => foldOf(q.q.id, k) !== f), candQueries.filter((q) => foldOf(q.q.id, k) !== f));
    const m = evaluate(fit, queries.filter((q) => foldOf(q.q.id, k) === f));
    const c = evaluate(fit, candQueries.filter((q) => foldOf(q.q.id, k) === f));
    folds[f] = m;
    console.log(`fold ${f}: top-1 ${m.top1.toFixed(3)}  executed ${m.executed.toFixed(3)}  executed right ${m.execRight.toFixed(3)}  irrelevant executed ${m.irrelevantExecuted.toFixed(3)}   [candidates snapshot: top-1 ${c.top1.toFixed(3)} executed ${c.executed.toFixed(3)} right ${c.execRight.toFixed(3)} irrelevant ${c.irrelevantExecuted.toFixed(3)}]`);
  }
  const mean = (key: keyof (typeof folds)[number]): string => (folds.reduce((a, x) => a + x[key], 0) / k).toFixed(3);
  console.log(`5-fold CV mean: top-1 ${mean('top1')}  executed ${mean('executed')}  executed right ${mean('execRight')}  irrelevant executed ${mean('irrelevantExecuted')}`);
  const fit = fitAll(queries, candQueries);
  const whole = evaluate(fit, queries);
  const small = evaluate(fit, candQueries);
  console.log(`fit on all, candidates snapshot: top-1 ${small.top1.toFixed(3)}  executed ${small.executed.toFixed(3)}  executed right ${small.execRight.toFixed(3)}  irrelevant executed ${small.irrelevantExecuted.toFixed(3)}`);
  // precision of "tool and arguments right" among the N most confident complete top candidates (dev + irrelevance)
  const ranked = queries.map((q) => topOf(q, fit.rerankWeights)).filter((t): t is NonNullable<typeof t> => t !== undefined && !t.missing).map((t) => ({ p: predict(fit.fullWeights, t.g), y: t.argsRight ? 1 : 0 })).sort((a, b) => b.p - a.p);
  let pos = 0;
  const curve: string[] = [];
  ranked.forEach((r, i) => {
    pos += r.y;
    if ([10, 25, 50, 75, 100, 150, 200, 300].includes(i + 1)) curve.push(`top${i + 1}: p>=${r.p.toFixed(3)} precision ${(pos / (i + 1)).toFixed(3)}`);
  });
  console.log('precision curve (in-sample):', curve.join(' | '));
  console.log(`fit on all dev: top-1 ${whole.top1.toFixed(3)}  executed ${whole.executed.toFixed(3)}  executed right ${whole.execRight.toFixed(3)}  irrelevant executed ${whole.irrelevantExecuted.toFixed(3)}`);
  console.log('rerank weights:', FEATURE_NAMES.map((n, i) => `${n}=${fit.rerankWeights[i].toFixed(2)}`).join(' '));
  console.log('full weights:', CONF_FEATURE_NAMES.map((n, i) => `${n}=${fit.fullWeights[i].toFixed(2)}`).join(' '), `cut=${fit.fullCut.toFixed(3)}`);
  console.log('tool weights:', CONF_FEATURE_NAMES.map((n, i) => `${n}=${fit.toolWeights[i].toFixed(2)}`).join(' '), `cut=${fit.toolCut.toFixed(3)}`);
  if (dry) return;
  const fittedOn = `scripts/fit-confidence.ts on /work/shared/eval queries.dev.jsonl (${queries.filter((q) => !q.irrelevant).length}) + queries.irrelevance.dev.jsonl (${queries.filter((q) => q.irrelevant).length}), whole corpus snapshot${USE_CANDIDATES ? ` + each query's candidates as snapshot (${candQueries.length})` : ''}, retriever: ${retrieverLabel}, top-30; 5-fold CV (whole corpus): top-1 ${mean('top1')}, executed ${mean('executed')}, executed right ${mean('execRight')}, irrelevant executed ${mean('irrelevantExecuted')}`;
  const here = dirname(fileURLToPath(import.meta.url));
  const src = `/**
 * Fitted coefficients of the reranker and of the two confidence models.
 * GENERATED by \`npx tsx libs/mapper/scripts/fit-confidence.ts\` (do not edit by hand):
 * reranker = listwise softmax over the retrieved top-30 of each dev query; confidences = L2
 * logistic regressions on the top candidate's features (dev + irrelevance dev queries), then a
 * monotone piecewise-linear map sending the raw probability at which the Wilson 90% lower bound
 * of dev precision (tool and arguments right) reached ${PRECISION_TARGET} to 0.7.
 */

/** Shape of the shipped calibration constants. */
export interface Calibration {
  /** reranker weights, FEATURE_NAMES order */
  rerankWeights: number[];
  /** logistic weights of P(tool right), CONF_FEATURE_NAMES order */
  toolWeights: number[];
  /** logistic weights of P(tool and arguments right), CONF_FEATURE_NAMES order */
  fullWeights: number[];
  /** raw P(tool right) mapped to 0.7 (piecewise-linear, monotone) */
  toolCut: number;
  /** raw P(tool and arguments right) mapped to 0.7 (piecewise-linear, monotone) */
  fullCut: number;
  /** how and on what the numbers were fitted */
  fittedOn: string;
}

/** The shipped calibration (${new Date().toISOString().slice(0, 10)}). */
export const CALIBRATION: Calibration = {
  // ${FEATURE_NAMES.join(', ')}
  rerankWeights: ${arr(fit.rerankWeights)},
  // ${CONF_FEATURE_NAMES.join(', ')}
  toolWeights: ${arr(fit.toolWeights)},
  fullWeights: ${arr(fit.fullWeights)},
  toolCut: ${fit.toolCut.toFixed(4)},
  fullCut: ${fit.fullCut.toFixed(4)},
  fittedOn: ${JSON.stringify(fittedOn)},
};
`;
  writeFileSync(resolve(here, '../src/calibration.ts'), src);
  console.log('wrote src/calibration.ts');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
