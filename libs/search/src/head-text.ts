// What the head reranker reads of a text besides its stems: its share of CJK characters
// (scriptMismatch) and the words the word-meaning feature looks up.
import { splitIdentifier, STOP_WORDS } from '@toolsurface/analysis';
import { hashLike } from './tool-features.js';

/** One CJK character (Han, kana, Hangul), as the search's analyzer reads them. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** One Latin letter (the words the lexical features read). */
const LATIN_LETTER = /[A-Za-z]/g;

/** Share of a text's letters (Latin and CJK) that are CJK characters, over its first 2,000 characters; 0 when it has no letters. */
export function cjkShare(text: string): number {
  const t = text.slice(0, 2000);
  const cjk = t.match(CJK_CHAR)?.length ?? 0;
  const latin = t.match(LATIN_LETTER)?.length ?? 0;
  return cjk + latin === 0 ? 0 : cjk / (cjk + latin);
}

/** Most words of a text the word-meaning feature reads (a tool's text or a request). */
export const MEANING_MAX_WORDS = 200;

/** A word without its accents ("résumé" → "resume", "café" → "cafe"), as the table spells words. */
export function unaccented(w: string): string {
  return /[^\x00-\x7f]/.test(w) ? w.normalize('NFD').replace(/\p{M}/gu, '') : w;
}

/** A lower-case word the word-meaning feature reads: letters a-z only, 3 or more, no stop word. */
export function meaningWord(w: string): boolean {
  return w.length >= 3 && /^[a-z]+$/.test(w) && !STOP_WORDS.has(w);
}

/**
 * Distinct lower-case words of a tool's texts (identifiers split, accents dropped, hash-like
 * chunks such as a name's "7e30dad4" skipped), each a meaningWord; at most MEANING_MAX_WORDS.
 */
export function meaningWords(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const chunk of unaccented(text.slice(0, 4000)).match(/[A-Za-z0-9]+/g) ?? []) {
      if (hashLike(chunk.toLowerCase())) continue;
      for (const part of splitIdentifier(chunk)) {
        const w = part.toLowerCase();
        if (meaningWord(w)) out.add(w);
        if (out.size >= MEANING_MAX_WORDS) return [...out];
      }
    }
  }
  return [...out];
}
