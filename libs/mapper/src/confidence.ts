/**
 * Confidence features of a ranked candidate (what the calibrated logistic models in
 * calibration.ts read), and the two calibrated probabilities: the tool is right, and the tool
 * and its mapped arguments are right.
 */
import { dot, sigmoid, FEATURE_NAMES, type Features } from './select.js';
import type { DetailedMapping } from './arguments.js';
import { CALIBRATION } from './calibration.js';

/** Names of the confidence features, in vector order. */
export const CONF_FEATURE_NAMES = [
  'bias', 'prob', 'margin', 'queryCover', 'nameCover', 'queryInName', 'fill', 'evidence', 'minEvidence', 'salientUsed',
  'unusedSalient', 'topRetrieved', 'noRequired', 'filledArgs', 'weakArgs', 'probXcover', 'unexplained', 'mentionedUnfilled',
  'weakKinds',
] as const;

/** Index of a selection feature by name. */
function fi(name: (typeof FEATURE_NAMES)[number]): number {
  return FEATURE_NAMES.indexOf(name);
}

/** Builds the confidence feature vector of one ranked candidate. */
export function confidenceFeatures(f: Features, mapping: DetailedMapping, prob: number, margin: number): number[] {
  const ev = Object.values(mapping.evidence).map((e) => e.score);
  const minEv = ev.length === 0 ? (mapping.requiredCount === 0 ? 1 : 0) : Math.min(...ev);
  const weak = ev.filter((e) => e < 0.45).length;
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
  return conservative(sigmoid(dot(w, g)), cut);
}

/** Calibrated confidence that the tool and all its mapped arguments are right. */
export function fullConfidence(g: number[], w: readonly number[] = CALIBRATION.fullWeights, cut = CALIBRATION.fullCut): number {
  return conservative(sigmoid(dot(w, g)), cut);
}
