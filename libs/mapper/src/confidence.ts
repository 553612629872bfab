/**
 * Confidence features of a ranked candidate (what the calibrated logistic models in
 * calibration.ts read), and the two calibrated probabilities: the tool is right, and the tool
 * and its mapped arguments are right.
 */
import type { DetailedMapping } from '@toolsurface/analysis';
import { BASE_FEATURE_NAMES, type Features } from '@toolsurface/search';
import { sigmoid, weightedSum } from './selection.js';
import { CALIBRATION } from './calibration.js';

/** Names of the confidence features, in vector order. */
export const CONF_FEATURE_NAMES = [
  'bias',
  'prob',
  'margin',
  'queryCover',
  'nameCover',
  'queryInName',
  'fill',
  'evidence',
  'minEvidence',
  'salientUsed',
  'unusedSalient',
  'topRetrieved',
  'noRequired',
  'filledArgs',
  'weakArgs',
  'probXcover',
  'unexplained',
  'mentionedUnfilled',
  'weakKinds',
  'snapshotSize',
  'competitors',
  'probXsmall',
  'allStrong',
  'explained',
  'explainedNumeric',
  'explainedXsmall',
  'preferred',
] as const;

/** How crowded the surface is: the snapshot's tool count and how many tools the retriever returned for this request. */
export interface Competition {
  /** tools in the snapshot */
  snapshotSize: number;
  /** candidates retrieved and re-ranked for this request */
  ranked: number;
}

/** log10 of the largest snapshot the dev data has (3,091 tools): the snapshot-size feature is log10(n) over it. */
const LOG_LARGE_SNAPSHOT = Math.log10(3091);
/** Evidence score at or above which a filled argument counts as strongly evidenced (explicit name=value, quoted, anchored number). */
const STRONG_EVIDENCE = 0.7;

/** Index of a selection feature by name. */
function fi(name: (typeof BASE_FEATURE_NAMES)[number]): number {
  return BASE_FEATURE_NAMES.indexOf(name);
}

/** Builds the confidence feature vector of one ranked candidate. */
export function confidenceFeatures(
  f: Features,
  mapping: DetailedMapping,
  prob: number,
  margin: number,
  competition: Competition,
): number[] {
  const ev = Object.values(mapping.evidence).map((e) => e.score);
  const minEv = ev.length === 0 ? (mapping.requiredCount === 0 ? 1 : 0) : Math.min(...ev);
  const weak = ev.filter((e) => e < 0.45).length;
  // 0 for a one-tool surface, 1 for one the size of the whole dev corpus (beyond: capped)
  const size = Math.min(1.2, Math.log10(Math.max(1, competition.snapshotSize)) / LOG_LARGE_SNAPSHOT);
  const competitors = Math.log1p(Math.max(0, competition.ranked - 1)) / Math.log(30);
  // every request word is either in the tool's text or taken as an argument value
  const explained = f[fi('queryCover')] >= 0.99 && f[fi('unexplained')] <= 0.001 ? 1 : 0;
  const filled = Object.keys(mapping.arguments);
  const numeric = filled.length > 0 && filled.every((k) => typeof mapping.arguments[k] === 'number') ? 1 : 0;
  const allStrong =
    mapping.requiredCount > 0 && mapping.missingArguments.length === 0 && ev.length > 0 && ev.every((e) => e >= STRONG_EVIDENCE) ? 1 : 0;
  return [
    1,
    prob,
    Math.max(-3, Math.min(3, margin)),
    f[fi('queryCover')],
    f[fi('nameCover')],
    f[fi('queryInName')],
    f[fi('fill')],
    f[fi('evidence')],
    minEv,
    f[fi('salientUsed')],
    Math.min(4, mapping.unusedSalient),
    f[fi('retrievalRank')] === 1 ? 1 : 0,
    mapping.requiredCount === 0 ? 1 : 0,
    Math.log1p(Object.keys(mapping.arguments).length),
    Math.min(3, weak),
    prob * f[fi('queryCover')],
    f[fi('unexplained')],
    f[fi('mentionedUnfilled')],
    Math.min(3, mapping.weakKinds),
    size,
    competitors,
    prob * (1 - Math.min(1, size)),
    allStrong,
    explained,
    explained * numeric,
    explained * (1 - Math.min(1, size)),
    f[fi('preferred')],
  ];
}

/**
 * Monotone piecewise-linear map that sends the raw probability `cut` to 0.7: the raw
 * probability above which dev precision reached its target becomes the execution threshold.
 */
export function conservative(raw: number, cut: number): number {
  const c = Math.min(0.999, Math.max(0.001, cut));
  const v = raw < c ? (0.7 * raw) / c : 0.7 + (0.3 * (raw - c)) / (1 - c);
  return Math.min(1, Math.max(0, v));
}

/** Calibrated confidence that the tool is the right one (weights and cut given, or the shipped ones). */
export function toolConfidence(g: number[], w: readonly number[] = CALIBRATION.toolWeights, cut = CALIBRATION.toolCut): number {
  return conservative(sigmoid(weightedSum(w, g)), cut);
}

/** Snapshot size of the small-surface anchor of the execution cut: the largest per-query candidate list of the dev data. */
export const SMALL_SNAPSHOT = 37;
/** Snapshot size of the large-surface anchor: the whole dev corpus as one snapshot. */
export const LARGE_SNAPSHOT = 3091;

/** Where a snapshot of `snapshotSize` tools lies between the small (0) and the large (1) anchor, linear in log(size). */
export function sizeWeight(snapshotSize: number): number {
  const lo = Math.log(SMALL_SNAPSHOT);
  const hi = Math.log(LARGE_SNAPSHOT);
  return Math.min(1, Math.max(0, (Math.log(Math.max(1, snapshotSize)) - lo) / (hi - lo)));
}

/** The small- and large-surface models of P(tool and arguments right) with their cuts. */
export interface FullModel {
  small: readonly number[];
  large: readonly number[];
  cutSmall: number;
  cutLarge: number;
}

/** The shipped full model (calibration.ts). */
const SHIPPED_FULL: FullModel = {
  small: CALIBRATION.fullWeightsSmall,
  large: CALIBRATION.fullWeightsLarge,
  cutSmall: CALIBRATION.fullCutSmall,
  cutLarge: CALIBRATION.fullCutLarge,
};

/** Raw P(tool and arguments right): the logits of the small- and large-surface models, interpolated by snapshot size. */
export function rawFull(g: number[], snapshotSize: number, m: FullModel = SHIPPED_FULL): number {
  const t = sizeWeight(snapshotSize);
  return sigmoid((1 - t) * weightedSum(m.small, g) + t * weightedSum(m.large, g));
}

/** The raw P(tool and arguments right) that maps to 0.7 on a snapshot of `snapshotSize` tools (cuts interpolated like the logits). */
export function fullCutFor(snapshotSize: number, m: Pick<FullModel, 'cutSmall' | 'cutLarge'> = SHIPPED_FULL): number {
  const t = sizeWeight(snapshotSize);
  return (1 - t) * m.cutSmall + t * m.cutLarge;
}

/**
 * Calibrated confidence that the tool and all its mapped arguments are right, on a snapshot of
 * `snapshotSize` tools: P(tool and arguments right) is fitted separately on small surfaces
 * (each dev query's own candidates, up to 37 tools) and on the whole 3,091-tool corpus, because
 * the same evidence is worth more when fewer tools compete; sizes between interpolate.
 */
export function fullConfidence(g: number[], snapshotSize: number, m: FullModel = SHIPPED_FULL): number {
  return conservative(rawFull(g, snapshotSize, m), fullCutFor(snapshotSize, m));
}
