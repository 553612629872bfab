// Retrieval metrics with binary gains, as the eval data's README.md ("How to score") defines them:
// each relevant name is credited once, at its first position in the ranking; a repeated name
// (the corpus reuses names) still takes up its rank but earns nothing.

/** Distinct relevant names, in order (duplicates in the ground truth count once). */
function distinct(relevant: readonly string[]): Set<string> {
  return new Set(relevant);
}

/** Recall@k in [0, 1]: the fraction of the distinct relevant names found in the first k ranked names (0 when nothing is relevant). */
export function recallAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = distinct(relevant);
  if (rel.size === 0 || k <= 0) return 0;
  const found = new Set<string>();
  const end = Math.min(k, ranked.length);
  for (let i = 0; i < end; i++) {
    const name = ranked[i];
    if (rel.has(name)) found.add(name);
  }
  return found.size / rel.size;
}

/** NDCG@k in [0, 1] with binary gains and log2(rank + 1) discounts; the ideal ranking puts min(k, |relevant|) hits first. */
export function ndcgAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = distinct(relevant);
  if (rel.size === 0 || k <= 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  const end = Math.min(k, ranked.length);
  for (let i = 0; i < end; i++) {
    const name = ranked[i];
    if (rel.has(name) && !seen.has(name)) {
      seen.add(name);
      dcg += 1 / Math.log2(i + 2);
    }
  }
  let idcg = 0;
  const ideal = Math.min(k, rel.size);
  for (let i = 0; i < ideal; i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** MRR@k in [0, 1]: 1 / (1-based rank of the first relevant name within the first k), else 0. */
export function mrrAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = distinct(relevant);
  const end = Math.min(k, ranked.length);
  for (let i = 0; i < end; i++) {
    if (rel.has(ranked[i])) return 1 / (i + 1);
  }
  return 0;
}
