// The span shapes request analysis produces, and how a finder adds one.
import type { Token } from '../text.js';

/** Kinds of value spans. */
export type SpanKind = 'quoted' | 'url' | 'email' | 'path' | 'date' | 'time' | 'number' | 'list' | 'proper' | 'place' | 'id';

/** A calendar date; `y` is undefined when the text gave no year. */
export interface DateValue {
  y?: number;
  m: number;
  d: number;
  relative?: boolean;
}

/** A clock time (24-hour). */
export interface TimeValue {
  h: number;
  mi: number;
  s?: number;
}

/** One typed value found in the text. */
export interface Span {
  id: number;
  kind: SpanKind;
  start: number;
  end: number;
  /** the span's text as written (for quoted spans: without the quotes) */
  text: string;
  num?: number;
  /** unit word or symbol written after (or before, for currency) the number */
  unit?: string;
  percent?: boolean;
  /** the number was written as a word ("three") */
  word?: boolean;
  date?: DateValue;
  time?: TimeValue;
  items?: unknown[];
  /** for numbers written with digits: up to 24 characters of the text right after the number and its unit ("1 hour 30 minutes" → " 30 minutes") */
  after?: string;
  /** for places: the state or country part after the comma, when written */
  region?: string;
  /** for places: the city part */
  city?: string;
  /** for places: [country name, ISO code] of a known city outside the US */
  country?: [string, string];
  /** for places: a street address */
  address?: boolean;
  /** for places: the airport code the place was written as ("LAX") */
  airport?: string;
}

/** A request analysed once and shared by every candidate tool. */
export interface Doc {
  text: string;
  lower: string;
  tokens: Token[];
  spans: Span[];
  /** the reference "today" for relative dates */
  today: Date;
}

/** Most spans extraction collects from one text, before MAX_SPANS keeps the first of them. */
const EXTRACT_MAX = 600;

/** Adds a span unless an identical one exists. */
export function push(spans: Span[], s: Omit<Span, 'id'>): Span {
  // past EXTRACT_MAX spans the rest of a (hostile) text is not extracted: every extractor checks
  // new matches against the spans found so far, so the work stays bounded
  if (spans.length >= EXTRACT_MAX) return { ...s, id: -1, start: -1, end: -1 } as Span;
  const dup = spans.find((x) => x.kind === s.kind && x.start === s.start && x.end === s.end);
  if (dup) return dup;
  // (every caller passes a literal of its own: it becomes the span, with no copy)
  const span = s as Span;
  span.id = spans.length;
  spans.push(span);
  return span;
}

/** True when [a,b) overlaps any span of the given kinds. */
export function overlaps(spans: Span[], a: number, b: number, kinds: SpanKind[]): boolean {
  // (once extraction is full nothing more is added: callers may stop checking)
  if (spans.length >= EXTRACT_MAX) return true;
  return spans.some((s) => kinds.includes(s.kind) && s.start < b && a < s.end);
}
