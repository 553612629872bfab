// Adversarial tests of the semantic stage: each states a guarantee of the README / product rules
// that a careless semantic stage breaks.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl, type CorpusRecord } from '@toolsurface/eval-kit';
import { DEFAULT_SEMANTIC_DATA, SemanticDataError, StaticEncoder } from './semantic.js';
import { ToolIndex } from './tool-index.js';
import type { SearchHit } from './types.js';

const SHIPPED = readFileSync(DEFAULT_SEMANTIC_DATA);
const H = SHIPPED.readUInt32LE(0);
const HEADER = JSON.parse(
  SHIPPED.subarray(4, 4 + H)
    .toString('utf8')
    .replace(/\0+$/, ''),
) as { format: string; version: number; dim: number; pieces: [string, number][] };
const SCALES_AT = 4 + H;
const BODY = SHIPPED.subarray(4 + H);

/** A data file with `header` (any JSON) in place of the shipped one, same scales and values. */
function withHeader(header: unknown, body: Uint8Array = BODY): Buffer {
  const raw = Buffer.from(JSON.stringify(header));
  const padded = Buffer.alloc(Math.ceil((4 + raw.length) / 4) * 4 - 4);
  raw.copy(padded);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(padded.length, 0);
  return Buffer.concat([head, padded, body]);
}

/** The shipped file with the float32 scale of piece `i` replaced. */
function withScale(i: number, scale: number): Buffer {
  const b = Buffer.from(SHIPPED);
  b.writeFloatLE(scale, SCALES_AT + 4 * i);
  return b;
}

// the cases over the eval corpus need the eval data (DEFAULT_EVAL_DIR); where it is missing they are skipped, saying so
const hasEval = existsSync(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl')) && existsSync(resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl'));
if (!hasEval)
  console.warn(
    `[semantic.adversarial.test] skipping the cases over the eval corpus: ${DEFAULT_EVAL_DIR}/corpus.jsonl or queries.dev.jsonl not found (set TOOLSURFACE_EVAL_DIR)`,
  );
const tools = hasEval ? corpusAsTools(readJsonl<CorpusRecord>(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl'))).tools : [];
const queries = hasEval ? readJsonl<{ query: string }>(resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl')).map((q) => q.query) : [];

function invariantErrors(hits: SearchHit[], limit: number): string[] {
  const errs: string[] = [];
  if (hits.length > limit) errs.push(`${hits.length} hits > limit ${limit}`);
  if (new Set(hits.map((h) => h.name)).size !== hits.length) errs.push('repeated name');
  hits.forEach((h, i) => {
    if (!Number.isFinite(h.score) || h.score < 0) errs.push(`bad score ${h.score}`);
    if (i > 0 && h.score > hits[i - 1].score) errs.push(`score rises at ${i}: ${hits[i - 1].score} then ${h.score}`);
  });
  return errs;
}

const CONTROL: [string, number][] = [
  ['<unk>', 0],
  ['<s>', 0],
  ['</s>', 0],
  ['x1', 0],
  ['x2', 0],
  ['x3', 0],
];

describe('semantic data file validation (adversarial)', () => {
  it('rejects a header that is JSON null with SemanticDataError, not TypeError', () => {
    expect(() => StaticEncoder.fromBuffer(withHeader(null))).toThrow(SemanticDataError);
  });

  it('rejects pieces that are not [piece, logProbability] pairs with SemanticDataError, not TypeError', () => {
    const bad: unknown[][] = [
      HEADER.pieces.map((_, i) => i), // numbers
      HEADER.pieces.map((p, i) => (i === 10 ? null : p)), // one null
      HEADER.pieces.map((p, i) => (i === 10 ? [] : p)), // one empty pair
    ];
    for (const pieces of bad) expect(() => StaticEncoder.fromBuffer(withHeader({ ...HEADER, pieces }))).toThrow(SemanticDataError);
  });

  it('rejects pieces whose log probability is not a finite number (a string one would silently disable the stage)', () => {
    const pieces = HEADER.pieces.map(([p]) => [p, 'x']);
    expect(() => StaticEncoder.fromBuffer(withHeader({ ...HEADER, pieces }))).toThrow(SemanticDataError);
  });

  it('rejects NaN and infinite row scales with SemanticDataError', () => {
    expect(() => StaticEncoder.fromBuffer(withScale(9, Number.NaN))).toThrow(SemanticDataError);
    expect(() => StaticEncoder.fromBuffer(withScale(9, Number.POSITIVE_INFINITY))).toThrow(SemanticDataError);
  });

  it('never yields a non-finite encoding, even from a table whose finite scale overflows float32 (1e38 x 127)', () => {
    // loads today; piece 9 is "▁the"
    let enc: StaticEncoder | undefined;
    try {
      enc = StaticEncoder.fromBuffer(withScale(9, 1e38));
    } catch (err) {
      expect(err).toBeInstanceOf(SemanticDataError);
      return;
    }
    const v = enc.encode('the weather forecast');
    if (v !== undefined) for (const x of v) expect(Number.isFinite(x)).toBe(true);
  });

  it('does not hang on a long word when the table holds one long piece (a control-symbol slot of 1,000 characters)', () => {
    const pieces = HEADER.pieces.map((p, i): [string, number] => (i === 3 ? ['y'.repeat(1000), 0] : p));
    let enc: StaticEncoder;
    try {
      enc = StaticEncoder.fromBuffer(withHeader({ ...HEADER, pieces }));
    } catch (err) {
      expect(err).toBeInstanceOf(SemanticDataError);
      return;
    }
    // "㎯" is NFKC "rad∕s2": 600 of them make one 3,600-character word
    const t0 = performance.now();
    enc.encode('㎯'.repeat(600));
    expect(performance.now() - t0).toBeLessThan(1000); // ~6,600 ms today (1,000-char piece), ~48 s with 5,000
  }, 120_000);
});

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
