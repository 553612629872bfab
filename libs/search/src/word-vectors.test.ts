import { describe, it, expect } from 'vitest';
import { WordVectors, WordVectorDataError, sharedWordVectors } from './word-vectors.js';
import { dot as cosine } from './semantic.js';

/** A three-word table in two dimensions: "cat" and "kitten" point the same way, "car" apart. */
function tiny(): { words: string[]; vectors: Float32Array } {
  return { words: ['cat', 'kitten', 'car'], vectors: Float32Array.from([1, 0.1, 0.9, 0.12, 0, 2]) };
}

describe('WordVectors', () => {
  it('normalises rows, looks words up lower-case and gives undefined for unknown words', () => {
    const { words, vectors } = tiny();
    const wv = new WordVectors(words, 2, vectors);
    const cat = wv.vector('Cat');
    expect(cat).toBeDefined();
    expect(Math.hypot(...cat!)).toBeCloseTo(1, 6);
    expect(cosine(cat!, wv.vector('kitten')!)).toBeGreaterThan(0.99);
    expect(cosine(cat!, wv.vector('car')!)).toBeLessThan(0.2);
    expect(wv.vector('dog')).toBeUndefined();
    expect(wv.phrase(['dog', 'bird'])).toBeUndefined();
    expect(cosine(wv.phrase(['cat', 'dog'])!, cat!)).toBeCloseTo(1, 6);
    // weights lean the phrase towards the heavier word; weights that cancel give no vector
    expect(
      cosine(
        wv.phrase(['cat', 'car'], (w) => (w === 'car' ? 10 : 1))!,
        wv.vector('car')!,
      ),
    ).toBeGreaterThan(cosine(wv.phrase(['cat', 'car'])!, wv.vector('car')!));
    expect(wv.phrase(['cat', 'cat'], (_, i) => (i === 0 ? 1 : -1))).toBeUndefined();
    // a zero row is no vector
    expect(new WordVectors(['zero', 'one'], 2, Float32Array.from([0, 0, 1, 0])).vector('zero')).toBeUndefined();
  });

  it('reads int8 rows with their scales as the file stores them, turning a row into floats when looked up', () => {
    const wv = new WordVectors(['cat', 'car'], 2, { scales: Float32Array.from([0.01, 0.02]), values: Int8Array.from([100, 10, 0, 100]) });
    expect(cosine(wv.vector('cat')!, wv.vector('car')!)).toBeCloseTo(10 / Math.hypot(100, 10), 5);
    expect(() => new WordVectors(['cat'], 2, { scales: Float32Array.from([Number.NaN]), values: Int8Array.from([1, 1]) })).toThrow(
      WordVectorDataError,
    );
    expect(() => new WordVectors(['cat'], 2, { scales: Float32Array.from([1, 1]), values: Int8Array.from([1, 1]) })).toThrow(
      WordVectorDataError,
    );
    // a scale whose product with -128 overflows float32 would make NaN vectors: refused
    expect(() => new WordVectors(['cat'], 2, { scales: Float32Array.from([3e38]), values: Int8Array.from([127, -128]) })).toThrow(
      WordVectorDataError,
    );
  });

  it('survives a round trip through the data file format within int8 precision', () => {
    const { words, vectors } = tiny();
    const before = new WordVectors(words, 2, vectors);
    const after = WordVectors.fromBuffer(WordVectors.toBuffer(words, 2, vectors));
    expect(after.size).toBe(3);
    for (const a of words)
      for (const b of words)
        expect(cosine(after.vector(a)!, after.vector(b)!)).toBeCloseTo(cosine(before.vector(a)!, before.vector(b)!), 2);
  });

  it('refuses a malformed table with WordVectorDataError', () => {
    const { words, vectors } = tiny();
    const good = WordVectors.toBuffer(words, 2, vectors);
    expect(() => WordVectors.fromBuffer(good.subarray(0, good.length - 1))).toThrow(WordVectorDataError);
    expect(() => WordVectors.fromBuffer(new Uint8Array([1, 0]))).toThrow(WordVectorDataError);
    const notJson = Buffer.from(good);
    notJson[4] = 0x7b + 1; // the header's "{" spoilt
    expect(() => WordVectors.fromBuffer(notJson)).toThrow(WordVectorDataError);
    const nanScale = Buffer.from(good);
    const headerLength = nanScale.readUInt32LE(0);
    nanScale.writeFloatLE(Number.NaN, 4 + headerLength);
    expect(() => WordVectors.fromBuffer(nanScale)).toThrow(/not finite/);
    expect(() => new WordVectors(words, 2, new Float32Array(5))).toThrow(WordVectorDataError);
    expect(() => new WordVectors(['cat', ''], 1, new Float32Array(2))).toThrow(WordVectorDataError);
    expect(() => WordVectors.load('/nonexistent/word-vectors.bin')).toThrow(/cannot read/);
    const overflow = Buffer.from(good);
    overflow.writeFloatLE(3.4e38 / 127.5, 4 + headerLength);
    expect(() => WordVectors.fromBuffer(overflow)).toThrow(/not finite/);
    expect(() => WordVectors.fromBuffer(null as unknown as Uint8Array)).toThrow(WordVectorDataError);
  });

  it('ships a table in which related words are close: a habitat is nearer a forest than a colour', () => {
    const wv = sharedWordVectors();
    expect(wv, 'libs/search/data/word-vectors.bin must be in the checkout').toBeDefined();
    expect(wv!.size).toBeGreaterThan(50_000);
    const habitat = wv!.vector('habitat')!;
    expect(cosine(habitat, wv!.vector('forest')!)).toBeGreaterThan(cosine(habitat, wv!.vector('green')!) + 0.2);
    expect(cosine(wv!.vector('genre')!, wv!.vector('classical')!)).toBeGreaterThan(0.5);
  });
});
