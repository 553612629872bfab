/**
 * Matches `text` against a glob where `*` is any run of characters and `?` is one character;
 * everything else is literal and case-sensitive. No character classes, no escapes.
 */
export function globMatch(pattern: string, text: string): boolean {
  // Iterative wildcard matching with backtracking on the last `*` (linear-ish, no regex, no ReDoS).
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    // A `*` in the pattern is always a wildcard, even against a literal `*` in the text.
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

// Combining marks (\p{M}) and invisible format characters (\p{Cf}: zero-width space and joiners,
// soft hyphen, bidi controls), which change how a string is spelled but not what it reads as.
const MARKS_AND_FORMAT = /[\p{M}\p{Cf}]/gu;
// Plain ASCII without upper-case letters: already folded, the common case, answered without work.
const FOLDED_ASCII = /^[\x20-\x40\x5b-\x7e]*$/;

/**
 * The spelling-blind form of `s` ("skeleton") that argument globs compare by default: Unicode
 * compatibility decomposition (NFKD: full-width and other compatibility letters become their
 * plain forms, "ｐａｓｓ" → "pass"), case folded (upper-case, then lower-case, so "ß" and "SS"
 * both fold to "ss"), decomposed again (case mapping can bring marks back), combining marks and
 * format characters removed ("pa\u0301ss" → "pass", "pa\u200bss" → "pass"), then NFC (Hangul
 * syllables whole again). NFKC alone keeps the marks: "á" would stay a letter other than "a".
 * Confusables from other scripts (Cyrillic "а" for Latin "a") are not mapped.
 */
export function foldSpelling(s: string): string {
  if (FOLDED_ASCII.test(s)) return s;
  // Lower, upper, lower: upper-casing alone leaves the capital sharp S (U+1E9E) as it is, which then
  // lowers to "ß", never to the "ss" that "ß" upper-cases to; lowering first makes both "ss".
  return s.normalize('NFKD').toLowerCase().toUpperCase().toLowerCase().normalize('NFKD').replace(MARKS_AND_FORMAT, '').normalize('NFC');
}
