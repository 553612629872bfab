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
