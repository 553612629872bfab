/**
 * Where a parameter's name is written in the request, and the bonus of a value written next to it:
 * shared by every value kind (anchor hits, link words, range ends, clause breaks).
 */
import { type Doc, type Span, tokenAt } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, stem } from '../text.js';
import { CURRENCY_UNIT_STEMS } from './data/units.js';
import { ANCHOR_SCORES as A } from './data/scores/anchors.js';
import { LINK_WORDS, WEAK_LINKS, WEAK_LINK_GAP, WEAK_PARTS } from './data/words.js';
import { unitStem, unitStemsOf } from './units.js';

/** Token index range [first, last] of a character range. */
function tokRange(doc: Doc, start: number, end: number): [number, number] {
  const a = tokenAt(doc, start);
  let b = a;
  while (b + 1 < doc.tokens.length && doc.tokens[b + 1].start < end) b++;
  return [a, b];
}

/** Positions (token indices) where a parameter's name is written, with a weight per match. */
/** What anchorHits reads of a parameter's name (the same for every request), by parameter. */
const ANCHOR_WORDS = new WeakMap<ParamInfo, { strong: string[]; weak: string[]; firstPart: string; reviewScore: boolean }>();

function anchorWords(p: ParamInfo): { strong: string[]; weak: string[]; firstPart: string; reviewScore: boolean } {
  let w = ANCHOR_WORDS.get(p);
  if (w !== undefined) return w;
  const strong = p.anchors.filter((a, i) => !WEAK_PARTS.has(p.parts[i] ?? a) && a.length > 1 && !STOP_WORDS.has(a));
  w = {
    strong,
    weak: p.anchors.filter((a) => !strong.includes(a) && a.length > 1),
    firstPart: p.parts.length > 0 ? stem(p.parts[0]) : '',
    // (a review's or user's score is a rating: "a review score of 4.7" for avg_rating; not a credit
    // score for an interest rate)
    reviewScore: p.parts.includes('rating') || p.parts.includes('ratings'),
  };
  ANCHOR_WORDS.set(p, w);
  return w;
}

export function anchorHits(p: ParamInfo, doc: Doc): { idx: number; w: number }[] {
  const out: { idx: number; w: number }[] = [];
  const { strong, weak, firstPart, reviewScore } = anchorWords(p);
  for (const t of doc.tokens) {
    if (strong.includes(t.stem)) out.push({ idx: t.index, w: A.strongNamePart.v });
    else if (reviewScore && t.stem === 'score' && /^(review|user|customer|guest|star)s?$/.test(doc.tokens[t.index - 1]?.lower ?? ''))
      out.push({ idx: t.index, w: A.reviewScoreWord.v });
    else if (weak.includes(t.stem))
      out.push({ idx: t.index, w: t.stem === firstPart && p.anchors.length === 1 ? A.soleWeakFirstPart.v : A.weakNamePart.v });
  }
  return out;
}

/** Comparison words before a value, by the side of the bound they set. */
const LOWER_BOUND =
  /\b(?:over|above|more\s+than|higher\s+than|greater\s+than|at\s+least|no\s+less\s+than|not\s+less\s+than|min(?:imum)?(?:\s+of)?|from)\s*$/i;

const UPPER_BOUND =
  /\b(?:under|below|less\s+than|lower\s+than|fewer\s+than|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|max(?:imum)?(?:\s+of)?|within)\s*$/i;

/**
 * Does the comparison written right before a value set the other side of the bound the parameter
 * is? A parameter is a lower bound when its name says min/minimum/lower/from/at-least, an upper
 * bound when it says max/maximum/upper/limit; others take either.
 */
export function boundClash(p: ParamInfo, doc: Doc, s: Span): boolean {
  const lower = p.parts.some((x) => /^(min|minimum|lower|least|floor)$/.test(x));
  const upper = p.parts.some((x) => /^(max|maximum|upper|most|ceiling|limit)$/.test(x));
  if (lower === upper) return false;
  const before = doc.text.slice(Math.max(0, s.start - 24), s.start).replace(/[$€£¥]\s*$/, '');
  // ("within $300,000 to $400,000": the word bounds the range, whose first number is its low end)
  if (lower && /\bwithin\s*$/i.test(before) && /^\s*(?:to|-|–|and)\s*[$€£¥]?\s*\d/i.test(doc.text.slice(s.end, s.end + 12))) return false;
  return lower ? UPPER_BOUND.test(before) : LOWER_BOUND.test(before);
}

/** Gap in tokens between two positions, not counting link words. */
function linkGap(doc: Doc, from: number, to: number): number {
  let gap = 0;
  // prepositions half-count: "cuisine in Seattle" links less than "cuisine: Thai"
  for (let i = from + 1; i < to; i++)
    gap += !LINK_WORDS.has(doc.tokens[i].lower) ? 1 : WEAK_LINKS.has(doc.tokens[i].lower) ? WEAK_LINK_GAP : 0;
  return gap;
}

/** Is there sentence punctuation (. ; ? !) between two character offsets? */
export function clauseBreak(doc: Doc, a: number, b: number): boolean {
  // sentence-ending punctuation followed by a space
  return /[.;?!]\s|\n/.test(doc.text.slice(a, b));
}

/** Bonus for a span written right after (or before) the parameter's name. */
export function anchorBonus(p: ParamInfo, doc: Doc, s: Span, hits: { idx: number; w: number }[]): number {
  if (hits.length === 0) return 0;
  const [a, b] = tokRange(doc, s.start, s.end);
  let best = 0;
  for (const h of hits) {
    // (a name more than 12 words away anchors nothing: skipped before counting the words between,
    // which made long requests with many mentions of the name quadratic)
    if (h.idx < a - 12 || h.idx > b + 12) continue;
    if (h.idx >= a && h.idx <= b) {
      // the name is inside the span ("Premier League" for "league")
      best = Math.max(best, (s.kind === 'proper' || s.kind === 'quoted' ? A.nameInsideNameSpan.v : A.nameInsideOtherSpan.v) * h.w);
      continue;
    }
    if (h.idx < a) {
      if (clauseBreak(doc, doc.tokens[h.idx].end, s.start)) continue;
      best = Math.max(best, nameBeforeBonus(linkGap(doc, h.idx, a)) * h.w);
    } else {
      if (clauseBreak(doc, s.end, doc.tokens[h.idx].start)) continue;
      best = Math.max(best, nameAfterBonus(linkGap(doc, b, h.idx)) * h.w);
    }
  }
  return best;
}

/** Bonus of a value written after the parameter's name, by the gap between them in words (a weak link word counts WEAK_LINK_GAP). */
function nameBeforeBonus(gap: number): number {
  if (gap === 0) return A.nameRightBefore.v;
  if (gap <= WEAK_LINK_GAP) return A.nameBeforeAcrossWeakLink.v;
  if (gap <= 1) return A.nameOneWordBefore.v;
  if (gap <= 1 + WEAK_LINK_GAP) return A.nameWordAndWeakLinkBefore.v;
  if (gap <= 2) return A.nameTwoWordsBefore.v;
  if (gap <= 4) return A.nameFewWordsBefore.v;
  return 0;
}

/** Bonus of a value written before the parameter's name, by the gap between them in words. */
function nameAfterBonus(gap: number): number {
  if (gap === 0) return A.nameRightAfter.v;
  if (gap <= WEAK_LINK_GAP) return A.nameAfterAcrossWeakLink.v;
  if (gap <= 1) return A.nameOneWordAfter.v;
  if (gap <= 2) return A.nameTwoWordsAfter.v;
  return 0;
}

/** A span inside a longer proper name ("World War 2", "Blade Runner 2049", "Hall 2024"): part of a name, no value of its own. */
export function insideName(doc: Doc, start: number, end: number): boolean {
  return doc.spans.some((o) => o.kind === 'proper' && o.start <= start && o.end >= end && o.end - o.start > end - start);
}

/** Whether a parameter is the start or the end of a range (from/to, check-in/check-out, min/max). */
export function rangeRole(p: ParamInfo): 'start' | 'end' | undefined {
  const parts = p.parts;
  const j = parts.join(' ');
  // "check in" / "check out" written as separate parts
  if (/\bcheck ?in\b/.test(j)) return 'start';
  if (/\bcheck ?out\b/.test(j)) return 'end';
  if (
    parts.some((x) =>
      [
        'from',
        'start',
        'begin',
        'beginning',
        'min',
        'minimum',
        'lower',
        'low',
        'initial',
        'first',
        'since',
        'departure',
        'depart',
        'pickup',
        'origin',
        'outbound',
        'source',
        'starting',
        'earliest',
        'after',
      ].includes(x),
    )
  )
    return 'start';
  if (
    parts.some((x) =>
      [
        'to',
        'end',
        'until',
        'max',
        'maximum',
        'upper',
        'high',
        'final',
        'last',
        'return',
        'arrival',
        'dropoff',
        'destination',
        'ending',
        'latest',
        'before',
        'inbound',
        'target',
      ].includes(x),
    )
  )
    return 'end';
  return undefined;
}

/** Bonus for a value written after "from"/"to" (or "between ... and") that matches the parameter's range role. */
export function rangeBonus(p: ParamInfo, doc: Doc, s: Span): number {
  const role = rangeRole(p);
  if (!role) return 0;
  const prevTok = tokenAt(doc, s.start) - 1;
  const prevWord = prevTok >= 0 ? doc.tokens[prevTok].lower : '';
  const startWords = ['from', 'between', 'since', 'starting', 'after', 'leaving', 'departing'];
  const endWords = ['to', 'until', 'till', 'through', 'thru', 'before', 'into'];
  // "between <x> and" right before the value: the value ends a range
  const betweenAnd = prevWord === 'and' && /between\s+[^,.;]{1,40}\s+and\s*$/i.test(doc.text.slice(Math.max(0, s.start - 60), s.start));
  // a number followed by "to" and another number opens a range ("within $300,000 to $400,000")
  // (an amount of money, or of a unit the parameter is measured in: "2 to 4 bathrooms" is no budget)
  const us = unitStem(s.unit);
  const opensRange =
    s.kind === 'number' &&
    /^\s*(?:to|–|\s-)\s*[$€£¥]?\s*\d/i.test(doc.text.slice(s.end, s.end + 12)) &&
    us !== undefined &&
    (CURRENCY_UNIT_STEMS.has(us) || unitStemsOf(p).has(us));
  if (role === 'start') return startWords.includes(prevWord) || opensRange ? A.rangeWordFitsRole.v : 0;
  return endWords.includes(prevWord) || betweenAnd ? A.rangeWordFitsRole.v : 0;
}

/** A sentence that asks for something ("Can you set a reminder for 7:00 AM?", "Wake me at 6:15"), not one that tells of something else ("My meeting starts at 2 PM"). */
export const REQUEST_SENTENCE =
  /^\s*(?:(?:can|could|would|will)\s+you\b|please\b|set\b|wake\b|remind\b|schedule\b|book\b|make\s+it\b|put\s+it\b|start\b|call\b|i\s+(?:want|need|would\s+like)\s+(?:it|the\s+alarm|the\s+reminder)\b)/i;

/** The sentence (up to . ! ? or a line break) that holds an offset. */
export function sentenceOf(doc: Doc, at: number): string {
  let a = at;
  while (a > 0 && !/[.!?\n]/.test(doc.text[a - 1])) a--;
  let b = at;
  while (b < doc.text.length && !/[.!?\n]/.test(doc.text[b])) b++;
  return doc.text.slice(a, b);
}
