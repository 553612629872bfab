// Proper names of a request: runs of capitalised words.
import type { Token } from '../text.js';
import { LEADING_WORDS } from '../lexicon.js';
import { TITLE_WORDS, NAME_ABBREVIATIONS } from '../data/name-words.js';
import { type Span, push } from './spans.js';

/** Is the token capitalised (or an all-caps acronym / a number inside a name)? */
function isCap(t: Token): boolean {
  // starts with an upper-case letter
  return /^\p{Lu}/u.test(t.text);
}

/** Small words allowed inside a proper name ("Statue of Liberty", "Lord of the Rings"). */
const NAME_JOINERS = new Set(['of', 'the', 'de', 'da', 'del', 'la', 'le', 'van', 'von', '&', 'du', 'di', 'y']);

/** What may follow a name's "'s" when it owns nothing: the end, punctuation, or a preposition or conjunction. */
const STANDALONE_POSSESSIVE = /^(?:\s*$|\s*[.,;:!?)]|\s+(?:on|in|at|for|with|and|or|to|from|near|by|via|using|through|please)\b)/i;

/** Extracts runs of capitalised words (names, titles, places). */
export function findProperNames(text: string, tokens: Token[], spans: Span[]): void {
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    // sentence punctuation (or a line break) right before the token; "'s"/"'m" suffixes dropped
    const sentenceStart = i === 0 || /[.!?:\n]\s*$/.test(text.slice(Math.max(0, t.start - 3), t.start));
    const bare = t.lower.replace(/['’].*$/, '');
    // "The" written with a capital inside a sentence, before a capitalised word, opens a name
    // ("at The Plaza", "of The British Museum")
    const titleThe =
      t.text === 'The' &&
      !sentenceStart &&
      i + 1 < tokens.length &&
      isCap(tokens[i + 1]) &&
      /^\s+$/.test(text.slice(t.end, tokens[i + 1].start));
    // a short capitalised word after "by", "called", "named" or "titled", before another
    // capitalised one, opens the name ("songs by Get Scared", "the album called We Are Not Your Kind")
    const byName =
      !sentenceStart &&
      /\b(?:by|called|named|titled)\s+$/i.test(text.slice(Math.max(0, t.start - 8), t.start)) &&
      i + 1 < tokens.length &&
      isCap(tokens[i + 1]) &&
      /^\s+$/.test(text.slice(t.end, tokens[i + 1].start));
    // (the C or F of a temperature, "0°C", is no name)
    if (t.start > 0 && text[t.start - 1] === '°') {
      i++;
      continue;
    }
    if (
      !isCap(t) ||
      (!titleThe &&
        !byName &&
        ((sentenceStart && LEADING_WORDS.has(bare)) ||
          bare === 'i' ||
          (LEADING_WORDS.has(bare) && t.text.length <= 3 && t.text !== t.text.toUpperCase())))
    ) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < tokens.length) {
      const gap = text.slice(tokens[j].end, tokens[j + 1].start);
      // only spaces, periods of initials ("J. Patrick"), hyphens, apostrophes or an ampersand
      // without spaces ("R&B", "AT&T") may separate name words (a spaced one may join two names:
      // "Lakers & Clippers")
      if (!/^(\s+|\.\s+|\s*-\s*|'|&)$/.test(gap)) break;
      if (gap === '&' && !isCap(tokens[j + 1])) break;
      // (an initial is one capital letter, or a title's or place's abbreviation: "J.", "St.", "Dr.";
      // any other word, number or acronym before a period ends a sentence: "size UK 34. However",
      // "Call Ann. She is…")
      if (gap.startsWith('.') && !/^\p{Lu}$/u.test(tokens[j].text) && !NAME_ABBREVIATIONS.has(tokens[j].text)) break;
      const nx = tokens[j + 1];
      // a capitalised word or a plain number continues the name ("Cyberpunk 2077")
      // (not a number that opens a range or date: "La Liga 2020-2021", "Expo 2024/25")
      if (isCap(nx) || (/^\d+$/.test(nx.text) && !/^[-/]\d/.test(text.slice(nx.end, nx.end + 2)))) {
        j++;
        continue;
      }
      // a joiner followed by a capitalised word stays in the name
      if (
        NAME_JOINERS.has(nx.lower) &&
        j + 2 < tokens.length &&
        isCap(tokens[j + 2]) &&
        /^\s+$/.test(text.slice(nx.end, tokens[j + 2].start))
      ) {
        j += 2;
        continue;
      }
      break;
    }
    // a role before a person's name is not part of it ("Lawyer John Doe", "Professor Smith")
    // (only before a first and a last name: "Doctor Who", "Captain America Civil War" and "Mayor of
    // Kingstown" are names themselves)
    const titled =
      j === i + 2 &&
      TITLE_WORDS.has(bare.replace(/\.$/, '')) &&
      !/['’]/.test(t.text) &&
      tokens.slice(i + 1, j + 1).every((x) => isCap(x) && !NAME_JOINERS.has(x.lower));
    const start = titled ? tokens[i + 1].start : t.start;
    let end = tokens[j].end;
    // a lone capitalised word opening a sentence is usually just capitalised ("Mix yellow and blue")
    if (sentenceStart && j === i && !/^\p{Lu}{2,}$/u.test(t.text) && i + 1 < tokens.length && /^\p{Ll}/u.test(tokens[i + 1].text)) {
      i = j + 1;
      continue;
    }
    // possessive "'s" is not part of the name ("John's car", "the laptop is Mary's"), except after
    // "from"/"at" where nothing follows that it could own: a business ("an order from McDonald's.",
    // "at Macy's on 5th")
    const poss = /['’]s$/i.exec(tokens[j].text);
    if (poss && !(STANDALONE_POSSESSIVE.test(text.slice(end)) && /\b(?:from|at)\s+$/i.test(text.slice(Math.max(0, start - 6), start))))
      end -= poss[0].length;
    push(spans, { kind: 'proper', start, end, text: text.slice(start, end) });
    i = j + 1;
  }
}

/** Title-cases a lower-case place name. */
export function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
