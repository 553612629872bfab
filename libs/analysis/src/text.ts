/**
 * Text helpers shared by selection and argument mapping: tokenisation with offsets, identifier
 * splitting, stemming, stop words and a few abbreviation expansions.
 */
import { stem } from './stem.js';
import { lookupTable } from './lexicon.js';

/** A word or number token with its character offsets in the source text. */
export interface Token {
  text: string;
  lower: string;
  stem: string;
  start: number;
  end: number;
  index: number;
}

/** English function words that never anchor a value on their own. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of for to in on at by with and or is are was were be been being can could would should will shall may might must ' +
    'you your me my mine i we our us it its this that these those what which who whom whose how when where why please from as do does did ' +
    'have has had get gets got give given some any all each every there here then than so if but not no yes also just about into onto over ' +
    'under up down out off only very more most less least such same other another want wants need needs like would let lets tell show find ' +
    'help make provide know using use used via per am pm im'
  ).split(' '),
);

/** Short forms that appear in parameter names, expanded to the word a request would use. */
export const ABBREVIATIONS: Readonly<Record<string, string[]>> = lookupTable({
  loc: ['location'],
  num: ['number'],
  no: ['number'],
  qty: ['quantity'],
  amt: ['amount'],
  dest: ['destination'],
  src: ['source'],
  dst: ['destination'],
  addr: ['address'],
  desc: ['description'],
  temp: ['temperature'],
  max: ['maximum', 'most', 'up'],
  min: ['minimum', 'least'],
  lat: ['latitude'],
  lon: ['longitude'],
  lng: ['longitude'],
  yr: ['year'],
  yrs: ['years'],
  msg: ['message'],
  img: ['image'],
  pic: ['picture'],
  avg: ['average'],
  info: ['information'],
  init: ['initial'],
  freq: ['frequency'],
  prob: ['probability'],
  vol: ['volume'],
  std: ['standard'],
  dev: ['deviation'],
  pct: ['percent', 'percentage'],
  perc: ['percent'],
  tz: ['timezone'],
  dob: ['birth'],
  cnt: ['count'],
  len: ['length'],
  dur: ['duration'],
  pos: ['position'],
  ref: ['reference'],
  repo: ['repository'],
  dir: ['directory', 'folder'],
  lang: ['language'],
  db: ['database'],
  config: ['configuration'],
  env: ['environment'],
  auth: ['authentication'],
  str: ['string'],
  val: ['value'],
  cat: ['category'],
  org: ['organization'],
  pwd: ['password'],
  usr: ['user'],
  qty_: ['quantity'],
  coef: ['coefficient'],
  coeff: ['coefficient'],
  mins: ['minutes'],
  secs: ['seconds'],
  hrs: ['hours'],
  km: ['kilometers'],
  kg: ['kilograms'],
  cm: ['centimeters'],
  sq: ['square'],
  ft: ['feet'],
});

/** A word with no camelCase or punctuation boundary: optional leading capital, then lower-case letters and digits. */
const PLAIN_WORD = /^[A-Z]?[a-z0-9]+$/;

/** Splits identifiers on camelCase and punctuation; returns lower-cased parts. */
export function splitIdentifier(name: string): string[] {
  // fast path (most words of a description): ASCII letters and digits with at most a leading
  // capital have no inner boundary, so the split is the word itself, lower-cased
  if (PLAIN_WORD.test(name)) return [name.toLowerCase()];
  const spaced = name
    // lower/digit -> Upper boundary: "getWeather" -> "get Weather"
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    // acronym -> Word boundary: "HTTPServer" -> "HTTP Server"
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  // runs of letters, marks and digits are the parts
  return spaced.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/**
 * Porter stem of a lower-case word; numbers, short words and non-ASCII words pass through. The
 * search analyzer's (@toolsurface/search), so both read a word alike and share one bounded memo.
 */
export { stem };

/** Words (letters/digits, inner apostrophes): one token each. */
const WORD_RE = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** The words of a text as `tokenize` finds them, without offsets or stems (the cheap form for profiles). */
export function wordsOf(text: string): string[] {
  return text.match(WORD_RE) ?? [];
}

/** A maximal run of letters and digits (no marks, no apostrophes: "paris's" is "paris" and "s"). */
const LETTER_DIGIT_RUN = /[\p{L}\p{N}]+/gu;

/** The maximal runs of letters and digits of a text, as written: the words of a whole-word test. */
export function letterDigitRuns(text: string): string[] {
  return text.match(LETTER_DIGIT_RUN) ?? [];
}

/** Tokenises text into words/numbers with offsets (identifiers are not split here). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = new RegExp(WORD_RE);
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const lower = m[0].toLowerCase();
    // (the stem ignores an apostrophe suffix: "what's" -> "what")
    out.push({
      text: m[0],
      lower,
      stem: stem(lower.replace(/['’].*$/, '')),
      start: m.index,
      end: m.index + m[0].length,
      index: out.length,
    });
  }
  return out;
}

/** Stemmed content words of a text (identifiers split, stop words dropped). */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const part of splitIdentifier(text)) if (!STOP_WORDS.has(part)) out.push(stem(part));
  return out;
}

/** Lower-case parts of a parameter name with abbreviations expanded (e.g. "start_loc" -> start, loc, location). */
export function nameParts(name: string): string[] {
  const parts = splitIdentifier(name);
  const out: string[] = [];
  for (const p of parts) {
    out.push(p);
    const exp = ABBREVIATIONS[p];
    if (exp) out.push(...exp);
  }
  return out;
}

/** Collapses a string to lower-case letters and digits only (for loose comparisons). */
export function squash(s: string): string {
  // everything that is not a letter or digit is removed
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** editDistance's two table rows, reused across calls. */
let EDIT_ROWS: [Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64)];

/** Levenshtein distance of two strings (UTF-16 code units) when it is at most `max`; past it, some number above `max` (max + 1 as soon as a whole row of the table exceeds it). */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  // two rows of the table, reused across calls (called for many word pairs a request)
  if (EDIT_ROWS[0].length < n + 1) EDIT_ROWS = [new Int32Array(2 * (n + 1)), new Int32Array(2 * (n + 1))];
  let [prev, cur] = EDIT_ROWS;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const done = prev;
    prev = cur;
    cur = done;
  }
  return prev[n];
}
