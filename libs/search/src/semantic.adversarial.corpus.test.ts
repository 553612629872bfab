// Adversarial tests of the semantic stage over the whole public eval corpus (the eval tier): the
// ranking guarantees with a hostile table, and the word cache's bound.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl, type CorpusRecord } from '@toolsurface/eval-kit';
import { SemanticDataError, StaticEncoder } from './semantic.js';
import { ToolIndex } from './tool-index.js';
import { CONTROL, invariantErrors, withScale } from './semantic.test-data.js';

// the cases over the eval corpus need the eval data (DEFAULT_EVAL_DIR); where it is missing they are skipped, saying so
const hasEval = existsSync(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl')) && existsSync(resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'));
if (!hasEval)
  console.warn(
    `[semantic.adversarial.corpus.test] skipping the cases over the eval corpus: ${DEFAULT_EVAL_DIR}/corpus.jsonl or queries.dev.jsonl not found (set TOOLSURFACE_EVAL_DIR)`,
  );
const tools = hasEval ? corpusAsTools(readJsonl<CorpusRecord>(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl'))).tools : [];
const queries = hasEval ? readJsonl<{ query: string }>(resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl')).map((q) => q.query) : [];

describe('semantic stage and the ranking guarantees (adversarial)', () => {
  it('keeps exact-name hits first and scores non-increasing when table vectors sum past float32', () => {
    // A table vector that is not finite is refused outright; finite ones can still overflow when summed.
    const pieces: [string, number][] = [...CONTROL, ['▁weather', -5], ['▁forecast', -5], ['▁stock', -5], ['▁the', -5]];
    const vectors = new Float32Array(pieces.length * 2);
    vectors.set([1, 0], 12);
    vectors.set([0.5, 0.5], 14);
    vectors.set([0, 1], 16);
    vectors.set([Number.POSITIVE_INFINITY, 0], 18);
    expect(() => new StaticEncoder(pieces, 2, vectors)).toThrow(SemanticDataError);
    vectors.set([3e38, 3e38], 18);
    const index = ToolIndex.build(
      [
        { name: 'a_stock', description: 'the stock weather' },
        { name: 'b_weather', description: 'the weather forecast' },
        { name: 'forecast', description: 'the weather forecast for a city' },
      ],
      { semantic: new StaticEncoder(pieces, 2, vectors) },
    );
    const hits = index.search('forecast', 3);
    expect(hits[0]?.name).toBe('forecast'); // today: a_stock (score 0) first, forecast (4e6) last
    expect(invariantErrors(hits, 3)).toEqual([]);
  });

  it.skipIf(!hasEval)(
    'keeps the exact-name tiers over the eval corpus with a shipped table whose one scale overflows, or refuses the table',
    () => {
      let enc: StaticEncoder;
      try {
        enc = StaticEncoder.fromBuffer(withScale(9, 1e38));
      } catch (err) {
        expect(err).toBeInstanceOf(SemanticDataError);
        return;
      }
      const index = ToolIndex.build(tools, { semantic: enc });
      const broken = tools.slice(0, 300).filter((t) => index.search(t.name, 10)[0]?.name !== t.name);
      expect(broken.map((t) => t.name)).toEqual([]);
    },
  );

  it.skipIf(!hasEval)('keeps the exact-name tiers and invariants with semanticWeight Infinity (the option is clamped below only)', () => {
    const index = ToolIndex.build(tools, { semanticWeight: Number.POSITIVE_INFINITY });
    const hits = index.search('calculate the area of a triangle', 10);
    expect(invariantErrors(hits, 10)).toEqual([]);
    expect(index.search('bfcl:math.factorial:10fae9e4', 5)[0]?.name).toBe('bfcl:math.factorial:10fae9e4');
  });

  it.skipIf(!hasEval)('a stage that adds nothing (no piece of the request is known) leaves the ranking as with semantic: false', () => {
    // A table that knows no piece of any English request: rerank returns at once, yet ToolIndex
    // re-sorts the diversified head by its clamped scores, which undoes near-duplicate demotion on ties.
    const blind = new StaticEncoder([...CONTROL, ['▁\u{10ffff}', -1]], 1, new Float32Array(7).fill(1));
    const withStage = ToolIndex.build(tools, { semantic: blind });
    const without = ToolIndex.build(tools, { semantic: false });
    const differ = queries.slice(0, 300).filter((q) => JSON.stringify(withStage.search(q, 10)) !== JSON.stringify(without.search(q, 10)));
    expect(differ).toEqual([]);
  });
});

describe('semantic word cache (adversarial)', () => {
  it.skipIf(!hasEval)(
    'bounds the memory of the shared word cache, not only its number of entries',
    () => {
      // a fresh encoder, so the process-wide one is not filled
      const enc = StaticEncoder.load();
      const index = ToolIndex.build(tools, { semantic: enc });
      const cache = (enc as unknown as { wordCache: Map<string, Int32Array> }).wordCache;
      const N = 1000;
      for (let i = 0; i < N; i++) {
        // a realistic request followed by one distinct 600-character word (meta-tool queries may hold 4,000 characters)
        index.search(`get the weather forecast in paris ${i.toString(36)}${'㎯'.repeat(596)}`, 10);
      }
      let bytes = 0;
      for (const [word, ids] of cache) bytes += word.length * 2 + ids.byteLength;
      const perEntry = bytes / cache.size;
      // WORD_CACHE_LIMIT is 100,000 entries: what a stream of such queries leaves pinned for the process's life
      const projectedAtLimit = perEntry * 100_000;
      expect(projectedAtLimit, `${(projectedAtLimit / 1e6).toFixed(0)} MB once full`).toBeLessThan(256e6);
    },
    120_000,
  );
});
