// Near-duplicate demotion of a ToolIndex ranking: content signatures of the tools, and the
// greedy re-ordering that moves a tool like one already ranked above further down.
import { FIELDS, type ResolvedOptions } from './tool-index-options.js';
import { siftHeapDown, topK } from './top-k.js';

/** Most leading positions of a result list that near-duplicate demotion re-orders. */
const DIVERSIFY_HEAD = 50;
/**
 * Fewest places near-duplicate demotion re-orders, whatever the limit: the pool it draws from
 * grows with the places, so without a floor a search with limit 5 would not be the first 5 hits
 * of the same search with limit 10. Every limit up to this one gives a prefix of the same list.
 */
const DIVERSIFY_MIN_HEAD = 20;

/** The content signatures of an index's tools, and the near-duplicate demotion that reads them. */
export class NearDuplicates {
  /** per doc, made on first use: sorted distinct term ids of description + parameter names (near-duplicate test) */
  private readonly signatures: (Int32Array | undefined)[] = [];
  /** per term id: the stamp of the last signature marked in it (markTerms); 0 = never */
  private scratchStamps: Int32Array | undefined;
  private stamp = 0;

  /**
   * @param flat every doc's term ids, field by field (as ToolIndex)
   * @param bounds field fi of doc d is flat[bounds[d·5 + fi] .. bounds[d·5 + fi + 1])
   * @param baseNameIds per doc: id of its normalized base name; equal ids = same-named tools
   * @param termCount how many distinct terms the index holds
   */
  constructor(
    private readonly flat: Int32Array,
    private readonly bounds: Int32Array,
    private readonly baseNameIds: Int32Array,
    private readonly termCount: number,
  ) {}

  /** Content signature of a doc: sorted distinct term ids of its description and parameter names (memoised). */
  signature(doc: number): Int32Array {
    let sig = this.signatures[doc];
    if (sig === undefined) {
      const nf = FIELDS.length;
      const ids = new Set<number>();
      for (let i = this.bounds[doc * nf + 2]; i < this.bounds[doc * nf + 4]; i++) ids.add(this.flat[i]);
      this.signatures[doc] = sig = Int32Array.from(ids).sort();
    }
    return sig;
  }

  /**
   * Greedy near-duplicate demotion (MMR-style) over the best candidates: each pick is the candidate
   * maximizing score × (1 − diversity · s), s = its highest content similarity (Jaccard of
   * signatures) to a tool already picked when that similarity reaches diversityThreshold, else 0;
   * a candidate named like a tool already picked (same nameKey of its base name) is further
   * multiplied by 1 − sameNameDemotion.
   * Exact-name matches keep their place. Returned scores stay the original ones, made
   * non-increasing down the list.
   */
  diversify(touched: Int32Array, scores: Float64Array, k: number, tiers: Map<number, number>, opts: ResolvedOptions): number[] {
    // only the head of the list is re-ordered (bounded work for any limit); the tail follows by score
    const head = Math.min(Math.max(k, DIVERSIFY_MIN_HEAD), DIVERSIFY_HEAD);
    const pool = topK(touched, scores, Math.min(touched.length, Math.max(head * 3, 30)));
    const picked: number[] = [];
    const maxSim = new Float64Array(pool.length);
    const sameName = new Uint8Array(pool.length);
    const nameFactor = 1 - opts.sameNameDemotion;
    // Lazy greedy: a candidate's similarity to the picks is brought up to date only when it is
    // the best by its last known (stale) value. Similarities only grow and scores are not negative
    // (k1, field weights, diversity and the name factor are clamped at 0), so a stale value bounds
    // the true one from above: when the best candidate is up to date, no other can beat it. Same picks,
    // ties included (the lowest pool place wins), as comparing every candidate with every pick;
    // about a third of the Jaccard tests (323 a search on the dev requests, against 990), and the
    // best is kept in a binary heap rather than found by a scan of the pool.
    const seen = new Int32Array(pool.length);
    const pinned = new Uint8Array(pool.length);
    if (tiers.size > 0) for (let i = 0; i < pool.length; i++) pinned[i] = tiers.has(pool[i]) ? 1 : 0;
    const diversity = opts.diversity;
    const value = new Float64Array(pool.length);
    const adjusted = (i: number): number => {
      const d = pool[i];
      return pinned[i] ? scores[d] : scores[d] * (1 - diversity * maxSim[i]) * (sameName[i] ? nameFactor : 1);
    };
    const heap = new Int32Array(pool.length);
    let size = 0;
    const above = (a: number, b: number): boolean => value[a] > value[b] || (value[a] === value[b] && a < b);
    const siftDown = (at: number): void => siftHeapDown(heap, size, at, above);
    // (the pool comes in score order, with every similarity 0, so this heapify moves nothing)
    for (let i = 0; i < pool.length; i++) {
      value[i] = adjusted(i);
      heap[size++] = i;
    }
    for (let at = (size >> 1) - 1; at >= 0; at--) siftDown(at);
    while (picked.length < head && size > 0) {
      const best = heap[0];
      if (!pinned[best] && seen[best] < picked.length) {
        // stale: compare it with the picks made since it was last brought up to date, then look again
        const sig = this.signature(pool[best]);
        const threshold = opts.diversityThreshold;
        // the candidate's terms are marked once (on the first pick it must be compared with), and
        // each pick's terms are counted against the marks: the same shared count as merging the
        // two sorted signatures, in one pass over the pick's alone
        let mark = 0;
        for (let p = seen[best]; p < picked.length; p++) {
          if (this.baseNameIds[pool[best]] === this.baseNameIds[picked[p]]) sameName[best] = 1;
          const other = this.signature(picked[p]);
          // (Jaccard is at most the smaller size over the larger: no count where that is already
          // under the threshold or under the similarity held)
          const bound = Math.min(sig.length, other.length) / Math.max(sig.length, other.length, 1);
          if (bound < threshold || bound <= maxSim[best]) continue;
          if (mark === 0) mark = this.markTerms(sig);
          const stamps = this.scratchStamps!;
          let common = 0;
          for (let i = 0; i < other.length; i++) if (stamps[other[i]] === mark) common++;
          const sim = common / (sig.length + other.length - common);
          if (sim >= threshold && sim > maxSim[best]) maxSim[best] = sim;
        }
        seen[best] = picked.length;
        value[best] = adjusted(best);
        siftDown(0);
        continue;
      }
      heap[0] = heap[--size];
      siftDown(0);
      const chosen = pool[best];
      picked.push(chosen);
      // its score is the demoted one that placed it (non-increasing along the head: similarities only grow)
      scores[chosen] = value[best];
    }
    if (k > picked.length) {
      const chosen = new Set(picked);
      for (const d of topK(touched, scores, k + picked.length)) {
        if (picked.length >= k) break;
        if (!chosen.has(d)) picked.push(d);
      }
    }
    // keep reported scores consistent with the order
    for (let i = 1; i < picked.length; i++) {
      if (scores[picked[i]] > scores[picked[i - 1]]) scores[picked[i]] = scores[picked[i - 1]];
    }
    return picked;
  }

  /**
   * Marks the term ids of `sig` in the shared stamp array (scratchStamps) with a fresh stamp and
   * returns it: a term of the index is in `sig` when its entry equals the stamp. Stamps grow by
   * one a call; the array is cleared when they would pass 2^31 − 1.
   */
  private markTerms(sig: Int32Array): number {
    const stamps = (this.scratchStamps ??= new Int32Array(this.termCount));
    if (this.stamp === 0x7fffffff) {
      stamps.fill(0);
      this.stamp = 0;
    }
    const mark = ++this.stamp;
    for (let i = 0; i < sig.length; i++) stamps[sig[i]] = mark;
    return mark;
  }
}
