// The learned second stage's turn in a ToolIndex search (ToolIndexOptions.headReranker): the head
// of the ranking re-ordered by the stage's scores, exact-name matches kept first and deprecated
// tools kept behind the tools that replace them.
import { keepDeprecatedBehind } from './deprecation.js';
import type { HeadReranker, IndexTermStats } from './tool-index-options.js';

/** What the head stage reads of an index. */
export interface HeadStage {
  readonly reranker: HeadReranker;
  /** ToolIndexOptions.headDepth as the index reads it */
  readonly depth: number;
  /** the index's tool names, by doc */
  readonly names: readonly string[];
  readonly termStats: IndexTermStats;
  /** docs whose title or description says they are deprecated; undefined when none does */
  readonly deprecated: Uint8Array | undefined;
  /** ToolIndexOptions.deprecatedDemotion as the index reads it */
  readonly deprecatedDemotion: number;
}

/** The head reranker's order of the first headDepth hits (exact-name matches stay first); the search's order when it fails. */
export function rerankHead(stage: HeadStage, query: string, hits: number[], scores: Float64Array, tiers: Map<number, number>): number[] {
  const depth = Math.min(stage.depth, hits.length);
  const pinned = hits.slice(0, depth).filter((d) => tiers.has(d));
  const head = hits.slice(0, depth).filter((d) => !tiers.has(d));
  if (head.length < 2) return hits;
  let s: readonly number[] | undefined;
  try {
    s = stage.reranker.rerank(
      query,
      head.map((d) => ({ name: stage.names[d], score: Math.max(0, scores[d]) })),
      stage.termStats,
    );
  } catch {
    return hits;
  }
  if (!s || s.length !== head.length || s.some((x) => Number.isNaN(x))) return hits;
  const own = head.map((d) => scores[d]).sort((a, b) => b - a);
  const order = head.map((_, i) => i).sort((a, b) => s[b] - s[a] || a - b);
  let reordered = order.map((i) => head[i]);
  // the stage scores each tool alone and knows nothing of deprecation: a deprecated tool gains no
  // place over a tool that is not deprecated (it stays after its replacement)
  const deprecated = stage.deprecated;
  if (deprecated !== undefined && stage.deprecatedDemotion > 0 && head.some((d) => deprecated[d] === 1)) {
    reordered = keepDeprecatedBehind(head, reordered, deprecated);
  }
  reordered.forEach((d, i) => (scores[d] = own[i]));
  return [...pinned, ...reordered, ...hits.slice(depth)];
}
