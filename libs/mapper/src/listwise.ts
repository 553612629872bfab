/**
 * The scoring form of the learned rankers (the discover_tools head reranker, head-rerank.ts, and
 * the unified mapper's candidate reranker, mapper.ts): linear weights over a feature vector, plus
 * an optional hidden layer of tanh units over the standardised features. Fitted by
 * scripts/fit-lib.ts (`fitListwiseMlp`, listwise softmax).
 */

/**
 * A hidden layer beside the linear weights: unit k adds output[k] × tanh(bias[k] + Σ_f z_f ×
 * input[f × units + k]), where z_f = (x_f − mean[f]) / scale[f] standardises feature f.
 */
export interface HiddenLayer {
  units: number;
  mean: readonly number[];
  scale: readonly number[];
  /** row-major, features × units */
  input: readonly number[];
  bias: readonly number[];
  output: readonly number[];
}

/**
 * Linear weights and an optional hidden layer as a scoring function of a feature vector (higher
 * is better; features past the weights' length are ignored, and a shorter vector reads its
 * missing features as 0 in both parts; NaN in, NaN out, as with a dot product). The standardisation is folded into
 * the hidden layer once (input / scale, bias − Σ mean × input / scale) and each unit's weights
 * are contiguous, so a call does one pass per unit: about 5 µs for 48 units of 45 features here,
 * half of it Math.tanh.
 */
export function listwiseScorer(weights: readonly number[], layer?: HiddenLayer): (x: readonly number[]) => number {
  const dim = weights.length;
  const w = Float64Array.from(weights);
  const units = layer?.units ?? 0;
  // unit k's weights at k × dim … (k + 1) × dim − 1
  const u = new Float64Array(units * dim);
  const b = new Float64Array(units);
  const out = Float64Array.from(layer?.output ?? []);
  for (let k = 0; k < units; k++) {
    let bias = layer!.bias[k];
    for (let f = 0; f < dim; f++) {
      const v = layer!.input[f * units + k] / layer!.scale[f];
      u[k * dim + f] = v;
      bias -= layer!.mean[f] * v;
    }
    b[k] = bias;
  }
  return (x) => {
    let s = 0;
    const n = Math.min(dim, x.length);
    for (let f = 0; f < n; f++) s += w[f] * x[f];
    for (let k = 0; k < units; k++) {
      let h = b[k];
      const row = k * dim;
      for (let f = 0; f < n; f++) h += u[row + f] * x[f];
      s += out[k] * Math.tanh(h);
    }
    return s;
  };
}

/** Why linear weights (and a hidden layer) cannot score `dim` features, or undefined when they can. */
export function listwiseProblem(dim: number, weights: readonly number[], layer?: HiddenLayer): string | undefined {
  const finite = (xs: readonly number[], n: number): boolean => Array.isArray(xs) && xs.length === n && xs.every(Number.isFinite);
  if (!finite(weights, dim)) return `need ${dim} finite linear weights`;
  if (layer === undefined) return undefined;
  if (!(Number.isInteger(layer.units) && layer.units > 0) || !finite(layer.mean, dim) || !finite(layer.scale, dim) || layer.scale.some((x) => x <= 0)
    || !finite(layer.input, dim * layer.units) || !finite(layer.bias, layer.units) || !finite(layer.output, layer.units)) {
    return 'have a malformed hidden layer';
  }
  return undefined;
}
