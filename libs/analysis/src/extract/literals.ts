// Written-out values of a request: quoted spans, URLs, e-mail addresses, paths, identifiers and street addresses.
import { NAME_ABBREVIATIONS } from '../data/name-words.js';
import { type Span, push, overlaps } from './spans.js';

/** Extracts quoted spans: "x", 'x', “x”, ‘x’, `x`. */
export function findQuoted(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // double quotes, curly double quotes, backticks (any content up to the closing mark)
  const dq = /"([^"\n]{1,400})"|“([^”\n]{1,400})”|`([^`\n]{1,400})`/g;
  while ((m = dq.exec(text)) !== null) {
    const inner = m[1] ?? m[2] ?? m[3];
    if (inner.trim() !== '') push(spans, { kind: 'quoted', start: m.index + 1, end: m.index + m[0].length - 1, text: inner });
  }
  // single quotes that open after a non-letter and close before a non-letter (so "I'm" and "don't"
  // are not quotes, and an apostrophe between letters inside a quote does not end it: 'how they're
  // made'); a letter of a script written without spaces may touch them ("名为'DevelopmentEnv'的",
  // "'임진왜란'이라는": particles are glued to the quoted word)
  const sq =
    /(?<![\p{L}\p{N}](?<![\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]))['‘]((?:[^'’\n]|(?<=\p{L})['’](?=\p{L})){1,400}?)['’](?![\p{L}\p{N}](?<![\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]))/gu;
  while ((m = sq.exec(text)) !== null) {
    const inner = m[1];
    if (inner.trim() !== '' && !overlaps(spans, m.index + 1, m.index + m[0].length - 1, ['quoted']))
      push(spans, { kind: 'quoted', start: m.index + 1, end: m.index + m[0].length - 1, text: inner });
  }
}

/** Extracts URLs, e-mail addresses, file paths and bare domains. */
export function findAddresses(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // e-mail address
  // (lengths bounded as RFC 5321 bounds them: 64 for the local part, 63 a label; unbounded runs
  // made this regex quadratic on long words)
  const email = /(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g;
  while ((m = email.exec(text)) !== null) push(spans, { kind: 'email', start: m.index, end: m.index + m[0].length, text: m[0] });
  // URL with a scheme, or starting with www.; trailing punctuation is not part of it
  // (a scheme of at most 32 characters: an unbounded one is quadratic on a long run of letters and hyphens)
  const url = /\b(?:[a-z][a-z0-9+.-]{0,31}:\/\/|www\.)[^\s'"<>`)\]]+/gi;
  while ((m = url.exec(text)) !== null) {
    // trailing sentence punctuation is not part of the URL
    const t = m[0].replace(/[.,;:!?]+$/, '');
    push(spans, { kind: 'url', start: m.index, end: m.index + t.length, text: t });
  }
  // an IPv4 address, with a port or not ("10.0.0.5", "192.168.1.1:8080"), outside URLs: an
  // identifier, not numbers (read as numbers, it would give "10.0" and "0.5")
  const ip = /(?<![\w.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?::\d{1,5})?(?![\w.]*\w)/g;
  while ((m = ip.exec(text)) !== null) {
    if (!overlaps(spans, m.index, m.index + m[0].length, ['url', 'email']))
      push(spans, { kind: 'id', start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  // bare domain names: example.com, pg.example.org (not inside URLs/e-mails, not numbers)
  const dom =
    /(?<![\w@/.-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|ai|dev|edu|gov|co|uk|de|fr|cn|jp|ca|us|info|biz|app|me|tv|ly|gg|xyz)(?![\w-])/gi;
  while ((m = dom.exec(text)) !== null) {
    if (!overlaps(spans, m.index, m.index + m[0].length, ['url', 'email']))
      push(spans, { kind: 'url', start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  // file system paths: /root/x.md, ./a/b, ~/x, C:\dir\file, d:/dir/file.py
  const path = /(?<![\w:/.])(?:[a-zA-Z]:[\\/]|~\/|\.{1,2}\/|\/)(?:[\w.%@+-]+[\\/]?)+/g;
  while ((m = path.exec(text)) !== null) {
    // trailing sentence punctuation is not part of the path
    const t = m[0].replace(/[.,;:!?]+$/, '');
    if (t.length < 2 || overlaps(spans, m.index, m.index + t.length, ['url', 'email'])) continue;
    // "and/or", "km/h": a slash between two plain words is no path
    if (!/^[a-zA-Z]:|^[~.]|^\//.test(t)) continue;
    push(spans, { kind: 'path', start: m.index, end: m.index + t.length, text: t });
  }
  // bare file names with an extension: report.pdf, test.py, data_2023.csv
  // (with its folders when written relative: "notes/welcome.txt")
  const file =
    /(?<![\w/\\.-])(?:[\w-]+[\\/]){0,8}[\w-]+(?:\.[\w-]+)*\.(?:pdf|docx?|xlsx?|csv|json|txt|md|py|js|ts|html?|xml|ya?ml|png|jpe?g|gif|svg|mp3|mp4|wav|zip|tar|gz|pptx?|log|sh|bat|exe|java|c|cpp|go|rs|rb|sql|ini|cfg|conf|lnk)\b/gi;
  while ((m = file.exec(text)) !== null) {
    if (!overlaps(spans, m.index, m.index + m[0].length, ['url', 'email', 'path']))
      push(spans, { kind: 'path', start: m.index, end: m.index + m[0].length, text: m[0] });
  }
}

/** Extracts identifier-like tokens: U123456, AB1010CD, wjeiruhuq_roar, ef903ac-893-f00, v1.2.3. */
export function findIds(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // letters and digits mixed, or words joined by _ or -, or dotted versions; at least 2 chars
  // (or a camelCase identifier of 8 letters or more, two or more lower-case letters then
  // capitalised parts: "columnCount", "maxRetries"; not "iPhone", "eBay", "macBook", "wiFi")
  const re =
    /(?<![\w@/.-])(?:[A-Za-z0-9]+(?:[_.:/-][A-Za-z0-9]+)+|(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{2,}|[A-Z]{2,}\d*|(?=[A-Za-z]{8})[a-z]{2,}(?:[A-Z][a-z0-9]+)+)(?![\w@/-])/g;
  while ((m = re.exec(text)) !== null) {
    const t = m[0];
    if (overlaps(spans, m.index, m.index + t.length, ['url', 'email', 'path', 'date', 'time'])) continue;
    // pure numbers with separators are numbers ("1,000", "3.5"), not ids
    // (but a season or year range "2019-2020" is kept as written)
    // (nor a dotted version "2.1.3", which no number reads either)
    // (nor digit groups joined by hyphens, the first opening with a zero, which no count or range
    // does: "098-293", "0042-17" are codes; a date's shape is none, "01-02-2023")
    const zeroCode = /^0\d*(?:-\d+)+$/.test(t) && !/^\d{1,2}-\d{1,2}-\d{2,4}$/.test(t);
    if (/^[\d.,:-]+$/.test(t) && !/^(19|20)\d\d[-/](19|20)?\d\d$/.test(t) && !/^\d+(?:\.\d+){2,3}$/.test(t) && !zeroCode) continue;
    // words joined by "/" are alternatives ("and/or"), an id needs a digit
    if (t.includes('/') && !/\d/.test(t)) continue;
    // ordinal and unit glued to a number ("5th", "10km", "3x") are not ids
    if (/^\d+(st|nd|rd|th|[a-z]{1,3})$/i.test(t)) continue;
    // a number written in words with a hyphen ("twenty-five") is a number
    if (spans.some((o) => o.kind === 'number' && o.word && o.start === m!.index && o.end === m!.index + t.length)) continue;
    // a count glued to its noun by a hyphen ("3-star", "two-bedroom", "5-day") is a number with a unit
    if (
      /^(\d+|[a-z]+)-[a-z]+$/i.test(t) &&
      spans.some((o) => o.kind === 'number' && o.start === m!.index && o.end <= m!.index + t.indexOf('-'))
    )
      continue;
    // a dotted acronym ("U.S", "U.K.") is a name, with its last period and the capitalised words
    // after it ("U.S. Open", "J.K. Rowling", "P.F. Chang's")
    if (/^(?:[A-Z]\.)+[A-Z]$/.test(t)) {
      let end = m.index + t.length + (text[m.index + t.length] === '.' ? 1 : 0);
      // (words with lower-case letters: "U.K. GDP" keeps the acronym apart)
      const more = /^(?:\s+\p{Lu}\p{Ll}[\p{L}'’]*){1,4}/u.exec(text.slice(end));
      if (more && text[end - 1] === '.') end += more[0].length;
      push(spans, { kind: 'proper', start: m.index, end, text: text.slice(m.index, end) });
      continue;
    }
    push(spans, { kind: 'id', start: m.index, end: m.index + t.length, text: t });
  }
  // a number or code written after "#" ("order #123", "ticket #A-17")
  const hash = /(?<![\w&#])#[A-Za-z0-9][\w-]*/g;
  while ((m = hash.exec(text)) !== null) {
    if (overlaps(spans, m.index, m.index + m[0].length, ['url', 'email', 'path'])) continue;
    push(spans, { kind: 'id', start: m.index, end: m.index + m[0].length, text: m[0] });
  }
}

/** Street-type words that end a street name. */
const STREET_RE =
  '(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Apartments|Plaza|Alley|Row)';

/** findAddresses2's pattern, built once (global: each call sets its lastIndex to 0 and reads it to the end). */
const STREET_ADDRESS_RE = new RegExp(
  `\\b\\d{1,6}[A-Za-z]?\\s+(?:[A-Z][\\w.'-]*\\s+){1,4}${STREET_RE}\\b\\.?(?:,\\s*(?:[A-Z][\\w.'-]*(?:\\s+[A-Z][\\w.'-]*){0,3}|[A-Z]{2,3}))*(?:(?<=\\b[A-Z]{2})(?:,\\s*|\\s+)\\d{5}(?:-\\d{4})?\\b)?`,
  'g',
);

/** Extracts street addresses: "2508 University Avenue, Palo Alto, CA", "221B Baker Street, Berkeley". */
export function findAddresses2(text: string, spans: Span[]): void {
  // house number, capitalised street words, a street-type word, then up to three ", Capitalised"
  // parts, and a ZIP code after a state's code ("…, IL, 62704", "…, CA 94301")
  const re = STREET_ADDRESS_RE;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    // trailing periods/commas are punctuation, not part of the address; so is a sentence's end
    // in the town after the street ("123 White Street, San Jose. Number of passengers…"; not "St.
    // Louis", "Sault Ste. Marie")
    const comma = m[0].indexOf(',');
    let t = m[0];
    if (comma >= 0) {
      const end = [...t.slice(comma).matchAll(/(\p{L}+)\.\s/gu)].find((x) => !NAME_ABBREVIATIONS.has(x[1]));
      if (end) t = t.slice(0, comma + end.index + end[1].length);
    }
    t = t.replace(/[.,'’]+$/, '');
    push(spans, { kind: 'place', start: m.index, end: m.index + t.length, text: t, city: t, address: true });
  }
}
