/**
 * The calibration's fitting procedure, shared by fit-confidence.ts (which fits on all the dev
 * data and writes libs/mapper/src/calibration.ts) and split-eval.ts (which fits on one half of
 * it and scores the other): the reranker, the two confidence models, the execution cuts chosen
 * out of fold, and the tallies of the decisions they make. fit-confidence.ts's first comment
 * describes the procedure; the FIT_* environment variables below override its settings.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { runRanking, runCandidateRanking, type LabeledQuery } from './eval-lib.js';
import { averageMlps, fitListwise, fitListwiseMlpParallel, fitLogistic, predict, wilsonLower, type ListExample } from './fit-lib.js';
import { FEATURE_NAMES, listwiseScorer, type HiddenLayer } from '@toolsurface/search';
import type { Calibration } from '@toolsurface/mapper/internal';
import {
  CANDIDATES_SHOWN,
  confidenceFeatures,
  CONF_FEATURE_NAMES,
  conservative,
  fullCutFor,
  heldBackReason,
  rawFull,
  SMALL_SNAPSHOT,
} from '@toolsurface/mapper/internal';

/**
 * The execution cut's test: a one-sided 95% Wilson lower bound (z 1.645) of 0.90 precision, the
 * target itself, over the out-of-fold calls executed at the cut and at every higher cut ('every');
 * a cut with fewer than MIN_EXECUTED calls passes only when none of them is wrong ('clean'). Judged
 * by halves (tools/mapper/split-eval.ts --fit both; docs/decisions/mapper-strict-execution-cut.md),
 * the looser test (FIT_Z=0 FIT_PRECISION=0.95 FIT_FEW=pass FIT_CUT_RULE=pooled: the point estimate
 * over all calls at the cut together, few calls unjudged) ran 113 calls of one unseen half's small
 * snapshots at 0.912 and 2 of its 308 irrelevance requests; this one ran 15, all right.
 */
export const PRECISION_TARGET = Number(process.env.FIT_PRECISION ?? 0.9);
/** z of that Wilson lower bound (0: the point estimate). */
export const WILSON_Z = Number(process.env.FIT_Z ?? 1.645);
/** Fewest out-of-fold executions a cut needs in a setting before its precision is judged. */
export const MIN_EXECUTED = Number(process.env.FIT_MIN ?? 25);
/**
 * How a cut with fewer than MIN_EXECUTED out-of-fold executions is judged: 'clean' (default: only
 * when none of them is wrong), or 'pass' (too few calls to judge).
 */
export const FEW_RULE = process.env.FIT_FEW ?? 'clean';
if (FEW_RULE !== 'pass' && FEW_RULE !== 'clean') throw new Error(`FIT_FEW must be pass or clean (got ${FEW_RULE})`);
/**
 * How a cut is judged. 'every' (default): the calls executed at that cut, and those of every
 * higher cut, keep the target, so a wrong stretch among the most confident calls stops the scan
 * rather than being averaged away by the many right calls under it. 'pooled': all the calls
 * executed at that cut, together, keep it.
 */
export const CUT_RULE = process.env.FIT_CUT_RULE ?? 'every';
if (CUT_RULE !== 'pooled' && CUT_RULE !== 'every') throw new Error(`FIT_CUT_RULE must be pooled or every (got ${CUT_RULE})`);
/** Reranker weight of "the caller listed this tool in preferred_tools" (hand-set: no dev query has preferred tools). */
export const PREFERRED_PRIOR = 4;
/** Logit added to both confidences of a tool the caller listed in preferred_tools (hand-set, like PREFERRED_PRIOR). */
export const PREFERRED_CONFIDENCE_PRIOR = 1;
/** Reranker weight of "context object keys name this tool's parameters" (hand-set: no dev query has a context object). */
export const CONTEXT_PRIOR = 1;
/**
 * L2 strength of the reranker. Chosen by this script's 5-fold cross-validation (whole-corpus
 * top-1 out of fold): 1e-3 0.746, 3e-4 0.749, 1e-4 0.753, 1e-5 0.754; stronger
 * (3e-3, 1e-2) is worse in sample too (0.742, 0.736). 1e-4 is inside the plateau.
 */
export const RERANK_L2 = Number(process.env.FIT_RERANK_L2 ?? 1e-4);
/**
 * Reranker target of a candidate whose tool and arguments are right (a right tool alone is 1).
 * Chosen by this script's 5-fold cross-validation (whole corpus out of fold, argument
 * accuracy on single-call requests / top-1): 2 0.579 / 0.761,
 * 4 0.580 / 0.761, 8 0.583 / 0.762, 16 0.579 / 0.760, 40 0.579 / 0.757.
 */
export const ARGS_RIGHT_TARGET = Number(process.env.FIT_ARGS_TARGET ?? 8);
/** Hidden units of each reranker model (0: linear weights alone). */
export const RERANK_UNITS = Number(process.env.FIT_RERANK_UNITS ?? 0);
/** Reranker models fitted from different random starts and averaged (seeds 1..RERANK_SEEDS). */
export const RERANK_SEEDS = Number(process.env.FIT_RERANK_SEEDS ?? 3);
/** L2 strength of the reranker's hidden weights. */
export const RERANK_L2_HIDDEN = Number(process.env.FIT_RERANK_L2_HIDDEN ?? 1e-2);
for (const [name, v, min] of [
  ['FIT_RERANK_UNITS', RERANK_UNITS, 0],
  ['FIT_RERANK_SEEDS', RERANK_SEEDS, 1],
] as const) {
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min} (got ${v})`);
}
/** Candidates per query the confidence models learn from (results list the first CANDIDATES_SHOWN with confidences). */
export const HEAD = Number(process.env.FIT_HEAD ?? 5);
/** Folds of the cross-validation (outer report, inner cut). */
export const K = 5;
/** L2 strength of the confidence logistic regressions. */
export const L2 = Number(process.env.FIT_L2 ?? 1);

/** A fitted reranker: linear weights (FEATURE_NAMES order) and an optional hidden layer. */
export interface Reranker {
  rerankWeights: number[];
  rerankHidden?: HiddenLayer;
}
/** Reranker and logistic weights, without the cut. */
export interface Models extends Reranker {
  toolWeights: number[];
  fullWeightsSmall: number[];
  fullWeightsLarge: number[];
}

/** Scoring functions of fitted rerankers, made once each. */
const scorers = new WeakMap<Reranker, (x: readonly number[]) => number>();
/** The score function of a fitted reranker. */
function scorerOf(r: Reranker): (x: readonly number[]) => number {
  let s = scorers.get(r);
  if (s === undefined) scorers.set(r, (s = listwiseScorer(r.rerankWeights, r.rerankHidden)));
  return s;
}
/** Fitted parameters without provenance. */
export type Fit = Omit<Calibration, 'fittedOn' | 'crossValidated'>;

/** Softmax. */
function softmax(xs: number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

/** A head candidate's confidence features and labels; `vetoed`: UnifiedMapper.decide never runs it (heldBackReason). */
export interface Scored {
  name: string;
  g: number[];
  toolRight: boolean;
  argsRight: boolean;
  missing: boolean;
  vetoed: boolean;
}

/** Re-ranks a labeled query with reranker weights; returns the first `k` candidates' confidence features and labels. */
export function headOf(q: LabeledQuery, reranker: Reranker, k: number): Scored[] {
  if (q.ranked.length === 0) return [];
  const score = scorerOf(reranker);
  const scored = q.ranked.map((r) => ({ r, s: score(r.c.features) }));
  scored.sort((a, b) => b.s - a.s || a.r.c.retrieval.rank - b.r.c.retrieval.rank);
  const probs = softmax(scored.map((x) => x.s));
  const ranking = scored.map((y) => y.r.c);
  return scored.slice(0, k).map((x, i) => {
    const other = i === 0 ? scored[1] : scored[0];
    const margin = other ? x.s - other.s : 3;
    const g = confidenceFeatures(x.r.c.features, x.r.c.mapping, probs[i], margin, {
      snapshotSize: q.snapshotSize,
      ranked: q.ranked.length,
    });
    return {
      name: x.r.c.name,
      g,
      toolRight: x.r.toolRight,
      argsRight: x.r.argsRight,
      missing: x.r.c.mapping.missingArguments.length > 0,
      vetoed: heldBackReason(x.r.c, ranking) !== undefined,
    };
  });
}

/**
 * Fits one reranker (listwise softmax on the non-irrelevant queries) per training set: linear
 * weights, and with RERANK_UNITS > 0 a hidden layer, RERANK_SEEDS fits averaged (in child
 * processes, one per core).
 */
export async function fitRerankers(trainSets: LabeledQuery[][]): Promise<Reranker[]> {
  const exampleOf = (q: LabeledQuery): ListExample => ({
    feats: q.ranked.map((r) => r.c.features),
    target: q.ranked.map((r) => (r.argsRight ? ARGS_RIGHT_TARGET : r.toolRight ? 1 : 0)),
  });
  // dev queries carry no preferred_tools and no context object: those two linear weights are
  // hand-set priors (the hidden layer reads both as constant 0 in training, so it learns nothing of them)
  const withPriors = (w: number[]): number[] => {
    w[FEATURE_NAMES.indexOf('preferred')] = PREFERRED_PRIOR;
    w[FEATURE_NAMES.indexOf('contextKeys')] = CONTEXT_PRIOR;
    return w;
  };
  const dim = FEATURE_NAMES.length;
  if (RERANK_UNITS <= 0) {
    return trainSets.map((train) => ({
      rerankWeights: withPriors(
        fitListwise(train.filter((q) => !q.irrelevant).map(exampleOf), dim, {
          l2: RERANK_L2,
          iters: Number(process.env.FIT_RERANK_ITERS ?? 500),
          lr: 0.05,
        }),
      ),
    }));
  }
  // every query once; each set names its queries by index
  const pool = [...new Set(trainSets.flat().filter((q) => !q.irrelevant))];
  const at = new Map(pool.map((q, i) => [q, i]));
  const examples = pool.map(exampleOf);
  const jobs = trainSets.flatMap((train) => {
    const subset = train.filter((q) => !q.irrelevant).map((q) => at.get(q)!);
    return Array.from({ length: RERANK_SEEDS }, (_, i) => ({
      subset,
      opts: {
        units: RERANK_UNITS,
        l2: RERANK_L2,
        l2Hidden: RERANK_L2_HIDDEN,
        iters: Number(process.env.FIT_RERANK_ITERS ?? 400),
        lr: 0.02,
        seed: i + 1,
      },
    }));
  });
  const models = await fitListwiseMlpParallel(examples, dim, jobs);
  return trainSets.map((_, j) => {
    const m = averageMlps(models.slice(j * RERANK_SEEDS, (j + 1) * RERANK_SEEDS));
    return { rerankWeights: withPriors(m.weights), rerankHidden: m.hidden };
  });
}

/**
 * Fits the confidence models on the heads of `train` re-ranked with `rerankWeights`: P(tool
 * right) on all of them, P(tool and arguments right) once on small snapshots and once on the
 * whole corpus (`large`: snapshots of more than SMALL_SNAPSHOT tools).
 */
export function fitConfidence(train: LabeledQuery[], reranker: Reranker): Models {
  const heads = train.flatMap((q) => headOf(q, reranker, HEAD).map((h) => ({ ...h, large: q.snapshotSize > SMALL_SNAPSHOT })));
  const toolWeights = fitLogistic(
    heads.map((t) => t.g),
    heads.map((t) => (t.toolRight ? 1 : 0)),
    { l2: L2 },
  );
  const full = (large: boolean) => {
    const complete = heads.filter((t) => !t.missing && t.large === large);
    return fitLogistic(
      complete.map((t) => t.g),
      complete.map((t) => (t.argsRight ? 1 : 0)),
      { l2: L2 },
    );
  };
  const out = { ...reranker, toolWeights, fullWeightsSmall: full(false), fullWeightsLarge: full(true) };
  // dev queries name no preferred tool: the confidences' weight of it is a hand-set prior too
  const k = CONF_FEATURE_NAMES.indexOf('preferred');
  for (const w of [out.toolWeights, out.fullWeightsSmall, out.fullWeightsLarge]) w[k] = PREFERRED_CONFIDENCE_PRIOR;
  return out;
}

/** One query's decision inputs under some models: the shown candidates with raw probabilities. */
export interface Scoring {
  irrelevant: boolean;
  /** a single-call dev request (argument accuracy is scored on these) */ single: boolean;
  small: boolean;
  snapshotSize: number;
  head: { s: Scored; rawTool: number; rawFull: number }[];
}

/** Scores a query's shown candidates with fitted models (raw, before the cut's map). */
export function score(q: LabeledQuery, m: Models, small: boolean): Scoring {
  const fm = { small: m.fullWeightsSmall, large: m.fullWeightsLarge, cutSmall: 0.5, cutLarge: 0.5 };
  return {
    irrelevant: q.irrelevant,
    single: !q.irrelevant && q.q.arguments != null,
    small,
    snapshotSize: q.snapshotSize,
    head: headOf(q, m, CANDIDATES_SHOWN).map((s) => ({
      s,
      rawTool: predict(m.toolWeights, s.g),
      rawFull: rawFull(s.g, q.snapshotSize, fm),
    })),
  };
}

/** The decision `UnifiedMapper.decide` makes for a scored query at given cuts: the reranker's first tool, gated by its confidence. */
export function decideAt(sc: Scoring, toolCut: number, cuts: Cuts): { chosen?: Scored; executes: boolean; missingArgs: boolean } {
  const fullCut = fullCutFor(sc.snapshotSize, { cutSmall: cuts.small, cutLarge: cuts.large });
  const h = sc.head[0];
  if (!h) return { executes: false, missingArgs: false };
  const c = h.s.missing ? conservative(h.rawTool, toolCut) : conservative(h.rawFull, fullCut);
  return { chosen: h.s, executes: !h.s.missing && !h.s.vetoed && c >= 0.7, missingArgs: h.s.missing && c >= 0.7 };
}

/** Counts of a set of decisions. */
export interface Tally {
  dev: number;
  top1: number;
  single: number;
  singleRight: number;
  executed: number;
  executedRight: number;
  irrelevant: number;
  irrelevantExecuted: number;
  missing: number;
  missingToolRight: number;
}

/** A tally of no decisions. */
export function zeroTally(): Tally {
  return {
    dev: 0,
    top1: 0,
    single: 0,
    singleRight: 0,
    executed: 0,
    executedRight: 0,
    irrelevant: 0,
    irrelevantExecuted: 0,
    missing: 0,
    missingToolRight: 0,
  };
}

/** Tallies decisions over scored queries. */
export function tally(scored: Scoring[], toolCut: number, cuts: Cuts): Tally {
  const t = zeroTally();
  for (const sc of scored) {
    const d = decideAt(sc, toolCut, cuts);
    if (sc.irrelevant) {
      t.irrelevant++;
      if (d.executes) t.irrelevantExecuted++;
      continue;
    }
    t.dev++;
    if (d.chosen?.toolRight) t.top1++;
    if (sc.single) {
      t.single++;
      if (d.chosen?.argsRight) t.singleRight++;
    }
    if (d.executes) {
      t.executed++;
      if (d.chosen?.argsRight) t.executedRight++;
    }
    if (d.missingArgs) {
      t.missing++;
      if (d.chosen?.toolRight) t.missingToolRight++;
    }
  }
  return t;
}

/** The execution cuts (raw P(tool and arguments right) mapped to 0.7) of small and large snapshots. */
export interface Cuts {
  small: number;
  large: number;
}

/**
 * The smallest raw cut at which the executed calls of one setting (whole corpus, or small
 * snapshots) keep a Wilson lower bound of precision at the target (CUT_RULE 'every': and those
 * of every higher cut); a cut with fewer than MIN_EXECUTED executions is judged by FEW_RULE.
 */
export function chooseCut(scored: Scoring[], toolCut: number): number {
  const raws = [...new Set(scored.flatMap((sc) => sc.head.filter((h) => !h.s.missing).map((h) => h.rawFull)))].sort((a, b) => a - b);
  // a grid of at most 400 quantiles of the raw scores, scanned from the top
  const grid = raws.length <= 400 ? raws : Array.from({ length: 400 }, (_, i) => raws[Math.floor((i * (raws.length - 1)) / 399)]);
  let cut = 0.999;
  for (let i = grid.length - 1; i >= 0; i--) {
    const c = grid[i];
    const t = tally(scored, toolCut, { small: c, large: c });
    const executed = t.executed + t.irrelevantExecuted;
    const ok =
      executed < MIN_EXECUTED
        ? FEW_RULE === 'pass' || t.executedRight === executed
        : wilsonLower(t.executedRight, executed, WILSON_Z) >= PRECISION_TARGET;
    if (ok) cut = c;
    else if (CUT_RULE === 'every') break;
  }
  return cut;
}

/**
 * What a query's fold is drawn by: its request text, lower-cased with runs of space made one. The
 * dev data repeats 84 requests word for word under different ids (185 queries: "What's the area
 * of a circle with a radius of 10?" is both simple_python_8 and multiple_97); split by id, a copy
 * could train the fold that tests the other and flatter the cross-validated figures.
 */
export function groupOf(q: LabeledQuery): string {
  return q.q.query.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Deterministic fold of a query id. */
export function foldOf(id: string, k: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % k;
}

/**
 * Fits everything on `whole` (whole-corpus rankings) + `small` (candidates-snapshot rankings):
 * the reranker and the confidence models on all of them, and the cut on out-of-fold scores of
 * the confidence models (reranker fixed) over K inner folds.
 */
export function fitAll(whole: LabeledQuery[], small: LabeledQuery[], reranker: Reranker): Fit {
  const all = [...whole, ...small];
  const models = fitConfidence(all, reranker);
  // P(tool right) stays a plain calibrated probability (cut 0.7 = identity map): it only decides
  // between missing_arguments and low_confidence, and nothing runs in either case
  const toolCut = 0.7;
  const oof: Scoring[] = [];
  for (let g = 0; g < K; g++) {
    const inner = fitConfidence(
      all.filter((q) => foldOf(`inner:${groupOf(q)}`, K) !== g),
      reranker,
    );
    for (const q of whole) if (foldOf(`inner:${groupOf(q)}`, K) === g) oof.push(score(q, inner, false));
    for (const q of small) if (foldOf(`inner:${groupOf(q)}`, K) === g) oof.push(score(q, inner, true));
  }
  const fullCutSmall = chooseCut(
    oof.filter((x) => x.small),
    toolCut,
  );
  const fullCutLarge = chooseCut(
    oof.filter((x) => !x.small),
    toolCut,
  );
  if (process.env.FIT_CURVE) printCurve(oof, toolCut);
  return { ...models, toolCut, fullCutSmall, fullCutLarge };
}

/** Prints out-of-fold precision of the N most confident executable decisions, per setting. */
export function printCurve(oof: Scoring[], toolCut: number): void {
  for (const small of [false, true]) {
    const rows = oof
      .filter((s) => s.small === small)
      .map((sc) => {
        const d = decideAt(sc, toolCut, { small: 0.999, large: 0.999 });
        const h = sc.head.find((x) => x.s === d.chosen);
        return { p: h && !h.s.missing ? h.rawFull : -1, y: d.chosen?.argsRight ? 1 : 0 };
      })
      .filter((r) => r.p >= 0)
      .sort((a, b) => b.p - a.p);
    let pos = 0;
    const out: string[] = [];
    rows.forEach((r, i) => {
      pos += r.y;
      if ([5, 10, 20, 30, 40, 50, 75, 100, 150, 200].includes(i + 1))
        out.push(`${i + 1}: p>=${r.p.toFixed(3)} prec ${(pos / (i + 1)).toFixed(2)}`);
    });
    console.log(`[oof curve ${small ? 'small' : 'whole'}] ${out.join(' | ')}`);
  }
}

/** One line of figures. */
export function line(t: Tally): string {
  const r = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));
  return `top-1 ${r(t.top1, t.dev)}  args (single-call) ${r(t.singleRight, t.single)}  executed ${r(t.executed, t.dev)} (${t.executed})  executed right ${r(t.executedRight, t.executed)}  irrelevant executed ${r(t.irrelevantExecuted, t.irrelevant)}  missing_arguments ${r(t.missing, t.dev)} (tool right ${r(t.missingToolRight, t.missing)})`;
}

/** Adds two tallies. */
export function add(a: Tally, b: Tally): Tally {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof Tally)[]) out[k] += b[k];
  return out;
}

/** Loads the rankings from the cache file, or computes them (and writes the cache when asked). */
export async function rankings(
  cache: string | undefined,
): Promise<{ whole: LabeledQuery[]; small: LabeledQuery[]; retrieverLabel: string }> {
  if (cache && existsSync(cache)) {
    console.error(`[fit] rankings from ${cache}`);
    return JSON.parse(readFileSync(cache, 'utf8')) as { whole: LabeledQuery[]; small: LabeledQuery[]; retrieverLabel: string };
  }
  const { queries, retrieverLabel, data } = await runRanking({ log: true });
  const t0 = Date.now();
  const small = await runCandidateRanking(data);
  console.error(`[fit] candidates-snapshot rankings: ${small.length} queries in ${Date.now() - t0} ms`);
  const out = { whole: queries, small, retrieverLabel };
  if (cache) writeFileSync(cache, JSON.stringify(out));
  return out;
}
