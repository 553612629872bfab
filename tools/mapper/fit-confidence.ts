/**
 * Refits the reranker and the confidence calibration on the dev data and rewrites
 * libs/mapper/src/calibration.ts. Run from the repository root:
 *
 *   npx tsx tools/mapper/fit-confidence.ts            # fit + cross-validated report + write
 *   npx tsx tools/mapper/fit-confidence.ts --dry-run  # report only
 *   ... --cache FILE   # keep the (slow) rankings in FILE and reuse them while features stay the same
 *
 * 1. Reranker: listwise softmax over the retrieved top-30 of each dev query; positives are the
 *    candidates whose corpus name is in `relevant` (weight 2 when their mapped arguments are
 *    also right, else 1). The `preferred` and `contextKeys` weights are fixed priors (the dev
 *    data has neither preferred_tools nor context objects).
 * 2. Confidence: two L2 logistic regressions on the first HEAD candidates' confidence features,
 *    dev + irrelevance queries: P(tool right) and P(tool and arguments right) (the latter on
 *    candidates with no missing required argument; irrelevance = 0). Both the reranker and these
 *    learn from two settings: the whole corpus as one snapshot, and each query's own
 *    `candidates` as the snapshot (the small surfaces the gateway usually has); the confidence
 *    features include the snapshot size and how many tools competed.
 * 3. Execution cuts, chosen out of fold: the logistic models are refitted K times, each time
 *    without one fold, and score that fold; in each setting (small snapshots, whole corpus) the
 *    smallest raw P(tool and arguments right) at which the out-of-fold executed calls keep a
 *    Wilson lower bound of PRECISION_TARGET, there and at every higher cut (fit-procedure.ts
 *    CUT_RULE), is mapped to 0.7 (sizes between: log interpolation).
 * 4. Report: the whole procedure (1-3) is cross-validated by query (outer K folds: the held-out
 *    fold touches neither a fit nor the cut), and the pooled out-of-fold figures are printed
 *    beside the in-sample ones and written into calibration.ts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { hiddenLayerSource } from './fit-lib.js';
import type { LabeledQuery } from './eval-lib.js';
import { FEATURE_NAMES, listwiseProblem } from '@toolsurface/search';
import { CONF_FEATURE_NAMES } from '@toolsurface/mapper/internal';
import {
  add,
  fitAll,
  fitRerankers,
  foldOf,
  groupOf,
  K,
  line,
  rankings,
  score,
  tally,
  zeroTally,
  HEAD,
  PRECISION_TARGET,
  RERANK_SEEDS,
  RERANK_UNITS,
  WILSON_Z,
  CUT_RULE,
  FEW_RULE,
  MIN_EXECUTED,
  type Models,
  type Tally,
} from './fit-procedure.js';

/** Formats a number array for the generated source. */
function arr(xs: number[]): string {
  return `[${xs.map((x) => Number(x.toFixed(4))).join(', ')}]`;
}

/** A tally as the generated CvFigures literal. */
function cvJson(t: Tally): string {
  const r = (a: number, b: number) => Number((a / Math.max(1, b)).toFixed(4));
  return `{ top1: ${r(t.top1, t.dev)}, executed: ${r(t.executed, t.dev)}, executedCalls: ${t.executed}, executedFullyRight: ${t.executed === 0 ? 'null' : r(t.executedRight, t.executed)}, irrelevantExecuted: ${r(t.irrelevantExecuted, t.irrelevant)} }`;
}

async function main(): Promise<void> {
  const dry = process.argv.includes('--dry-run');
  const ci = process.argv.indexOf('--cache');
  const { whole, small, retrieverLabel } = await rankings(ci >= 0 ? process.argv[ci + 1] : undefined);
  const zero = zeroTally();
  const trainOf = (f: number): [LabeledQuery[], LabeledQuery[]] => [
    whole.filter((q) => foldOf(groupOf(q), K) !== f),
    small.filter((q) => foldOf(groupOf(q), K) !== f),
  ];
  if (process.env.FIT_ONLY_ALL) {
    fitAll(whole, small, (await fitRerankers([[...whole, ...small]]))[0]);
    return;
  }
  // the rerankers of the K outer folds and of all data, fitted side by side
  const t0 = Date.now();
  const rerankers = await fitRerankers([...Array.from({ length: K }, (_, f) => trainOf(f).flat()), [...whole, ...small]]);
  console.error(`[fit] ${K + 1} rerankers in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  let cvWhole = { ...zero };
  let cvSmall = { ...zero };
  for (let f = 0; f < K; f++) {
    const t0 = Date.now();
    const fit = fitAll(...trainOf(f), rerankers[f]);
    const models: Models = fit;
    const cuts = { small: fit.fullCutSmall, large: fit.fullCutLarge };
    const tw = tally(
      whole.filter((q) => foldOf(groupOf(q), K) === f).map((q) => score(q, models, false)),
      fit.toolCut,
      cuts,
    );
    const ts = tally(
      small.filter((q) => foldOf(groupOf(q), K) === f).map((q) => score(q, models, true)),
      fit.toolCut,
      cuts,
    );
    cvWhole = add(cvWhole, tw);
    cvSmall = add(cvSmall, ts);
    console.log(
      `fold ${f} (cuts ${fit.fullCutSmall.toFixed(3)}/${fit.fullCutLarge.toFixed(3)}, ${((Date.now() - t0) / 1000).toFixed(0)} s): whole corpus ${line(tw)}`,
    );
    console.log(`       small snapshots ${line(ts)}`);
  }
  console.log(`${K}-fold CV, pooled out-of-fold, whole corpus:    ${line(cvWhole)}`);
  console.log(`${K}-fold CV, pooled out-of-fold, small snapshots: ${line(cvSmall)}`);
  const fit = fitAll(whole, small, rerankers[K]);
  const cuts = { small: fit.fullCutSmall, large: fit.fullCutLarge };
  const inWhole = tally(
    whole.map((q) => score(q, fit, false)),
    fit.toolCut,
    cuts,
  );
  const inSmall = tally(
    small.map((q) => score(q, fit, true)),
    fit.toolCut,
    cuts,
  );
  console.log(`fit on all, in-sample, whole corpus:    ${line(inWhole)}`);
  console.log(`fit on all, in-sample, small snapshots: ${line(inSmall)}`);
  console.log('rerank weights:', FEATURE_NAMES.map((n, i) => `${n}=${fit.rerankWeights[i].toFixed(2)}`).join(' '));
  console.log(
    'full weights, small:',
    CONF_FEATURE_NAMES.map((n, i) => `${n}=${fit.fullWeightsSmall[i].toFixed(2)}`).join(' '),
    `cut=${fit.fullCutSmall.toFixed(3)}`,
  );
  console.log(
    'full weights, large:',
    CONF_FEATURE_NAMES.map((n, i) => `${n}=${fit.fullWeightsLarge[i].toFixed(2)}`).join(' '),
    `cut=${fit.fullCutLarge.toFixed(3)}`,
  );
  console.log(
    'tool weights:',
    CONF_FEATURE_NAMES.map((n, i) => `${n}=${fit.toolWeights[i].toFixed(2)}`).join(' '),
    `cut=${fit.toolCut.toFixed(3)}`,
  );
  if (dry) return;
  const r = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));
  const fittedOn =
    `tools/mapper/fit-confidence.ts on the eval data's queries.dev.jsonl (${whole.filter((q) => !q.irrelevant).length}) + queries.irrelevance.dev.jsonl (${whole.filter((q) => q.irrelevant).length}), whole corpus snapshot + each query's candidates as snapshot (${small.length}), retriever: ${retrieverLabel}, top-30. ` +
    `Whole corpus, ${K}-fold CV pooled out of fold: top-1 ${r(cvWhole.top1, cvWhole.dev)}, executed ${r(cvWhole.executed, cvWhole.dev)}, executed right ${r(cvWhole.executedRight, cvWhole.executed)} (${cvWhole.executed} calls), irrelevant executed ${r(cvWhole.irrelevantExecuted, cvWhole.irrelevant)}; ` +
    `in sample: executed ${r(inWhole.executed, inWhole.dev)}, executed right ${r(inWhole.executedRight, inWhole.executed)}. ` +
    `Small snapshots, CV: executed ${r(cvSmall.executed, cvSmall.dev)}, executed right ${r(cvSmall.executedRight, cvSmall.executed)} (${cvSmall.executed} calls), irrelevant executed ${r(cvSmall.irrelevantExecuted, cvSmall.irrelevant)}`;
  const here = dirname(fileURLToPath(import.meta.url));
  const src = `/**
 * Fitted coefficients of the reranker and of the two confidence models.
 * GENERATED by \`npx tsx tools/mapper/fit-confidence.ts\` (do not edit by hand):
 * reranker = listwise softmax over the retrieved top-30 of each dev query${
   RERANK_UNITS > 0
     ? ` (linear weights and a
 * hidden layer: ${RERANK_SEEDS} fits of ${RERANK_UNITS} tanh units averaged)`
     : ' (linear)'
 }; confidences = L2
 * logistic regressions on the first ${HEAD} candidates' features (dev + irrelevance dev queries, whole
 * corpus and small snapshots; P(tool and arguments right) once per setting), then a monotone piecewise-linear map sending the raw probability
 * at which the out-of-fold executed calls reached a Wilson lower bound (z ${WILSON_Z}) of ${PRECISION_TARGET}
 * precision (tool and arguments right; rule '${CUT_RULE}', fewer than ${MIN_EXECUTED} calls: '${FEW_RULE}') to 0.7.
 */
import type { HiddenLayer } from '@toolsurface/search';

/** Shape of the shipped calibration constants. */
export interface Calibration {
  /** reranker weights, FEATURE_NAMES order */
  rerankWeights: number[];
  /** the reranker's hidden layer beside those weights (listwise.ts), when it has one */
  rerankHidden?: HiddenLayer;
  /** logistic weights of P(tool right), CONF_FEATURE_NAMES order */
  toolWeights: number[];
  /** logistic weights of P(tool and arguments right) on small snapshots (<= 37 tools), CONF_FEATURE_NAMES order */
  fullWeightsSmall: number[];
  /** the same on large snapshots (>= 3,091 tools); sizes between interpolate the logit in log(size) */
  fullWeightsLarge: number[];
  /** raw P(tool right) mapped to 0.7 (piecewise-linear, monotone) */
  toolCut: number;
  /** raw P(tool and arguments right) mapped to 0.7 on small snapshots (<= 37 tools; piecewise-linear, monotone) */
  fullCutSmall: number;
  /** the same on large snapshots (>= 3,091 tools); sizes between interpolate in log(size) */
  fullCutLarge: number;
  /** pooled out-of-fold figures of the whole fitting procedure (outer 5-fold CV by query), per setting */
  crossValidated: { wholeCorpus: CvFigures; smallSnapshots: CvFigures };
  /** how and on what the numbers were fitted, with the cross-validated figures */
  fittedOn: string;
}

/** Cross-validated figures of one setting: shares of dev requests, and precision of the executed calls. */
export interface CvFigures { top1: number; executed: number; executedCalls: number; executedFullyRight: number | null; irrelevantExecuted: number }

/** The shipped calibration, as tools/mapper/fit-confidence.ts fitted it. */
export const CALIBRATION: Calibration = {
  // ${FEATURE_NAMES.join(', ')}
  rerankWeights: ${arr(fit.rerankWeights)},${fit.rerankHidden ? `\n  rerankHidden: ${hiddenLayerSource(fit.rerankHidden)},` : ''}
  // ${CONF_FEATURE_NAMES.join(', ')}
  toolWeights: ${arr(fit.toolWeights)},
  fullWeightsSmall: ${arr(fit.fullWeightsSmall)},
  fullWeightsLarge: ${arr(fit.fullWeightsLarge)},
  toolCut: ${fit.toolCut.toFixed(4)},
  fullCutSmall: ${fit.fullCutSmall.toFixed(4)},
  fullCutLarge: ${fit.fullCutLarge.toFixed(4)},
  crossValidated: { wholeCorpus: ${cvJson(cvWhole)}, smallSnapshots: ${cvJson(cvSmall)} },
  fittedOn: ${JSON.stringify(fittedOn)},
};
`;
  const problem = listwiseProblem(FEATURE_NAMES.length, fit.rerankWeights, fit.rerankHidden);
  if (problem !== undefined) throw new Error(`the fitted reranker cannot be shipped: its weights ${problem}`);
  writeFileSync(resolve(here, '../../libs/mapper/src/calibration.ts'), src);
  console.log('wrote libs/mapper/src/calibration.ts');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
