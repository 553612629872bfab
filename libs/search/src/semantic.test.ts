import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, SemanticDataError, serializeStaticEmbeddings, sharedEncoder, StaticEncoder, toolSemanticText } from './semantic.js';

// Six control symbols first, as in the shipped vocabulary.
const CONTROL: [string, number][] = [
  ['<unk>', 0],
  ['<s>', 0],
  ['</s>', 0],
  ['x1', 0],
  ['x2', 0],
  ['x3', 0],
];

/** A 2-dimensional toy table: "▁weather" and "▁forecast" point one way, "▁stock" the other. */
function toy(): { pieces: [string, number][]; vectors: Float32Array } {
  const pieces: [string, number][] = [
    ...CONTROL,
    ['▁weather', -5],
    ['▁forecast', -6],
    ['▁stock', -6],
    ['▁fore', -4],
    ['cast', -4],
    ['▁', -3],
  ];
  const vectors = new Float32Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0.1, 0.9, 0.2, 0, 1, 0.3, 0.3, 0.3, 0.3, 0, 0]);
  return { pieces, vectors };
}

describe('StaticEncoder', () => {
  it('segments a word into its most probable pieces and skips characters no piece covers', () => {
    const { pieces, vectors } = toy();
    const enc = new StaticEncoder(pieces, 2, vectors);
    // "▁forecast" (-6) beats "▁fore" + "cast" (-8)
    expect(enc.pieces('Forecast')).toEqual([7]);
    expect(enc.pieces('weather  stock')).toEqual([6, 8]);
    // "zz" has no piece: dropped, the rest kept
    expect(enc.pieces('zz weather')).toEqual([11, 6]);
  });

  it('encodes to a unit vector that points toward texts of like meaning', () => {
    const { pieces, vectors } = toy();
    const enc = new StaticEncoder(pieces, 2, vectors);
    const q = enc.encode('weather forecast')!;
    expect(Math.hypot(q[0], q[1])).toBeCloseTo(1, 6);
    expect(dot(q, enc.encode('forecast')!)).toBeGreaterThan(dot(q, enc.encode('stock')!));
  });

  it('gives no vector for text with no known piece', () => {
    const { pieces, vectors } = toy();
    const enc = new StaticEncoder(pieces, 2, vectors);
    expect(enc.encode('')).toBeUndefined();
    expect(enc.encode('你好')).toBeUndefined();
  });

  it('round-trips through the data file format within int8 precision', () => {
    const { pieces, vectors } = toy();
    const bytes = serializeStaticEmbeddings(pieces, 2, vectors);
    const enc = StaticEncoder.fromBuffer(bytes);
    const orig = new StaticEncoder(pieces, 2, vectors);
    expect(enc.pieces('weather forecast stock')).toEqual(orig.pieces('weather forecast stock'));
    expect(dot(enc.encode('weather stock')!, orig.encode('weather stock')!)).toBeGreaterThan(0.999);
  });

  it('rejects a truncated or foreign data file with SemanticDataError', () => {
    const { pieces, vectors } = toy();
    const bytes = serializeStaticEmbeddings(pieces, 2, vectors);
    expect(() => StaticEncoder.fromBuffer(bytes.subarray(0, bytes.length - 1))).toThrow(SemanticDataError);
    expect(() => StaticEncoder.fromBuffer(Buffer.from('not a table at all'))).toThrow(SemanticDataError);
    expect(() => StaticEncoder.fromBuffer(new Uint8Array(2))).toThrow(SemanticDataError);
    expect(() => StaticEncoder.load('/nonexistent/semantic.bin')).toThrow(SemanticDataError);
    expect(() => new StaticEncoder(pieces, 3, vectors)).toThrow(SemanticDataError);
  });

  it('segments exactly as a Viterbi search over every substring would (pieces sharing prefixes, repeats, surrogate pairs)', () => {
    // the encoder walks a trie of its pieces; the reference looks every substring up, as the
    // encoder did before the trie. Pieces from a small alphabet so they share prefixes.
    const alphabet = ['a', 'b', 'c', '▁', '😀'];
    const piece = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(piece, fc.integer({ min: -20, max: -1 })), { minLength: 1, maxLength: 25 }),
        fc.array(
          fc.array(fc.constantFrom(...alphabet, 'z'), { minLength: 1, maxLength: 12 }).map((cs) => cs.join('')),
          { minLength: 1, maxLength: 4 },
        ),
        (entries, words) => {
          const pieces: [string, number][] = [...CONTROL, ...entries];
          const enc = new StaticEncoder(pieces, 1, new Float32Array(pieces.length).fill(1));
          const ids = new Map<string, number>();
          pieces.forEach(([p], i) => i >= CONTROL.length && !ids.has(p) && ids.set(p, i));
          const maxLen = Math.max(1, ...[...ids.keys()].map((p) => p.length));
          const reference = (word: string): number[] => {
            const s = '▁' + word;
            const best = new Array<number>(s.length + 1).fill(-Infinity);
            const from = new Array<number>(s.length + 1).fill(0);
            const at = new Array<number>(s.length + 1).fill(-1);
            best[0] = 0;
            for (let i = 0; i < s.length; i++) {
              if (best[i] === -Infinity) continue;
              let covered = false;
              for (let j = i + 1; j <= Math.min(s.length, i + maxLen); j++) {
                const id = ids.get(s.slice(i, j));
                if (id === undefined) continue;
                covered ||= j === i + 1;
                if (best[i] + pieces[id][1] > best[j]) [best[j], from[j], at[j]] = [best[i] + pieces[id][1], i, id];
              }
              if (!covered && best[i] - 30 > best[i + 1]) [best[i + 1], from[i + 1], at[i + 1]] = [best[i] - 30, i, -1];
            }
            const out: number[] = [];
            for (let j = s.length; j > 0; j = from[j]) if (at[j] >= 0) out.push(at[j]);
            return out.reverse();
          };
          expect(enc.pieces(words.join(' '))).toEqual(words.flatMap(reference));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits a tool name into words for its text', () => {
    expect(toolSemanticText('getWeather_forecast.v2', 'Forecast', 'Daily forecast.')).toBe(
      'get weather forecast v2. Forecast. Daily forecast.',
    );
    expect(toolSemanticText('ls', undefined, undefined)).toBe('ls');
  });
});

describe('the shipped table', () => {
  const enc = sharedEncoder();

  it('is present and loads', () => {
    expect(enc, 'libs/search/data/semantic-static.bin must ship with the package').toBeDefined();
  });

  it('places paraphrases closer than unrelated requests', () => {
    const e = enc!;
    const sim = (a: string, b: string): number => dot(e.encode(a)!, e.encode(b)!);
    const pairs: [string, string, string][] = [
      ['find a movie to watch tonight', 'search for films', 'convert celsius to fahrenheit'],
      ['what will the weather be like tomorrow', 'get the forecast for a city', 'send an email to my boss'],
      ['buy shares of a company', 'place a stock trade order', 'translate a sentence into french'],
      ['peer-reviewed papers about machine learning', 'search academic publications', 'book a hotel room'],
    ];
    for (const [q, near, far] of pairs) expect(sim(q, near), `${q} ~ ${near} vs ${far}`).toBeGreaterThan(sim(q, far));
  });
});
