/**
 * Finds typed value spans in free text: quoted spans, URLs, e-mail addresses, paths, dates,
 * times, numbers (with units, currency, percent, number words), list literals, proper names,
 * places and identifiers. The argument mapper then assigns spans to schema parameters.
 * Each kind's finder is a module of extract/ (dates and times, numbers and lists, literals, names,
 * places); their word tables are data/*.ts. This entry runs them in order and reconciles overlaps.
 */
import { tokenize } from './text.js';
import { findTodayAnchor, findDates, fillYears, findLaterDates, shiftOffsetDates, findTimes } from './extract/dates.js';
import { findQuoted, findAddresses, findIds, findAddresses2 } from './extract/literals.js';
import { findProperNames } from './extract/names.js';
import { findNumbers, findLists } from './extract/numbers.js';
import { findPlaces } from './extract/places.js';
import type { Span, Doc } from './extract/spans.js';
export type { SpanKind, DateValue, TimeValue, Span, Doc } from './extract/spans.js';
export { parseListLiteral, NUMBER_AND_UNIT } from './extract/numbers.js';

/**
 * Most spans one request keeps (the first in reading order). Real requests hold far fewer: of the
 * 1,475 dev requests 99% hold at most 28 and all but one at most 72 (that one is 18,686 characters
 * long). The cap bounds the mapper's work, which compares spans pairwise for each parameter.
 */
export const MAX_SPANS = 160;

/** Analyses a request (plus context text) once: tokens and all typed spans. */
export function analyze(text: string, now?: Date): Doc {
  const anchor = findTodayAnchor(text);
  const base = anchor?.date ?? now ?? new Date();
  const today = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate()));
  const spans: Span[] = [];
  const tokens = tokenize(text);
  findQuoted(text, spans);
  findAddresses(text, spans);
  findDates(text, spans, today, anchor !== undefined);
  // the anchor's own date is context, not a value
  if (anchor) for (const x of spans) if (x.kind === 'date' && x.start >= anchor.start && x.end <= anchor.end) x.start = x.end = -1;
  fillYears(spans, today, text);
  findLaterDates(text, spans);
  shiftOffsetDates(text, spans, today);
  findTimes(text, spans);
  findLists(text, spans);
  findNumbers(text, spans);
  findIds(text, spans);
  findProperNames(text, tokens, spans);
  findPlaces(text, spans);
  findAddresses2(text, spans);
  // month names are dates, not names ("December 2022")
  for (const s of spans)
    if (s.kind === 'proper' && spans.some((o) => o.kind === 'date' && o.start < s.end && s.start < o.end)) s.start = s.end = -1;
  // a name or place inside an e-mail address or URL is part of it ("JohnDoe" in "JohnDoe@example.com")
  for (const s of spans) {
    if (s.kind !== 'proper' && s.kind !== 'place') continue;
    if (spans.some((o) => (o.kind === 'email' || o.kind === 'url') && o.start <= s.start && o.end >= s.end)) s.start = s.end = -1;
  }
  // a place inside a longer place ("New York" in "New York City") is dropped
  for (const s of spans) {
    if (s.kind !== 'place') continue;
    // (a city inside a street address stays: a city parameter still wants it)
    if (
      spans.some(
        (o) => o !== s && o.kind === 'place' && !o.address && o.start <= s.start && o.end >= s.end && o.end - o.start > s.end - s.start,
      )
    )
      s.start = s.end = -1;
  }
  let live = spans.filter((s) => s.start >= 0);
  // a hostile or pasted request can hold thousands of spans, and the mapper compares spans with
  // each other per parameter: past MAX_SPANS only the spans that start first are kept
  if (live.length > MAX_SPANS) {
    const cutoff = live.map((s) => s.start).sort((a, b) => a - b)[MAX_SPANS - 1];
    live = live.filter((s) => s.start <= cutoff).slice(0, MAX_SPANS);
  }
  live.forEach((s, i) => (s.id = i));
  return { text, lower: text.toLowerCase(), tokens, spans: live, today };
}

/** Index of the first token at or after a character offset. */
export function tokenAt(doc: Doc, offset: number): number {
  let lo = 0;
  let hi = doc.tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (doc.tokens[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
