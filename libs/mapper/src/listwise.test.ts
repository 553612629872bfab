import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES, listwiseProblem, listwiseScorer } from '@toolsurface/search';
import { CALIBRATION } from './calibration.js';

describe('listwiseScorer', () => {
  it('gives the same scores with the standardisation folded in as the plain formula', () => {
    const weights = [0.5, -1, 2];
    const layer = {
      units: 2,
      mean: [1, 2, 3],
      scale: [0.5, 2, 4],
      input: [0.3, -0.2, 0.1, 0.4, -0.5, 0.6],
      bias: [0.1, -0.1],
      output: [1.5, -0.7],
    };
    const plain = (x: number[]): number => {
      const z = x.map((v, f) => (v - layer.mean[f]) / layer.scale[f]);
      let s = weights.reduce((a, w, f) => a + w * x[f], 0);
      for (let k = 0; k < layer.units; k++)
        s += layer.output[k] * Math.tanh(layer.bias[k] + z.reduce((a, v, f) => a + v * layer.input[f * layer.units + k], 0));
      return s;
    };
    const score = listwiseScorer(weights, layer);
    for (const x of [
      [0, 0, 0],
      [1, 2, 3],
      [3, -1, 10],
      [-2, 5, 0.25],
    ])
      expect(score(x)).toBeCloseTo(plain(x), 12);
    // without a layer: the dot product
    expect(listwiseScorer(weights)([1, 1, 1])).toBe(1.5);
  });

  it('names what is wrong with weights that cannot score the features', () => {
    const layer = { units: 1, mean: [0, 0], scale: [1, 1], input: [1, 1], bias: [0], output: [1] };
    expect(listwiseProblem(2, [1, 2], layer)).toBeUndefined();
    expect(listwiseProblem(3, [1, 2], layer)).toMatch(/3 finite linear weights/);
    expect(listwiseProblem(2, [1, NaN])).toMatch(/finite/);
    expect(listwiseProblem(2, [1, 2], { ...layer, scale: [1, -1] })).toMatch(/hidden layer/);
    expect(listwiseProblem(2, [1, 2], { ...layer, input: [1] })).toMatch(/hidden layer/);
  });

  it('the shipped unified reranker scores every feature of FEATURE_NAMES', () => {
    expect(listwiseProblem(FEATURE_NAMES.length, CALIBRATION.rerankWeights, CALIBRATION.rerankHidden)).toBeUndefined();
  });
});
