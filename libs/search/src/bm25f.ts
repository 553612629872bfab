// BM25F postings of a ToolIndex: the per-term weights its searches add up.
import { FIELDS } from './tool-index-options.js';

/**
 * BM25F postings, doc by doc (docs ascending within each term): per field w·tf / (1 − b + b·len/avgLen),
 * summed over the fields in order of occurrence, then saturated and multiplied by the term's idf.
 * `flat`/`bounds` as in ToolIndex (FIELDS.length fields per doc); `offsets` the CSR offsets by df;
 * `lens` each field's length (termLength summed, at least 1 when the field holds a term).
 * A function of its own, with plain indexed loops, rather than inside the constructor: V8 optimizes
 * a small hot function within the first build of a fresh process instead of running it on slower
 * unoptimized code that allocates a heap number per floating-point step.
 */
export function bm25fPostings(
  flat: Int32Array,
  bounds: Int32Array,
  n: number,
  offsets: Int32Array,
  idf: Float64Array,
  k1: number,
  weights: readonly number[],
  bs: readonly number[],
  avgLen: readonly number[],
  lens: Float64Array,
): { docs: Int32Array; weights: Float64Array } {
  const nf = FIELDS.length;
  const nTerms = idf.length;
  const total = offsets[nTerms];
  const postDocs = new Int32Array(total);
  const postWeights = new Float64Array(total);
  const cursor = offsets.slice(0, nTerms);
  const acc = new Float64Array(nTerms);
  /** distinct term ids of the current doc, in order of first occurrence */
  const seen = new Int32Array(nTerms);
  for (let doc = 0; doc < n; doc++) {
    let nSeen = 0;
    for (let fi = 0; fi < nf; fi++) {
      const from = bounds[doc * nf + fi];
      const to = bounds[doc * nf + fi + 1];
      const add = weights[fi] / (1 - bs[fi] + (bs[fi] * lens[doc * nf + fi]) / avgLen[fi]);
      for (let i = from; i < to; i++) {
        const t = flat[i];
        if (acc[t] === 0) seen[nSeen++] = t;
        // a zero-weight field still marks the term as present (tiny weight keeps df and postings consistent)
        acc[t] += add > 0 ? add : 1e-9;
      }
    }
    for (let j = 0; j < nSeen; j++) {
      const t = seen[j];
      const tf = acc[t];
      const at = cursor[t]++;
      postDocs[at] = doc;
      postWeights[at] = idf[t] * ((tf * (k1 + 1)) / (tf + k1));
      acc[t] = 0;
    }
  }
  return { docs: postDocs, weights: postWeights };
}
