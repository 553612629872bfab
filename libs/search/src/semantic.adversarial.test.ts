// Adversarial tests of the semantic stage: each states a guarantee of the README / product rules
// that a careless semantic stage breaks. The cases over the whole eval corpus are in
// semantic.adversarial.corpus.test.ts.
import { describe, expect, it } from 'vitest';
import { SemanticDataError, StaticEncoder } from './semantic.js';
import { HEADER, withHeader, withScale } from './semantic.test-data.js';

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
