// Porter stemming shared by the search analyzer and the request analysis, so both read a word alike
// and share one bounded memo.
import { stemmer } from 'stemmer';

// A word the English stemmer may touch: ASCII lower-case letters only.
const STEMMABLE_RE = /^[a-z]+$/;

/** Longest word the memo keeps (characters): a catalog's words are short. */
const MAX_CACHED_CHARS = 64;

/** Memo of stem(); bounded so a stream of odd words cannot grow it without end. */
const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised (the corpus vocabulary is small). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    // stemmer is for English: leave short words, digits and non-ASCII words alone
    s = word.length <= 2 || !STEMMABLE_RE.test(word) ? word : stemmer(word);
    if (stemCache.size < 200_000 && word.length <= MAX_CACHED_CHARS) stemCache.set(detached(word), (s = detached(s)));
  }
  return s;
}

/**
 * A copy of a string that shares no storage with a longer one. V8 makes a slice, a split or a
 * match of 13 characters or more a view into the whole string, so a memo keyed by a word of a
 * 32,000-character request would keep all of it: about 63 KB held per distinct request (194 MB
 * after 3,000 such requests), which the memos' entry caps do not bound.
 */
export function detached(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}
