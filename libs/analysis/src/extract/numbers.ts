// Numbers of a request (digits, signs, separators, currency, multipliers, units, number words) and list literals.
import { NUMBER_WORDS, MULTIPLIERS } from '../lexicon.js';
import { type Span, push } from './spans.js';

/**
 * findNumbers' number-word pattern ("three", "twenty five", "twenty-five", "two hundred"):
 * NUMBER_WORDS but for the words read apart or not as a count. Built once (global: each
 * findNumbers call sets its lastIndex to 0 and reads it to the end).
 */
const NUMBER_WORDS_RE = new RegExp(
  `\\b(${Object.keys(NUMBER_WORDS)
    .filter((w) => !['once', 'twice', 'thrice', 'single', 'alone', 'solo', 'couple', 'pair', 'dozen', 'hundred'].includes(w))
    .join('|')})(?:[-\\s](one|two|three|four|five|six|seven|eight|nine))?\\b(?:\\s+(hundred|thousand|million))?`,
  'gi',
);

/** Extracts numbers (digits with sign, separators, currency, multipliers, units; number words). */
export function findNumbers(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // optional sign, optional currency symbol, digits with thousands separators and decimals,
  // optional multiplier word or percent sign; not glued to letters/digits before it
  const num =
    /(?<![\p{L}\d._])([-+−]?)\s?([$€£¥])?\s?(\d{1,3}(?:,\d{3})+(?![\d])|\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?!\d)(?:\s?(%|percent\b|per cent\b))?/gu;
  while ((m = num.exec(text)) !== null) {
    const start = m.index;
    let end = m.index + m[0].length;
    // a sign right after a letter/digit is a hyphen ("2022-2023", "ef903ac-893"), not a minus
    let sign = m[1];
    if (sign && start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1])) sign = '';
    // thousands separators removed
    const intPart = m[3].replace(/,/g, '');
    let value = Number(`${intPart}${m[4] ? `.${m[4]}` : ''}${m[5] ? `e${m[5]}` : ''}`);
    if (sign === '-' || sign === '−') value = -value;
    // where the value is written, after any leading space the match took
    const valueAt = start + (m[0].length - m[0].trimStart().length);
    // a sign written as a word: "negative 25", and "minus 25" where no number (with at most a unit)
    // comes right before it ("the sum of 17 and minus 25", "longitude minus 74.0", "multiply 6 by
    // minus 3"; in "100 minus 40" and "100 kg minus 40" the word is the operation); only where a
    // measure, not a count of things, follows ("negative 5 degrees", not "the negative 5 reviews")
    if (!sign) {
      const before = text.slice(Math.max(0, valueAt - 40), valueAt);
      const signed = /\bnegative\s+$/i.test(before) || (/\bminus\s+$/i.test(before) && !OPERATOR_MINUS.test(before));
      if (signed && SIGNED_AFTER.test(text.slice(end, end + 24))) value = -value;
    }
    // an exponent of a unit or a variable ("9.8 m/s^2", "3x**2") is no value of its own; a number's
    // power ("2^10", "3**4") and Markdown bold ("**4** people") are
    if (
      (text[valueAt - 1] === '^' && /[\p{L})]/u.test(text[valueAt - 2] ?? '')) ||
      (text.slice(valueAt - 2, valueAt) === '**' && /[\p{L})]/u.test(text[valueAt - 3] ?? ''))
    )
      continue;
    const after = text.slice(end);
    // identifiers: digits followed by letters+digits or underscores are not numbers ("123abc4", "v2_x")
    if (/^[\p{L}_]*\d/u.test(after) || /^_/.test(after)) continue;
    // a number inside a dotted identifier or version ("1.2.3", "192.168.0.1")
    if (/^\.\d/.test(after)) continue;
    let unit: string | undefined;
    let percent = false;
    if (m[6]) percent = true;
    // multiplier word after the number: "1.5 million", "20k"
    const mult = /^\s?(thousand|million|billion|trillion|k|bn|mn)\b/i.exec(after);
    // "298K" / "300 K" after a plain number is kelvin; "20k" / "$20K" is thousands
    const kelvin = mult !== null && mult[1] === 'K' && !m[2];
    if (mult && !percent && !kelvin) {
      value *= MULTIPLIERS[mult[1].toLowerCase()] ?? 1;
      end += mult[0].length;
    }
    // unit word right after: "5 km", "180cm", "3.5 kg", "10 years", "x^2"
    const u = /^[\s-]?(°\s?[CF]|°|[\p{L}]+(?:\^\d)?)/u.exec(text.slice(end));
    if (u && !percent) unit = u[1].toLowerCase();
    const cur = m[2];
    const unitEnd = u && !percent ? end + u[0].length : end;
    push(spans, {
      after: text.slice(unitEnd, unitEnd + 24),
      kind: 'number',
      start: sign ? start : valueAt,
      end,
      text: text.slice(start, end).trim(),
      num: value,
      unit: cur ? cur : unit,
      percent,
    });
  }
  // number words: "three", "twenty five", "twenty-five"
  const wre = NUMBER_WORDS_RE;
  wre.lastIndex = 0;
  while ((m = wre.exec(text)) !== null) {
    let v = NUMBER_WORDS[m[1].toLowerCase()];
    if (m[2] && v >= 20 && v % 10 === 0) v += NUMBER_WORDS[m[2].toLowerCase()];
    else if (m[2]) continue;
    if (m[3]) v *= MULTIPLIERS[m[3].toLowerCase()];
    // "one" is usually a pronoun ("the one with", "one of"): keep only before a noun-like word
    if (m[1].toLowerCase() === 'one' && /^\s+(of|with|that|which|who|more|another|day)\b/i.test(text.slice(m.index + m[0].length)))
      continue;
    const u = /^[\s-]?([\p{L}]+)/u.exec(text.slice(m.index + m[0].length));
    push(spans, {
      kind: 'number',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      num: v,
      word: true,
      unit: u ? u[1].toLowerCase() : undefined,
    });
  }
  // "a dozen", "a couple of", "a pair of", "alone"/"solo" (one person)
  const special = /\b(?:an?\s+)?(dozen|couple|pair)\b|\b(alone|solo|myself)\b/gi;
  while ((m = special.exec(text)) !== null) {
    const w = (m[1] ?? m[2]).toLowerCase();
    push(spans, {
      kind: 'number',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      num: w === 'myself' ? 1 : NUMBER_WORDS[w],
      word: true,
    });
  }
}

/** Extracts bracketed list literals: [1, 2, 3], ['a', 'b'], (3, 4). */
export function findLists(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // a bracketed list whose items contain no further brackets except one nesting level
  const re = /\[(?:[^[\]]|\[[^[\]]*\])*\]|\((?:\s*-?\d+(?:\.\d+)?\s*,)+\s*-?\d+(?:\.\d+)?\s*\)/g;
  while ((m = re.exec(text)) !== null) {
    const raw = m[0];
    const items = parseListLiteral(raw);
    if (items) push(spans, { kind: 'list', start: m.index, end: m.index + raw.length, text: raw, items });
  }
}

/** Parses a bracketed list literal (JSON, Python-style quotes, or bare words); undefined if it is not one. */
export function parseListLiteral(raw: string): unknown[] | undefined {
  let src = raw.trim();
  // tuples "(3, 4)" read as lists
  if (src.startsWith('(')) src = `[${src.slice(1, -1)}]`;
  try {
    const v = JSON.parse(src) as unknown;
    if (Array.isArray(v)) return v;
  } catch {
    /* not JSON */
  }
  try {
    // Python-style single quotes and True/False/None
    const py = src
      .replace(/'([^']*)'/g, (_s, g: string) => JSON.stringify(g))
      .replace(/\bTrue\b/g, 'true')
      .replace(/\bFalse\b/g, 'false')
      .replace(/\bNone\b/g, 'null');
    const v = JSON.parse(py) as unknown;
    if (Array.isArray(v)) return v;
  } catch {
    /* not Python-ish */
  }
  // bare items: [a, b, c]
  const inner = src.slice(1, -1).trim();
  if (inner === '' || /[[\]{}]/.test(inner)) return undefined;
  // items that are plain (signed, decimal) numbers become numbers
  return inner
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s));
}

/** A number, or a number and its unit, as a regular-expression source ("100 ", "100 kg ", "5% "): what "minus" after it subtracts from (libs/search/src/tool-features.ts reads the same). */
export const NUMBER_AND_UNIT = String.raw`\d[\d.,]*\s*(?:[%°]\s*|(?:kg|g|lbs?|pounds?|km|m|miles?|meters?|metres?|feet|ft|degrees?|dollars?|euros?|points?|percent|hours?|minutes?|seconds?|days?|weeks?|months?|years?)\s+)?`;

/** "minus" written right after a number, or a number and its unit: the operation, not a sign ("100 minus 40", "100 kg minus 40", "5% minus 2"). */
const OPERATOR_MINUS = new RegExp(`${NUMBER_AND_UNIT}minus\\s+$`, 'i');

/** What may follow a number signed by a word: the end, punctuation, a joining word, or a unit of measure ("minus 5 degrees", "negative 25?"), not a counted thing ("negative 5 reviews"). */
const SIGNED_AFTER =
  /^(?:\s*$|\s*[.,;:!?)\]}]|\s+(?:and|or|to|for|in|on|at|with|then|plus|minus|times|degrees?|°|celsius|fahrenheit|kelvin|percent|%|points?|dollars?|euros?|meters?|metres?|km|kilometers?|miles?|feet|ft|kg|grams?|lbs?|pounds?|hours?|minutes?|seconds?|days?)\b|\s*[°%])/i;
