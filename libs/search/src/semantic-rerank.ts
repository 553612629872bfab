// The semantic stage of ToolIndex: the lexical score's best `depth` tools each gain
// weight × (best lexical score) × cos(request, tool), the cosine between the static encodings
// (semantic.ts) of the request and of the tool's text. Only tools the words already found are
// re-ordered: a static encoding alone ranks far worse than the lexical score (NDCG@10 0.35
// against 0.79 on the dev split), but it tells apart candidates that the words cannot.
import { type StaticEncoder, toolSemanticText } from './semantic.js';

/** A tool's text sources, as ToolIndex keeps them. */
export interface SemanticDoc {
  name: string;
  title?: string;
  description?: string;
}

/** Encodes tools on first use (most never reach a search's head) and re-scores a search's head. */
export class SemanticReranker {
  private readonly dim: number;
  /** per doc: its unit vector (valid where state is 1) */
  private readonly vectors: Float32Array;
  /** per doc: 0 not encoded yet, 1 encoded, 2 no vector (no known piece) */
  private readonly state: Uint8Array;
  private readonly query: Float32Array;
  /** docs below this index have been encoded by `warm` (or were already) */
  private warmed = 0;

  constructor(
    private readonly encoder: StaticEncoder,
    private readonly docs: readonly SemanticDoc[],
  ) {
    this.dim = encoder.dim;
    this.vectors = new Float32Array(docs.length * this.dim);
    this.state = new Uint8Array(docs.length);
    this.query = new Float32Array(this.dim);
  }

  /**
   * Adds weight × top × cos(request, doc) to `scores[d]` for each doc of `head` (the ranking's
   * best few, any order), where top is the highest of their scores. Returns whether any score
   * changed: not when the request has no known piece, nor for a weight that is not a positive
   * finite number. Scores may fall (a negative cosine); callers clamp what they report.
   */
  rerank(request: string, head: readonly number[], scores: Float64Array, weight: number): boolean {
    if (head.length < 2 || !(weight > 0) || !Number.isFinite(weight)) return false;
    // the encoder reads at most MAX_SEMANTIC_CHARS of it
    const q = this.encoder.encode(request, this.query);
    if (q === undefined) return false;
    let top = 0;
    for (const d of head) if (scores[d] > top) top = scores[d];
    if (!(top > 0) || !Number.isFinite(top)) return false;
    const scale = weight * top;
    const dim = this.dim;
    let changed = false;
    for (const d of head) {
      if (!this.ensure(d)) continue;
      let cos = 0;
      const o = d * dim;
      for (let j = 0; j < dim; j++) cos += q[j] * this.vectors[o + j];
      if (!Number.isFinite(cos) || cos === 0) continue;
      scores[d] += scale * cos;
      changed = true;
    }
    return changed;
  }

  /**
   * Encodes docs not encoded yet for up to `budgetMs` milliseconds, so that searches find them
   * ready (a doc's first encoding segments its words: tens of microseconds, more for new words).
   * @returns true when every doc is encoded
   */
  warm(budgetMs: number): boolean {
    const end = performance.now() + Math.max(0, budgetMs);
    while (this.warmed < this.docs.length && performance.now() < end) this.ensure(this.warmed++);
    return this.warmed >= this.docs.length;
  }

  /** Encodes doc `d` if not done yet; whether it has a vector. */
  private ensure(d: number): boolean {
    if (this.state[d] === 0) {
      const doc = this.docs[d];
      const v = this.encoder.encode(
        toolSemanticText(doc.name, doc.title, doc.description),
        this.vectors.subarray(d * this.dim, (d + 1) * this.dim),
      );
      this.state[d] = v === undefined ? 2 : 1;
    }
    return this.state[d] === 1;
  }
}
