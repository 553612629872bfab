// The analyzer of ToolIndex: identifiers split on . _ - / and camelCase (the whole identifier kept
// as one more token, and a camelCase word joined again: GitHub → github), English words
// lower-cased, stop-filtered and Porter-stemmed, CJK runs cut into character unigrams and bigrams,
// Thai, Lao, Khmer and Myanmar runs cut into words by ICU's word break rules.
import { detached, stem } from '@toolsurface/analysis';
import { STOP_WORDS } from './stopwords.js';

/** Longest text the analyzer reads (characters); longer input is cut here so a search stays bounded. */
export const MAX_ANALYZED_CHARS = 4_000;

/** Prefix of the "whole identifier" token, so it never collides with a word token. */
export const WHOLE_PREFIX = '#';

// A chunk: a maximal run of letters, marks, digits and the identifier joiners _ . - / that has at
// least one letter or digit (joiners alone are punctuation). Found as runs, then kept or not
// (chunksOf): one pattern of the form [class]*[letter][class]* rescans a run without a letter from
// each of its characters, quadratic in its length.
const RUN_RE = /[\p{L}\p{M}\p{N}_.\-/]+/gu;
const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u;
// Han, Hiragana, Katakana and Hangul characters: scripts written without spaces between words.
const CJK_CHAR_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// Splits a chunk into alternating CJK runs and other runs (the capture keeps the CJK runs).
const CJK_RUN_RE = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;
// Thai, Lao, Khmer and Myanmar characters (their vowel signs and tone marks included): scripts
// written without spaces between words, cut into words by a dictionary (segmentedWords).
const SEGMENTED_CHAR_RE = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// Splits a chunk into alternating runs of those scripts and other runs (the capture keeps the
// former). A run takes the combining marks inside it whatever their script (U+0301 is
// "Inherited"): split off, a run of marks alone would be a term of its own.
const SEGMENTED_RUN_RE =
  /([\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}][\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{M}]*)/u;
// Identifier joiners: dot, underscore, hyphen, slash (paths, "math.factorial", "get-weread-rank").
const JOINER_RE = /[_.\-/]+/;
// camelCase boundary: lower or digit followed by upper ("getWeather" → get|Weather).
const CAMEL_LOWER_UPPER_RE = /(\p{Ll}|\p{N})(\p{Lu})/gu;
// Acronym boundary: an upper followed by upper+lower ("HTTPServer" → HTTP|Server).
const CAMEL_ACRONYM_RE = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
// Pure ASCII text: takes the character-scanner fast paths instead of the Unicode regexes.
const ASCII_RE = /^[\x00-\x7f]*$/;
// A plain ASCII word, lower-case or Capitalized, with no joiner ("weather", "Calculate", "mp3"): one part.
const PLAIN_WORD_RE = /^[A-Za-z]?[a-z0-9]*$/;
// Apostrophes (ASCII and typographic) inside words ("don't", "Apple's"): word separators.
const APOSTROPHE_RE = /['’]/g;
// Letters and digits only (a camelCase piece joinedCaseWords joins again).
const LETTERS_DIGITS_RE = /^[\p{L}\p{N}]+$/u;

/**
 * Longest word or chunk the memos keep (characters): a catalog's words are short, and a stream of
 * requests each holding one long chunk (4,000 characters of camelCase) would fill them with text
 * no later search repeats, about 14 KB a request for each memo.
 */
const MAX_CACHED_CHARS = 64;

/** Lower-case parts of one identifier-like chunk: split on joiners . _ - / and camelCase edges. */
export function identifierParts(chunk: string): string[] {
  if (PLAIN_WORD_RE.test(chunk)) return [chunk.toLowerCase()];
  if (!ASCII_RE.test(chunk)) return identifierPartsUnicode(chunk);
  // ASCII scanner (hot path at build time; no closures: tsx wraps each one in a naming helper)
  const out: string[] = [];
  let start = 0;
  const len = chunk.length;
  for (let i = 0; i < len; i++) {
    const c = chunk.charCodeAt(i);
    if (c === 95 || c === 46 || c === 45 || c === 47) {
      // joiner: _ . - /
      if (i > start) out.push(chunk.slice(start, i).toLowerCase());
      start = i + 1;
    } else if (c >= 65 && c <= 90 && i > start) {
      const p = chunk.charCodeAt(i - 1);
      const prevLowerOrDigit = (p >= 97 && p <= 122) || (p >= 48 && p <= 57);
      const n = i + 1 < len ? chunk.charCodeAt(i + 1) : 0;
      const prevUpper = p >= 65 && p <= 90;
      const nextLower = n >= 97 && n <= 122;
      // lower/digit → Upper ("getWeather"), or the last upper of an acronym before a lower ("HTTPServer")
      if (prevLowerOrDigit || (prevUpper && nextLower)) {
        out.push(chunk.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  if (len > start) out.push(chunk.slice(start, len).toLowerCase());
  return out;
}

/** identifierParts for text with non-ASCII letters (Unicode case classes). */
function identifierPartsUnicode(chunk: string): string[] {
  const out: string[] = [];
  for (const piece of chunk.split(JOINER_RE)) {
    if (piece === '') continue;
    const spaced = piece.replace(CAMEL_LOWER_UPPER_RE, '$1 $2').replace(CAMEL_ACRONYM_RE, '$1 $2');
    for (const word of spaced.split(' ')) {
      if (word !== '') out.push(word.toLowerCase());
    }
  }
  return out;
}

/** Analyzer options (internal). */
export interface AnalyzeOptions {
  /** emit the whole-identifier token of a multi-part chunk (default true) */
  whole?: boolean;
  /** drop stop words (default true) */
  stop?: boolean;
  /** most characters read (default MAX_ANALYZED_CHARS) */
  maxChars?: number;
  /**
   * with `whole`, also emit the joined stem of each camelCase piece (joinedCaseWords; default
   * true). ToolIndex turns it off for tool and parameter names, which are identifiers: a
   * parameter list of fromStation, toStation, trainFilterFlags grew by a word a parameter, and the
   * longer field lowered get-tickets from 6th to past 20th for a train-ticket request.
   */
  joined?: boolean;
}

/**
 * Analyze text into index terms (ToolIndex's analyzer): each word lower-cased, stop words dropped,
 * Porter-stemmed; an identifier ("get_current_weather", "getWeather", "math.factorial") also yields
 * "#get_current_weather" (its parts joined by "_", unstemmed); CJK runs yield unigrams and bigrams.
 */
export function tokenize(text: string): string[] {
  return analyze(text);
}

/** tokenize() with switches; see AnalyzeOptions. */
export function analyze(text: unknown, options: AnalyzeOptions = {}): string[] {
  const out: string[] = [];
  analyzeInto(text, out, options);
  return out;
}

/** analyze() appending to `out` (no intermediate arrays; used at build time). */
export function analyzeInto(text: unknown, out: string[], options: AnalyzeOptions = {}): void {
  if (typeof text !== 'string' || text === '') return;
  const whole = options.whole ?? true;
  const stop = options.stop ?? true;
  const maxChars = options.maxChars ?? MAX_ANALYZED_CHARS;
  const joined = options.joined ?? true;
  const cut = text.length > maxChars ? text.slice(0, maxChars) : text;
  if (ASCII_RE.test(cut)) {
    asciiChunks(cut, whole, stop, out, joined);
    return;
  }
  const src = cut.normalize('NFKC').replace(APOSTROPHE_RE, ' ');
  const words = (run: string): void => wordTokens(run, whole, stop, out, joined);
  // (Thai, Lao, Khmer and Myanmar runs by their words; in the rest, CJK runs by grams, the rest by words)
  const rest = (run: string): void => byScript(run, CJK_CHAR_RE, CJK_RUN_RE, (r) => cjkGrams(r, out), words);
  for (const chunk of chunksOf(src)) byScript(chunk, SEGMENTED_CHAR_RE, SEGMENTED_RUN_RE, (r) => segmentedWords(r, out), rest);
}

/** A chunk's runs of one script family (`inRun`, found by `charRe`/the capturing `runRe`) and the text between them (`other`), in order. */
function byScript(chunk: string, charRe: RegExp, runRe: RegExp, inRun: (run: string) => void, other: (run: string) => void): void {
  if (!charRe.test(chunk)) {
    other(chunk);
    return;
  }
  for (const run of chunk.split(runRe)) {
    if (run === '') continue;
    if (charRe.test(run)) inRun(run);
    else other(run);
  }
}

/**
 * ICU's word segmenter (Intl.Segmenter, word granularity), which finds the words of Thai, Lao,
 * Khmer and Myanmar text by dictionary ("บริการรีดผ้า" → บริการ รีด ผ้า); undefined where the
 * runtime has none or it has no dictionary (a Node built with small ICU returns the run whole).
 */
const WORD_SEGMENTER: Intl.Segmenter | undefined = (() => {
  if (typeof Intl.Segmenter !== 'function') return undefined;
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  return [...segmenter.segment('บริการรีดผ้า')].filter((s) => s.isWordLike).length > 1 ? segmenter : undefined;
})();
/** Memo of segmentedWords, by run; bounded like the word memos. */
const segmentedCache = new Map<string, readonly string[]>();
/**
 * Thai SARA AM (U+0E33) and Lao AM (U+0EB3) as NFKC writes them (NIKHAHIT + SARA AA, U+0E4D
 * U+0E32; U+0ECD U+0EB2): the segmenter's dictionary spells them whole, and split it read
 * "ทำความ" as ทํา ความ.
 */
const SARA_AM_NFKC_RE = /\u0e4d\u0e32|\u0ecd\u0eb2/g;
/** Characters of a run handed to the segmenter at a time (segmentRun). */
const SEGMENT_WINDOW = 256;
/** A window's words kept only where they end at least this many characters before its end (segmentRun). */
const SEGMENT_MARGIN = 48;

/**
 * A run of Thai, Lao, Khmer or Myanmar → its words, lower-cased (these scripts have no case; a
 * run may hold a Latin letter after NFKC). Read as one term, such a run as "ช่วยหาแม่บ้านที่ให้บริการรีดผ้า"
 * (help me find a maid who offers ironing) would meet no tool that writes "บริการรีดผ้า" (ironing service).
 * Without a segmenter, each character and each pair of neighbours stand in, as for CJK.
 */
function segmentedWords(run: string, out: string[]): void {
  let words = segmentedCache.get(run);
  if (words === undefined) {
    const found: string[] = [];
    if (WORD_SEGMENTER !== undefined)
      segmentRun(
        WORD_SEGMENTER,
        run.replace(SARA_AM_NFKC_RE, (am) => (am === '\u0e4d\u0e32' ? '\u0e33' : '\u0eb3')),
        found,
      );
    else cjkGrams(run, found);
    words = found;
    if (run.length <= MAX_CACHED_CHARS) {
      if (segmentedCache.size >= CHUNK_CACHE_MAX) segmentedCache.clear();
      segmentedCache.set(detached(run), words.map(detached));
    }
  }
  for (let i = 0; i < words.length; i++) out.push(words[i]);
}

/**
 * The words of a run, SEGMENT_WINDOW characters at a time: ICU's dictionary segmenter takes time
 * that grows about threefold when a run doubles (one 32,000-character description in one pass
 * takes about 92 ms in Thai and 378 ms in random Myanmar letters, against 1.5 ms in English).
 * Each window keeps the words that end SEGMENT_MARGIN characters or more before its end (where
 * the text after them no longer moves them) and the next starts at the first word it dropped.
 * On 32,000 characters of Thai, Lao, Khmer, Myanmar and random Myanmar letters this gives the
 * same words as one pass, in 7-40 ms against 0.4-4 s (tokenize.test.ts pins one).
 */
function segmentRun(segmenter: Intl.Segmenter, run: string, out: string[]): void {
  let start = 0;
  while (start < run.length) {
    const end = Math.min(run.length, start + SEGMENT_WINDOW);
    const last = end === run.length;
    let next = end;
    for (const s of segmenter.segment(run.slice(start, end))) {
      if (!last && s.index + s.segment.length > end - start - SEGMENT_MARGIN) {
        // (a first word that runs into the margin is kept, and the next window starts after it)
        if (s.index > 0) next = start + s.index;
        else {
          if (s.isWordLike) out.push(s.segment.toLowerCase());
          next = start + s.segment.length;
        }
        break;
      }
      if (s.isWordLike) out.push(s.segment.toLowerCase());
    }
    start = next;
  }
}

/**
 * The parts of a tool name as the analyzer reads its words: a part in Thai, Lao, Khmer or Myanmar
 * cut into its words, any other as it is (a request's words meet a name's, ToolIndex's
 * nameTerms).
 */
export function namePartWords(part: string): string[] {
  if (!SEGMENTED_CHAR_RE.test(part)) return [part];
  const out: string[] = [];
  byScript(
    part,
    SEGMENTED_CHAR_RE,
    SEGMENTED_RUN_RE,
    (r) => segmentedWords(r, out),
    (r) => out.push(r),
  );
  return out;
}

/** The chunks of (NFKC-normalized) text, in order: RUN_RE's runs that hold a letter or digit. Linear in the text's length. */
export function chunksOf(src: string): string[] {
  const out: string[] = [];
  for (const run of src.match(RUN_RE) ?? []) if (LETTER_OR_DIGIT_RE.test(run)) out.push(run);
  return out;
}

/** ASCII fast path of analyzeInto: scan maximal runs of [A-Za-z0-9_.-/] holding a letter or digit (chunksOf's rule). */
function asciiChunks(text: string, whole: boolean, stop: boolean, out: string[], joined: boolean): void {
  const len = text.length;
  let start = -1;
  let alnum = false;
  for (let i = 0; i <= len; i++) {
    const c = i < len ? text.charCodeAt(i) : 32;
    const isAlnum = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
    // joiners . _ - / belong to a chunk; anything else ends it
    if (isAlnum || c === 95 || c === 46 || c === 45 || c === 47) {
      if (start < 0) start = i;
      if (isAlnum) alnum = true;
    } else if (start >= 0) {
      if (alnum) wordTokens(trimJoiners(text.slice(start, i)), whole, stop, out, joined);
      start = -1;
      alnum = false;
    }
  }
}

/** A chunk without leading/trailing joiners ("triangle." → "triangle"), as chunksOf's chunks are used. */
function trimJoiners(chunk: string): string {
  let a = 0;
  let b = chunk.length;
  while (a < b && isJoiner(chunk.charCodeAt(a))) a++;
  while (b > a && isJoiner(chunk.charCodeAt(b - 1))) b--;
  return a === 0 && b === chunk.length ? chunk : chunk.slice(a, b);
}

/** _ . - / */
function isJoiner(c: number): boolean {
  return c === 95 || c === 46 || c === 45 || c === 47;
}

/** Memo of wordTokens, one map per (joined, whole, stop) combination: a catalog's vocabulary is small and repeats. */
const chunkCaches: Map<string, readonly string[]>[] = [
  new Map(),
  new Map(),
  new Map(),
  new Map(),
  new Map(),
  new Map(),
  new Map(),
  new Map(),
];
const CHUNK_CACHE_MAX = 100_000;

/** Terms of a non-CJK chunk: stemmed parts plus, for a multi-part identifier, the whole token. */
function wordTokens(chunk: string, whole: boolean, stop: boolean, out: string[], joined: boolean): void {
  const cache = chunkCaches[(joined ? 4 : 0) + (whole ? 2 : 0) + (stop ? 1 : 0)];
  let terms = cache.get(chunk);
  if (terms === undefined) {
    terms = chunkTerms(chunk, whole, stop, joined);
    if (chunk.length <= MAX_CACHED_CHARS) {
      if (cache.size >= CHUNK_CACHE_MAX) cache.clear();
      cache.set(detached(chunk), (terms = terms.map(detached)));
    }
  }
  for (let i = 0; i < terms.length; i++) out.push(terms[i]);
}

/** wordTokens without the memo: stemmed parts; for a multi-part chunk, the whole token and (with `joined`) joinedCaseWords. */
function chunkTerms(chunk: string, whole: boolean, stop: boolean, joined: boolean): string[] {
  const parts = identifierParts(chunk);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (stop && STOP_WORDS.has(parts[i])) continue;
    out.push(stem(parts[i]));
  }
  if (whole && parts.length > 1) {
    out.push(WHOLE_PREFIX + parts.join('_'));
    if (joined) joinedCaseWords(chunk, out);
  }
  return out;
}

/**
 * The stem of each joiner-free piece of a chunk that camelCase splits, lower-cased and joined
 * again: "GitHub" → github, "arXiv" → arxiv, "YouTube" → youtub, "PostgreSQL" → postgresql.
 * Catalogs write product names in camelCase and requests write them as one word ("search github"),
 * or the other way round (a tool named github_search, a request saying "GitHub"): the parts alone
 * ("git", "hub"; "tube", "you" being a stop word) never meet the word. Of the 82 camelCase words
 * in the eval corpus's descriptions that at most 20 tools write, a lower-case search for the
 * word finds a tool that writes it among the first five for 99% of them with these stems, 15%
 * without (docs/decisions/search-joined-camelcase-words.md). Pieces of fewer than 4 characters, or
 * holding anything but letters and digits, add nothing.
 */
function joinedCaseWords(chunk: string, out: string[]): void {
  for (const piece of chunk.split(JOINER_RE)) {
    if (piece.length < 4 || !LETTERS_DIGITS_RE.test(piece)) continue;
    if (identifierParts(piece).length < 2) continue;
    out.push(stem(piece.toLowerCase()));
  }
}

/** CJK run → each character and each adjacent pair ("天气预报" → 天 气 预 报 天气 气预 预报). */
function cjkGrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    out.push(chars[i]);
    if (i + 1 < chars.length) out.push(chars[i] + chars[i + 1]);
  }
}

/** Normalized key for exact-name matching: identifier parts (lower-case, unstemmed, no stop filtering) joined by one space. */
export function nameKey(text: unknown): string {
  if (typeof text !== 'string' || text.length > 512) return '';
  const parts: string[] = [];
  if (ASCII_RE.test(text)) {
    // same chunking as the analyzer's ASCII path, without stop words or stemming
    const len = text.length;
    let start = -1;
    for (let i = 0; i <= len; i++) {
      const c = i < len ? text.charCodeAt(i) : 32;
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || isJoiner(c)) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        for (const p of identifierParts(text.slice(start, i))) parts.push(p);
        start = -1;
      }
    }
    return parts.join(' ');
  }
  const src = text.normalize('NFKC').replace(APOSTROPHE_RE, ' ');
  for (const chunk of chunksOf(src)) {
    if (CJK_CHAR_RE.test(chunk)) parts.push(chunk.toLowerCase());
    else for (const p of identifierParts(chunk)) parts.push(p);
  }
  return parts.join(' ');
}
