// A small semantic signal for ranking: static sub-word vectors distilled from the Universal Sentence
// Encoder lite (USE-lite, Apache-2.0, its 8,000-piece SentencePiece vocabulary), so that encoding a
// request costs a table look-up per piece and a sum, not a transformer pass.
//
// Why static: the full USE-lite model (a two-layer transformer, 27 MB of weights, run with
// TensorFlow.js) takes about 25 ms per request on this project's 2-core machines, and
// discover_tools must answer in 2 ms at p50 (docs/DESIGN.md "Performance budget"). The static table
// takes microseconds. It was fitted so that the normalised sum of a sentence's piece vectors
// points where USE-lite's own sentence embedding points (cosine loss, "tokenlearn"-style
// distillation), on general text only: Debian package descriptions and README prose, never the
// eval data. tools/search/distill-semantic.ts makes the data file;
// docs/decisions/search-semantic-static-table.md has the figures.
//
// Data file (libs/search/data/semantic-static.bin), little-endian:
//   u32 header length H, then H bytes of JSON {"format":"toolsurface-static-embeddings","version":1,
//   "dim":d,"pieces":[[piece, logProbability], ...]}, zero-padded to a multiple of 4,
//   then V float32 row scales, then V·d int8 values (row i = vector of piece i, times its scale).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeInt8Table, encodeInt8Table, type Int8TableHeader } from './int8-table.js';
import { detached } from '@toolsurface/analysis';

/** The data file shipped with the package. */
export const DEFAULT_SEMANTIC_DATA = resolve(dirname(fileURLToPath(import.meta.url)), '../data/semantic-static.bin');

/** SentencePiece's word-boundary mark: a piece that starts a word begins with it. */
const WORD_MARK = '\u2581';
/** Most characters of one text that are encoded (a tool description is cut here). */
export const MAX_SEMANTIC_CHARS = 600;
/**
 * Most characters of one word that are segmented: longer runs without white space (hashes, base64,
 * hostile input) are not words, and segmentation costs word length × longest piece.
 */
export const MAX_WORD_CHARS = 64;
/** Longest piece a table may hold (the shipped one's longest is 16 characters). */
export const MAX_PIECE_CHARS = 32;
/**
 * Most distinct words whose pieces are memoised (the vocabulary of a catalog is small). With words
 * cut at MAX_WORD_CHARS the memo holds at most about 20 MB, whatever the requests.
 */
const WORD_CACHE_LIMIT = 50_000;
/** Score of a character no piece covers (SentencePiece's unknown-piece penalty: below any real piece). */
const UNKNOWN_SCORE = -30;
/** The first piece ids are control symbols (<unk>, <s>, </s>, extra ids): never part of a vector. */
const FIRST_REAL_PIECE = 6;

/** The data file is missing, truncated or not of this format. */
export class SemanticDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SemanticDataError';
  }
}

interface Header extends Int8TableHeader {
  pieces: [string, number][];
}

/**
 * Encodes text as a unit vector of `dim` floats: the normalised sum of its pieces' vectors.
 * Cosine similarity of two encodings (their dot product) measures how alike the texts mean.
 */
export class StaticEncoder {
  /** Vector length. */
  readonly dim: number;
  /** piece → id, as a trie (the Viterbi search walks it instead of looking up every substring) */
  private readonly trie: PieceTrie;
  /** per piece id: log probability (the Viterbi segmentation's score) */
  private readonly logp: Float64Array;
  /** Longest piece, in UTF-16 code units. */
  private readonly maxPieceLength: number;
  /** per piece id: its vector, row-major */
  private readonly vectors: Float32Array;
  private readonly wordCache = new Map<string, Int32Array>();

  /**
   * An encoder over `pieces` ([piece, log probability], ids = positions; the first six are control
   * symbols) and their vectors (`pieces.length` rows of `dim` floats, row-major). The data file is
   * the usual source (`load`); this is for the distillation script and tests.
   */
  constructor(pieces: readonly (readonly [string, number])[], dim: number, vectors: Float32Array) {
    if (!Array.isArray(pieces) || pieces.length <= FIRST_REAL_PIECE)
      throw new SemanticDataError(`expected more than ${FIRST_REAL_PIECE} pieces`);
    if (!Number.isInteger(dim) || dim <= 0 || !(vectors instanceof Float32Array) || vectors.length !== pieces.length * dim) {
      throw new SemanticDataError(`vectors hold ${vectors?.length} floats, expected ${pieces.length} pieces x ${dim}`);
    }
    for (let i = 0; i < vectors.length; i++) {
      if (!Number.isFinite(vectors[i])) throw new SemanticDataError(`piece ${Math.floor(i / dim)} has a value that is not finite`);
    }
    this.dim = dim;
    const n = pieces.length;
    this.logp = new Float64Array(n);
    const ids = new Map<string, number>();
    let maxLen = 1;
    pieces.forEach((entry, i) => {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number' || !Number.isFinite(entry[1])) {
        throw new SemanticDataError(`piece ${i} is not a [piece, finite log probability] pair`);
      }
      const [piece, lp] = entry;
      this.logp[i] = lp;
      // control symbols are never looked up: only real pieces set the search width
      if (i < FIRST_REAL_PIECE) return;
      if (piece.length === 0 || piece.length > MAX_PIECE_CHARS)
        throw new SemanticDataError(`piece ${i} has ${piece.length} characters (1-${MAX_PIECE_CHARS} allowed)`);
      if (!ids.has(piece)) ids.set(piece, i);
      if (piece.length > maxLen) maxLen = piece.length;
    });
    this.maxPieceLength = maxLen;
    this.trie = new PieceTrie(ids);
    this.vectors = vectors;
  }

  /** Reads a data file (default: the one shipped). Throws SemanticDataError when it is missing or malformed. */
  static load(path: string = DEFAULT_SEMANTIC_DATA): StaticEncoder {
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (err) {
      throw new SemanticDataError(`cannot read semantic data file ${path}: ${(err as Error).message}`);
    }
    return StaticEncoder.fromBuffer(buf, path);
  }

  /** Parses the data file format above. Throws SemanticDataError on any inconsistency. */
  static fromBuffer(buf: Uint8Array, label = 'semantic data'): StaticEncoder {
    const fail = (why: string): never => {
      throw new SemanticDataError(`${label}: ${why}`);
    };
    const { header, vectors } = decodeInt8Table<Header>(
      buf,
      'toolsurface-static-embeddings',
      (h) => (Array.isArray(h.pieces) && h.pieces.length > FIRST_REAL_PIECE ? h.pieces.length : undefined),
      fail,
    );
    return new StaticEncoder(header.pieces, header.dim, vectors);
  }

  /**
   * Piece ids of a text: NFKC, lower-cased (requests and tool names differ in case more than in
   * meaning), split on white space, each word segmented by Viterbi over piece log probabilities.
   */
  pieces(text: string): number[] {
    const out: number[] = [];
    const cut = text.length > MAX_SEMANTIC_CHARS ? text.slice(0, MAX_SEMANTIC_CHARS) : text;
    for (const word of cut.normalize('NFKC').toLowerCase().split(/\s+/)) {
      if (word === '') continue;
      for (const id of this.wordPieces(word.length > MAX_WORD_CHARS ? word.slice(0, MAX_WORD_CHARS) : word)) out.push(id);
    }
    return out;
  }

  /**
   * Unit vector of a text, written into `out` (length `dim`) when given; undefined when no piece
   * of the text is known (empty text, only unknown characters).
   */
  encode(text: string, out?: Float32Array): Float32Array | undefined {
    const v = out ?? new Float32Array(this.dim);
    v.fill(0);
    const d = this.dim;
    let any = false;
    for (const id of this.pieces(text)) {
      any = true;
      const o = id * d;
      for (let j = 0; j < d; j++) v[j] += this.vectors[o + j];
    }
    if (!any) return undefined;
    let norm = 0;
    for (let j = 0; j < d; j++) norm += v[j] * v[j];
    // a sum past float32's range gives no direction
    if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
    norm = 1 / Math.sqrt(norm);
    for (let j = 0; j < d; j++) v[j] *= norm;
    return v;
  }

  /** Best segmentation of one white-space-free word of at most MAX_WORD_CHARS (with the word mark in front), memoised; unknown characters dropped. */
  private wordPieces(word: string): Int32Array {
    const cached = this.wordCache.get(word);
    if (cached !== undefined) return cached;
    const s = WORD_MARK + word;
    const n = s.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    const piece = new Int32Array(n + 1).fill(-1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] === -Infinity) continue;
      const limit = Math.min(n, i + this.maxPieceLength);
      let covered = false;
      // the pieces starting at i, by walking the trie along s[i..]: s[i..j) is a piece where the walk ends on one
      let node = 0;
      for (let j = i + 1; j <= limit; j++) {
        node = this.trie.child(node, s.charCodeAt(j - 1));
        if (node < 0) break;
        const id = this.trie.piece[node];
        if (id < 0) continue;
        covered ||= j === i + 1;
        const score = best[i] + this.logp[id];
        if (score > best[j]) {
          best[j] = score;
          from[j] = i;
          piece[j] = id;
        }
      }
      // a character no single piece covers is skipped at a penalty (it adds nothing to the vector)
      if (!covered && best[i] + UNKNOWN_SCORE > best[i + 1]) {
        best[i + 1] = best[i] + UNKNOWN_SCORE;
        from[i + 1] = i;
        piece[i + 1] = -1;
      }
    }
    const ids: number[] = [];
    for (let j = n; j > 0; j = from[j]) if (piece[j] >= 0) ids.push(piece[j]);
    const result = Int32Array.from(ids.reverse());
    // full: start again, so the memo keeps serving the words of recent requests and tools
    if (this.wordCache.size >= WORD_CACHE_LIMIT) this.wordCache.clear();
    this.wordCache.set(detached(word), result);
    return result;
  }
}

/**
 * The pieces as a trie over UTF-16 code units: node 0 is the root, `piece[node]` the id of the
 * piece ending there (-1 for none), and the edges an open-addressing hash table on (node, code
 * unit). Built once per encoder; a look-up is a hash and a probe or two, with no string made.
 */
class PieceTrie {
  readonly piece: Int32Array;
  private readonly edgeNode: Int32Array;
  private readonly edgeCode: Int32Array;
  private readonly edgeChild: Int32Array;
  private readonly mask: number;

  constructor(ids: ReadonlyMap<string, number>) {
    let chars = 0;
    for (const p of ids.keys()) chars += p.length;
    let size = 16;
    while (size < chars * 2) size *= 2;
    this.mask = size - 1;
    this.edgeNode = new Int32Array(size).fill(-1);
    this.edgeCode = new Int32Array(size);
    this.edgeChild = new Int32Array(size);
    const piece = new Int32Array(chars + 1).fill(-1);
    let nodes = 1;
    for (const [p, id] of ids) {
      let node = 0;
      for (let k = 0; k < p.length; k++) {
        let next = this.child(node, p.charCodeAt(k));
        if (next < 0) {
          next = nodes++;
          this.insert(node, p.charCodeAt(k), next);
        }
        node = next;
      }
      if (piece[node] < 0) piece[node] = id;
    }
    this.piece = piece.slice(0, nodes);
  }

  /** The node reached from `node` by code unit `code`; -1 when there is none. */
  child(node: number, code: number): number {
    for (let h = (Math.imul(node, 0x9e3779b1) ^ code) & this.mask; ; h = (h + 1) & this.mask) {
      const at = this.edgeNode[h];
      if (at < 0) return -1;
      if (at === node && this.edgeCode[h] === code) return this.edgeChild[h];
    }
  }

  private insert(node: number, code: number, child: number): void {
    let h = (Math.imul(node, 0x9e3779b1) ^ code) & this.mask;
    while (this.edgeNode[h] >= 0) h = (h + 1) & this.mask;
    this.edgeNode[h] = node;
    this.edgeCode[h] = code;
    this.edgeChild[h] = child;
  }
}

/**
 * The data file's bytes for `pieces` and their float vectors: each row quantised to int8 with its
 * own scale (max |value| / 127), which keeps cosines within about 0.01 of the float ones. Throws
 * SemanticDataError for a table the reader would refuse (see the constructor).
 */
export function serializeStaticEmbeddings(pieces: readonly (readonly [string, number])[], dim: number, vectors: Float32Array): Buffer {
  // the reader's checks, so a bad table fails when it is made rather than when it is shipped
  new StaticEncoder(pieces, dim, vectors);
  return encodeInt8Table({ format: 'toolsurface-static-embeddings', version: 1, dim, pieces } as Int8TableHeader, pieces.length, vectors);
}

/** Dot product of two vectors of equal length (the cosine of two encodings). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}

/** The text of a tool that is encoded: its name split into words, its title, its description. */
export function toolSemanticText(name: string, title: string | undefined, description: string | undefined): string {
  const words = name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/[._\-/:]+/g, ' ')
    .toLowerCase()
    .trim();
  return [words, title ?? '', description ?? ''].filter((x) => x !== '').join('. ');
}

let shared: StaticEncoder | null | undefined;

/** The shipped encoder, loaded once per process; undefined (and never retried) when the data file cannot be read. */
export function sharedEncoder(): StaticEncoder | undefined {
  if (shared === undefined) {
    try {
      shared = StaticEncoder.load();
    } catch {
      shared = null;
    }
  }
  return shared ?? undefined;
}
