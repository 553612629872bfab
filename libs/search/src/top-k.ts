// Partial selection of the best-scored docs (a binary heap), shared by ToolIndex and near-duplicate demotion.

/**
 * Moves `heap[at]` down a binary heap of `size` entries until neither child comes `first` before
 * it (`first(a, b)`: a belongs nearer the root than b).
 */
export function siftHeapDown(heap: Int32Array, size: number, at: number, first: (a: number, b: number) => boolean): void {
  const x = heap[at];
  for (;;) {
    let c = 2 * at + 1;
    if (c >= size) break;
    if (c + 1 < size && first(heap[c + 1], heap[c])) c++;
    if (!first(heap[c], x)) break;
    heap[at] = heap[c];
    at = c;
  }
  heap[at] = x;
}

/** Indices of the `k` highest scores among `docs` (ties: lower index first); a short `docs` is sorted in place. */
export function topK(docs: Int32Array, scores: Float64Array, k: number): number[] {
  const byScore = (a: number, b: number): number => scores[b] - scores[a] || a - b;
  if (k <= 0) return [];
  if (docs.length <= k * 4) return Array.from(docs.sort(byScore).subarray(0, k));
  // partial selection: a binary heap of the best k so far with the one ranked last at its root; a
  // doc scoring under the root's score (most docs, once the heap holds good ones) is passed over
  // on one comparison of two numbers, and one that ranks above it takes its place in log k steps
  const heap = new Int32Array(k);
  // does doc a rank after doc b (lower score, or the same score and a higher index)?
  const after = (a: number, b: number): boolean => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  let size = 0;
  let floor = -Infinity;
  for (let n = 0; n < docs.length; n++) {
    const d = docs[n];
    if (size < k) {
      let i = size++;
      heap[i] = d;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!after(heap[i], heap[p])) break;
        heap[i] = heap[p];
        heap[p] = d;
        i = p;
      }
      if (size === k) floor = scores[heap[0]];
      continue;
    }
    if (scores[d] < floor || !after(heap[0], d)) continue;
    heap[0] = d;
    siftHeapDown(heap, k, 0, after);
    floor = scores[heap[0]];
  }
  return Array.from(heap.subarray(0, size)).sort(byScore);
}
