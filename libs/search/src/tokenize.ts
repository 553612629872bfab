// The analyzer of ToolIndex: identifiers split on . _ - / and camelCase (the whole identifier kept
// as one more token), English words lower-cased, stop-filtered and Porter-stemmed, CJK runs cut
// into character unigrams and bigrams.
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stopwords.js';

/** Longest text the analyzer reads (characters); longer input is cut here so a search stays bounded. */
export const MAX_ANALYZED_CHARS = 4_000;

/** Prefix of the "whole identifier" token, so it never collides with a word token. */
export const WHOLE_PREFIX = '#';

// A chunk: a run of letters, marks, digits and the identifier joiners _ . - / that has at least
// one letter or digit (joiners alone are punctuation).
const CHUNK_RE = /[\p{L}\p{M}\p{N}_.\-/]*[\p{L}\p{N}][\p{L}\p{M}\p{N}_.\-/]*/gu;
// Han, Hiragana, Katakana and Hangul characters: scripts written without spaces between words.
const CJK_CHAR_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// Splits a chunk into alternating CJK runs and other runs (the capture keeps the CJK runs).
const CJK_RUN_RE = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;
// Identifier joiners: dot, underscore, hyphen, slash (paths, "math.factorial", "get-weread-rank").
const JOINER_RE = /[_.\-/]+/;
// Anything that makes a chunk more than one plain lower-case word: a joiner or an upper-case letter.
const JOINER_OR_UPPER_RE = /[_.\-/\p{Lu}]/u;
// camelCase boundary: lower or digit followed by upper ("getWeather" → get|Weather).
const CAMEL_LOWER_UPPER_RE = /(\p{Ll}|\p{N})(\p{Lu})/gu;
// Acronym boundary: an upper followed by upper+lower ("HTTPServer" → HTTP|Server).
const CAMEL_ACRONYM_RE = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
// Pure ASCII text (selects the faster ASCII forms of the camelCase rules below).
const ASCII_RE = /^[\x00-\x7f]*$/;
// ASCII camelCase boundary: lower or digit followed by upper.
const ASCII_LOWER_UPPER_RE = /([a-z0-9])([A-Z])/g;
// ASCII acronym boundary: upper followed by upper+lower.
const ASCII_ACRONYM_RE = /([A-Z])([A-Z][a-z])/g;
// Apostrophes (ASCII and typographic) inside words: "don't", "Apple's".
const APOSTROPHE_RE = /['’]/g;

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised (the corpus vocabulary is small). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    // stemmer is for English; leave digits-only and very short words alone
    s = word.length <= 2 || !/^[a-z]+$/.test(word) ? word : stemmer(word); // only ASCII letters are stemmed
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

/** Lower-case parts of one identifier-like chunk: split on joiners, camelCase and letter/digit edges. */
export function identifierParts(chunk: string): string[] {
  // fast path: a plain lower-case word (no joiner, no upper case) is its own only part
  if (!JOINER_OR_UPPER_RE.test(chunk)) return [chunk];
  const out: string[] = [];
  for (const piece of chunk.split(JOINER_RE)) {
    if (piece === '') continue;
    const spaced = ASCII_RE.test(piece)
      ? piece.replace(ASCII_LOWER_UPPER_RE, '$1 $2').replace(ASCII_ACRONYM_RE, '$1 $2')
      : piece.replace(CAMEL_LOWER_UPPER_RE, '$1 $2').replace(CAMEL_ACRONYM_RE, '$1 $2');
    for (const word of spaced.split(' ')) {
      if (word !== '') out.push(word.toLowerCase());
    }
  }
  return out;
}

/** Analyzer options (internal): whether to emit the whole-identifier token and to drop stop words. */
export interface AnalyzeOptions {
  whole?: boolean;
  stop?: boolean;
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
  if (typeof text !== 'string' || text === '') return [];
  const whole = options.whole ?? true;
  const stop = options.stop ?? true;
  const src = (text.length > MAX_ANALYZED_CHARS ? text.slice(0, MAX_ANALYZED_CHARS) : text)
    .normalize('NFKC')
    .replace(APOSTROPHE_RE, '');
  const out: string[] = [];
  for (const chunk of src.match(CHUNK_RE) ?? []) {
    if (CJK_CHAR_RE.test(chunk)) {
      for (const run of chunk.split(CJK_RUN_RE)) {
        if (run === '') continue;
        if (CJK_CHAR_RE.test(run)) cjkGrams(run, out);
        else wordTokens(run, whole, stop, out);
      }
    } else {
      wordTokens(chunk, whole, stop, out);
    }
  }
  return out;
}

/** Terms of a non-CJK chunk: stemmed parts plus, for a multi-part identifier, the whole token. */
function wordTokens(chunk: string, whole: boolean, stop: boolean, out: string[]): void {
  const parts = identifierParts(chunk);
  if (parts.length === 0) return;
  for (const part of parts) {
    if (stop && STOP_WORDS.has(part)) continue;
    out.push(stem(part));
  }
  if (whole && parts.length > 1) out.push(WHOLE_PREFIX + parts.join('_'));
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
  if (typeof text !== 'string') return '';
  const src = (text.length > 512 ? '' : text).normalize('NFKC').replace(APOSTROPHE_RE, '');
  const parts: string[] = [];
  for (const chunk of src.match(CHUNK_RE) ?? []) {
    if (CJK_CHAR_RE.test(chunk)) parts.push(chunk.toLowerCase());
    else parts.push(...identifierParts(chunk));
  }
  return parts.join(' ');
}
