/**
 * Things counted in the request ("two burgers and a coke"), for lists of items.
 */
import { type Doc } from '../extract.js';
import { NUMBER_WORDS } from '../lexicon.js';
import { STOP_WORDS, type Token } from '../text.js';
import { NOT_ITEMS } from './arrays.js';
import { ITEM_STOP, LY_NOUNS, MEASURE_WORDS, NOT_COUNT_AFTER } from './data/items.js';
import { SIZE_UNITS } from './units.js';

/** Most counted items read from one request. */
const MAX_COUNTED_ITEMS = 50;

/** Counts written as words, for counted items (number words from the lexicon, and "a"/"an" for one). */
const COUNT_WORD = new RegExp(
  `^(?:\\d{1,4}|a|an|${Object.keys(NUMBER_WORDS)
    .filter(
      (w) =>
        NUMBER_WORDS[w] >= 1 &&
        NUMBER_WORDS[w] <= 100 &&
        !['once', 'twice', 'thrice', 'solo', 'alone', 'single', 'couple', 'pair', 'dozen', 'hundred'].includes(w),
    )
    .join('|')})$`,
  'i',
);

/** One counted item: its name as written, where its name starts and ends. */
interface CountedItem {
  item: string;
  /** counted by "a"/"an" */
  article: boolean;
  itemStart: number;
  end: number;
}

/** Counted items of a request, cached per request (see countedItems). */
const COUNTED = new WeakMap<Doc, CountedItem[]>();

/**
 * Things ordered with how many of each: "three bottles of olive oil and a five pound bag of rice"
 * → olive oil, rice; "two dozen eggs" → eggs; "five 'burgers' and six 'chicken wings'". The first
 * run of counts each followed by an item name, the items joined by commas or "and"; an item is at
 * most four words, cut at a preposition or conjunction, with what measures or holds it dropped
 * before "of". "a"/"an" counts one only after another counted item. Names are kept as written
 * (plural included). Empty when the request holds no such run.
 */
export function countedItems(doc: Doc): CountedItem[] {
  const cached = COUNTED.get(doc);
  if (cached) return cached;
  const toks = doc.tokens;
  const runs: CountedItem[][] = [];
  let run: CountedItem[] = [];
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    const before = doc.text.slice(Math.max(0, t.start - 1), t.start);
    if (!COUNT_WORD.test(t.text)) {
      i++;
      continue;
    }
    // (nor a street address's house number: "'123 Maple Street, …'")
    if (
      /[$€£¥.\d-]/.test(before) ||
      (i > 0 && NOT_COUNT_AFTER.has(toks[i - 1].lower)) ||
      doc.spans.some((s) => s.address === true && s.start <= t.start && s.end >= t.end)
    ) {
      // a number that is no count ends the run
      if (run.length > 0) runs.push(run);
      run = [];
      i++;
      continue;
    }
    const article = /^an?$/i.test(t.text);
    let j = i + 1;
    if (toks[j]?.lower === 'dozen') j++;
    const words: { text: string; start: number; end: number }[] = [];
    while (
      j < toks.length &&
      words.length < 8 &&
      !ITEM_STOP.has(toks[j].lower) &&
      /^(?:[\s'"‘’“”]*|-)$/.test(doc.text.slice(toks[j - 1].end, toks[j].start))
    ) {
      words.push(toks[j]);
      j++;
    }
    // what measures or holds the item, before "of" ("five pound bag of rice" → "rice")
    const of = words.findIndex((w) => w.text.toLowerCase() === 'of');
    let head = words;
    if (of > 0 && words.slice(0, of).every((w) => MEASURE_WORDS.has(w.text.toLowerCase()) || COUNT_WORD.test(w.text)))
      head = words.slice(of + 1);
    const itemWords = head.filter((w) => w.text !== "'" && w.text !== '"');
    const gap = run.length > 0 ? doc.text.slice(run[run.length - 1].end, t.start) : '';
    const joined = run.length > 0 && /^['"‘’“”]?\s*(?:,\s*(?:and\s+)?|and\s+)$/i.test(gap);
    // (a size unit right after the count: "a 12 inch pizza" is one pizza)
    const ok =
      itemWords.length >= 1 &&
      itemWords.length <= 4 &&
      !NOT_ITEMS.test(itemWords[0].text) &&
      !(head === words && SIZE_UNITS.test(itemWords[0].text)) &&
      !/^\d/.test(itemWords[0].text);
    if (!ok) {
      if (run.length > 0) runs.push(run);
      run = [];
      i++;
      continue;
    }
    if (run.length > 0 && !joined) {
      runs.push(run);
      run = [];
    }
    const last = head[head.length - 1];
    const item = doc.text
      .slice(head[0].start, last.end)
      .replace(/^['"‘’“”]+|['"‘’“”]+$/g, '')
      .trim();
    if (run.length >= MAX_COUNTED_ITEMS) break;
    run.push({ item, article, itemStart: head[0].start, end: last.end });
    i = j;
  }
  if (run.length > 0) runs.push(run);
  // the longest run (the first of equal ones) with a count written as a number ("a coffee" alone
  // counts nothing; "a large pizza and 2 cokes" does)
  const best = runs.filter((r) => r.some((c) => !c.article)).reduce<CountedItem[]>((a, b) => (b.length > a.length ? b : a), []);
  COUNTED.set(doc, best);
  return best;
}

/** An "-ly" adverb or a day word ("quickly", "easily", "today"): never a plain value word of a list or pair. */
function adverbLike(w: string): boolean {
  return (w.length >= 5 && w.endsWith('ly') && !LY_NOUNS.has(w)) || /^(today|tomorrow|yesterday|now|later|soon|again|too|well)$/.test(w);
}

/** Words that end a coordinated item when read away from "and": function words, adverbs, and numbers. */
export function itemBoundary(t: Token): boolean {
  return STOP_WORDS.has(t.lower) || /^\d/.test(t.lower) || adverbLike(t.lower);
}
