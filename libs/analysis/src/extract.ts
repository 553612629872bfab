/**
 * Finds typed value spans in free text: quoted spans, URLs, e-mail addresses, paths, dates,
 * times, numbers (with units, currency, percent, number words), list literals, proper names,
 * places and identifiers. The argument mapper then assigns spans to schema parameters.
 */
import { tokenize, editDistance, letterDigitRuns, type Token } from './text.js';
import {
  MONTHS,
  WEEKDAYS,
  NUMBER_WORDS,
  MULTIPLIERS,
  LEADING_WORDS,
  US_CITIES,
  CITY_NICKNAMES,
  US_STATE_CODES,
  US_STATES,
  WORLD_CITIES,
  WORLD_COUNTRY_NAMES,
  lookupTable,
} from './lexicon.js';
import { US_PLACES } from './us-places.js';

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
  /** for numbers: the hemisphere letter written after a coordinate ("112.07 W") */
  hemi?: 'N' | 'S' | 'E' | 'W';
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
function push(spans: Span[], s: Omit<Span, 'id'>): Span {
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
function overlaps(spans: Span[], a: number, b: number, kinds: SpanKind[]): boolean {
  // (once extraction is full nothing more is added: callers may stop checking)
  if (spans.length >= EXTRACT_MAX) return true;
  return spans.some((s) => kinds.includes(s.kind) && s.start < b && a < s.end);
}

/** Days in a month (1-based month). */
function daysIn(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Validates a date. */
function validDate(y: number | undefined, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= (y === undefined ? 31 : daysIn(y, m));
}

/** Two-digit years become 20xx. */
function fullYear(y: string): number {
  const n = Number(y);
  return y.length <= 2 ? 2000 + n : n;
}

/** Month pattern source (names and abbreviations). */
const MONTH_RE =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';

/** The "today is <date>" anchor a request may give: the date and where it is written. */
interface TodayAnchor {
  date: Date;
  start: number;
  end: number;
}

/** "today is March 3rd, 2023" / "today is Tuesday, March 3, 2023" (findTodayAnchor; case-insensitive). */
const TODAY_MONTH_DAY_YEAR = new RegExp(
  `today(?:'s date)?\\s*(?:is|:)?\\s*(?:\\w+day,?\\s*)?${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})`,
  'i',
);

/** Finds the "today is <date>" anchor a request may give. */
function findTodayAnchor(text: string): TodayAnchor | undefined {
  // "today is 2023.10.10", "today's date is 2023-10-10", "current date: 2023/10/10" (year first; weekday allowed around it)
  const m =
    /(?:today(?:'s date)?|current date|the date)\s*(?:is|:|=)?\s*(?:\w+day,?\s*)?(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:\s*,?\s*\w+day\b)?/i.exec(
      text,
    );
  if (m && validDate(Number(m[1]), Number(m[2]), Number(m[3])))
    return { date: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), start: m.index, end: m.index + m[0].length };
  // "today is March 3rd, 2023" / "today is Tuesday, March 3, 2023"
  const n = TODAY_MONTH_DAY_YEAR.exec(text);
  if (n) {
    const mo = MONTHS[n[1].toLowerCase()];
    if (mo && validDate(Number(n[3]), mo, Number(n[2])))
      return { date: new Date(Date.UTC(Number(n[3]), mo - 1, Number(n[2]))), start: n.index, end: n.index + n[0].length };
  }
  // "today is 10/10/2023" (US order)
  const u = /today(?:'s date)?\s*(?:is|:)?\s*(?:\w+day,?\s*)?(\d{1,2})\/(\d{1,2})\/(\d{4})/i.exec(text);
  if (u && validDate(Number(u[3]), Number(u[1]), Number(u[2])))
    return { date: new Date(Date.UTC(Number(u[3]), Number(u[1]) - 1, Number(u[2]))), start: u.index, end: u.index + u[0].length };
  return undefined;
}

/** Adds days to a UTC date. */
function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * 86_400_000);
}

/** A UTC Date -> DateValue. */
function toDateValue(d: Date, relative = true): DateValue {
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), relative };
}

// findDates' month-name patterns, built once rather than a call (per call, the template and its
// compile cache lookup are about a tenth of a request's analysis): "March 3rd, 2024", "3rd of March
// 2024", "2023 April 15th".
// (global: each findDates call sets their lastIndex to 0 and reads them to the end; no call nests)
const MONTH_DAY_RE = new RegExp(`\\b${MONTH_RE}(?:\\.\\s*|\\s+)(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s*(\\d{4})\\b)?`, 'gi');
const DAY_MONTH_RE = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b\\.?(?:,?\\s*(\\d{4})\\b)?`, 'gi');
const YEAR_MONTH_DAY_RE = new RegExp(`\\b(\\d{4})\\s+${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'gi');

/** Extracts dates (absolute and relative) into spans. */
function findDates(text: string, spans: Span[], today: Date, anchored: boolean): void {
  let m: RegExpExecArray | null;
  // ISO-like year-first dates: 2024-03-03, 2023.10.1, 2023/04/05
  const iso = /(?<![\d.])(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?![\d])/g;
  while ((m = iso.exec(text)) !== null) {
    const y = Number(m[1]),
      mo = Number(m[2]),
      d = Number(m[3]);
    if (validDate(y, mo, d)) push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d } });
  }
  // numeric dates with the year last: 05/15/2023, 15.05.2023, 3-14-2023 (US order unless the first part > 12)
  const us = /(?<![\d./-])(\d{1,2})([-./])(\d{1,2})\2(\d{4}|\d{2})(?![\d])/g;
  while ((m = us.exec(text)) !== null) {
    let mo = Number(m[1]),
      d = Number(m[3]);
    const y = fullYear(m[4]);
    if (mo > 12 && d <= 12) [mo, d] = [d, mo];
    if (validDate(y, mo, d) && !overlaps(spans, m.index, m.index + m[0].length, ['date']))
      push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d } });
  }
  // "March 3rd, 2024", "Mar. 3 2024", "April the 5th", "March 3"
  const md = MONTH_DAY_RE;
  md.lastIndex = 0;
  while ((m = md.exec(text)) !== null) {
    const mo = MONTHS[m[1].toLowerCase()];
    const d = Number(m[2]);
    const y = m[3] ? Number(m[3]) : undefined;
    // "may" is a month only right before a day number ("May 5th"), not the verb
    if (m[1].toLowerCase() === 'may' && !/^may\s+\d{1,2}(st|nd|rd|th)?\b/i.test(m[0])) continue;
    // a month's dot glued to its day ("Jun.20,2023") only in a run of text that is no web
    // address, path or file name ("…/mar.14/db.sql", "db-dec.31.sql")
    if (
      /\.\d/.test(m[0]) &&
      (/[\w./@\\#-]$/.test(text.slice(0, m.index)) ||
        /[/@\\]/.test(text.slice(text.lastIndexOf(' ', m.index) + 1, m.index)) ||
        /^[./@\\]\w/.test(text.slice(m.index + m[0].length)))
    )
      continue;
    if (validDate(y, mo, d) && !overlaps(spans, m.index, m.index + m[0].length, ['date']))
      push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d } });
  }
  // "3rd of March 2024", "the 4th of July", "15 May, 2022", "12th March"
  const dm = DAY_MONTH_RE;
  dm.lastIndex = 0;
  while ((m = dm.exec(text)) !== null) {
    const mo = MONTHS[m[2].toLowerCase()];
    const d = Number(m[1]);
    const y = m[3] ? Number(m[3]) : undefined;
    if (validDate(y, mo, d) && !overlaps(spans, m.index, m.index + m[0].length, ['date']))
      push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d } });
  }
  // "2023 April 15th" (year, month name, day)
  const ymd = YEAR_MONTH_DAY_RE;
  ymd.lastIndex = 0;
  while ((m = ymd.exec(text)) !== null) {
    const mo = MONTHS[m[2].toLowerCase()];
    const y = Number(m[1]),
      d = Number(m[3]);
    if (validDate(y, mo, d)) {
      // replaces a shorter month-day span inside it
      for (const s of spans) if (s.kind === 'date' && s.start >= m.index && s.end <= m.index + m[0].length) s.start = s.end = -1;
      push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d } });
    }
  }
  // relative words: today, tonight, tomorrow, day after tomorrow, yesterday
  const rel = /\b(the day after tomorrow|day after tomorrow|tomorrow|today|tonight|yesterday)\b/gi;
  while ((m = rel.exec(text)) !== null) {
    const w = m[1].toLowerCase();
    // skip the anchor phrase itself ("today is 2023-10-10")
    if (w === 'today' && /^today(?:'s date)?\s*(?:is|:)\s*\S*\d/i.test(text.slice(m.index))) continue;
    const off = w.includes('after') ? 2 : w === 'tomorrow' ? 1 : w === 'yesterday' ? -1 : 0;
    if (!overlaps(spans, m.index, m.index + m[0].length, ['date']))
      push(spans, {
        kind: 'date',
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
        date: { ...toDateValue(addDays(today, off)), relative: !anchored },
      });
  }
  // weekdays: "next Friday", "this Saturday", "Tuesday next week", "on Monday"
  const wd =
    /\b(?:(next|this|coming|upcoming|following)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(\s+(?:of\s+)?next\s+week)?\b/gi;
  while ((m = wd.exec(text)) !== null) {
    if (overlaps(spans, m.index, m.index + m[0].length, ['date'])) continue;
    // the weekday named in the anchor ("today is tuesday 2023.10.10") is not a request date
    if (/today\s+is\s*$/i.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    const target = WEEKDAYS[m[2].toLowerCase()];
    const cur = today.getUTCDay();
    let delta = (target - cur + 7) % 7;
    if (delta === 0) delta = 7;
    if (m[3]) {
      // "<weekday> next week": the weekday in the calendar week after this one (weeks start Monday)
      const mondayThis = addDays(today, -((cur + 6) % 7));
      const d = addDays(mondayThis, 7 + ((target + 6) % 7));
      push(spans, {
        kind: 'date',
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
        date: { ...toDateValue(d), relative: !anchored },
      });
      continue;
    }
    push(spans, {
      kind: 'date',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      date: { ...toDateValue(addDays(today, delta)), relative: !anchored },
    });
  }
  // "until the 12th", "on the 3rd" (a day of this month, or the next one if it has passed)
  const dayOnly =
    /\bthe\s+(\d{1,2})(st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:century|floor|place|time|edition|anniversary|grade|day|week|month|year|row|seat|round|percentile|item|one))/gi;
  while ((m = dayOnly.exec(text)) !== null) {
    if (overlaps(spans, m.index, m.index + m[0].length, ['date'])) continue;
    const d = Number(m[1]);
    let y = today.getUTCFullYear();
    let mo = today.getUTCMonth() + 1;
    if (d < today.getUTCDate()) {
      mo += 1;
      if (mo > 12) {
        mo = 1;
        y += 1;
      }
    }
    if (validDate(y, mo, d))
      push(spans, { kind: 'date', start: m.index, end: m.index + m[0].length, text: m[0], date: { y, m: mo, d, relative: !anchored } });
  }
  // "in 3 days", "3 days from now"
  const inDays = /\b(?:in\s+(\d{1,2})\s+days?|(\d{1,2})\s+days?\s+from\s+(?:now|today))\b/gi;
  while ((m = inDays.exec(text)) !== null) {
    const n = Number(m[1] ?? m[2]);
    push(spans, {
      kind: 'date',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      date: { ...toDateValue(addDays(today, n)), relative: !anchored },
    });
  }
}

/** Dates written without a year take the year of another date in the same text, else the reference year. */
function fillYears(spans: Span[], today: Date, text: string): void {
  const withYear = spans.filter((s) => s.kind === 'date' && s.date?.y !== undefined && !s.date.relative && s.start >= 0);
  for (const s of spans) {
    if (s.kind !== 'date' || !s.date || s.date.y !== undefined) continue;
    // "April 13th of next year", "on May 2 next year": the year after today's
    if (/^\s*(?:of\s+)?next\s+year\b/i.test(text.slice(s.end, s.end + 16))) {
      s.date.y = today.getUTCFullYear() + 1;
      continue;
    }
    const near = withYear.sort((a, b) => Math.abs(a.start - s.start) - Math.abs(b.start - s.start))[0];
    if (near?.date?.y !== undefined) s.date.y = near.date.y;
  }
}

/**
 * A date written relative to the date before it: "depart on the 12th of March 2023 and return a
 * week later" → 2023-03-19; "N days later", "two weeks later". Only after a full date (year,
 * month and day) in the same request.
 */
function findLaterDates(text: string, spans: Span[]): void {
  // ("the next day", "the day after …" name days of other things: "flying home the following day",
  // "the day after Christmas")
  const re = /\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(day|days|week|weeks)\s+later\b/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const before = spans
      .filter((x) => x.kind === 'date' && x.end <= m!.index && x.date?.y !== undefined && !x.date.relative)
      .sort((a, b) => b.end - a.end)[0];
    if (!before?.date?.y) continue;
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : ['a', 'an'].includes(m[1].toLowerCase()) ? 1 : (NUMBER_WORDS[m[1].toLowerCase()] ?? 1);
    const days = /^week/i.test(m[2]) ? n * 7 : n;
    const d = new Date(Date.UTC(before.date.y, before.date.m - 1, before.date.d + days));
    push(spans, {
      kind: 'date',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      date: { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() },
    });
  }
}

/**
 * A date written as an offset from another: "the day after June 5" is June 6, "two days before
 * 2024-03-10" March 8, "a week after May 1st" May 8. The offset words join the date's span and
 * shift its value; a date without a year is shifted in the reference year, and keeps no year
 * unless the shift crosses into another one.
 */
function shiftOffsetDates(text: string, spans: Span[], today: Date): void {
  for (const s of spans) {
    if (s.kind !== 'date' || s.start < 0 || !s.date || s.date.relative) continue;
    const m =
      /\b(?:the\s+)?(?:(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+)?(day|days|week|weeks)\s+(after|before)\s+(?:the\s+)?$/i.exec(
        text.slice(Math.max(0, s.start - 40), s.start),
      );
    if (!m) continue;
    // "the day after" is one day; a count needs its unit in the plural or "a"/"one"
    const count =
      m[1] === undefined
        ? 1
        : /^\d+$/.test(m[1])
          ? Number(m[1])
          : ['a', 'an'].includes(m[1].toLowerCase())
            ? 1
            : (NUMBER_WORDS[m[1].toLowerCase()] ?? 1);
    const days = (/^week/i.test(m[2]) ? 7 * count : count) * (m[3].toLowerCase() === 'after' ? 1 : -1);
    const y = s.date.y ?? today.getUTCFullYear();
    const d = new Date(Date.UTC(y, s.date.m - 1, s.date.d + days));
    s.date = {
      ...s.date,
      y: s.date.y !== undefined || d.getUTCFullYear() !== y ? d.getUTCFullYear() : undefined,
      m: d.getUTCMonth() + 1,
      d: d.getUTCDate(),
    };
    const start = s.start - m[0].length;
    s.text = text.slice(start, s.end);
    s.start = start;
  }
}

/** Extracts clock times into spans. */
function findTimes(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // "10:30", "10:30:15", "2:30 PM", "9:00 a.m."
  const hm = /(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s?m\b\.?)?/gi;
  while ((m = hm.exec(text)) !== null) {
    let h = Number(m[1]);
    const mi = Number(m[2]);
    const ap = m[4]?.toLowerCase();
    if (ap === 'p' && h < 12) h += 12;
    if (ap === 'a' && h === 12) h = 0;
    if (h < 24 && mi < 60)
      push(spans, {
        kind: 'time',
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
        time: { h, mi, s: m[3] ? Number(m[3]) : undefined },
      });
  }
  // "5 pm", "5pm", "11 a.m."
  const hap = /(?<![\d:.])(\d{1,2})\s*([ap])\.?\s?m\b\.?/gi;
  while ((m = hap.exec(text)) !== null) {
    let h = Number(m[1]);
    if (h > 12) continue;
    if (m[2].toLowerCase() === 'p' && h < 12) h += 12;
    if (m[2].toLowerCase() === 'a' && h === 12) h = 0;
    if (!overlaps(spans, m.index, m.index + m[0].length, ['time']))
      push(spans, { kind: 'time', start: m.index, end: m.index + m[0].length, text: m[0], time: { h, mi: 0 } });
  }
  // "11.00 a.m." (dot separator, needs am/pm)
  const dot = /(?<![\d.])(\d{1,2})\.(\d{2})\s*([ap])\.?\s?m\b\.?/gi;
  while ((m = dot.exec(text)) !== null) {
    let h = Number(m[1]);
    if (m[3].toLowerCase() === 'p' && h < 12) h += 12;
    if (h < 24 && Number(m[2]) < 60 && !overlaps(spans, m.index, m.index + m[0].length, ['time']))
      push(spans, { kind: 'time', start: m.index, end: m.index + m[0].length, text: m[0], time: { h, mi: Number(m[2]) } });
  }
  // "3 in the afternoon", "at 5 in the evening", "8 o'clock in the morning", "9 at night"
  const part = /\b(\d{1,2})(?::(\d{2}))?\s*(?:o'clock\s*)?(?:in the (morning|afternoon|evening)|at night|tonight)/gi;
  while ((m = part.exec(text)) !== null) {
    let h = Number(m[1]);
    const mi = m[2] ? Number(m[2]) : 0;
    if (h > 12) continue;
    if ((m[3] === undefined || m[3].toLowerCase() !== 'morning') && h < 12) h += 12;
    if (!overlaps(spans, m.index, m.index + m[0].length, ['time']))
      push(spans, { kind: 'time', start: m.index, end: m.index + m[0].length, text: m[0], time: { h, mi } });
  }
  // "noon", "midnight"
  const named = /\b(noon|midday|midnight)\b/gi;
  const clocks = spans.filter((x) => x.kind === 'time');
  while ((m = named.exec(text)) !== null) {
    const end = m.index + m[0].length;
    // a clock time written right after names the same time ("the midnight show at 23:00"); not
    // across "to"/"until"/"and"/"-" ("from midday to 3pm" is a range)
    if (
      clocks.some((c) => c.start >= end && c.start - end <= 16 && !/\b(to|until|till|and|through)\b|[-–]/i.test(text.slice(end, c.start)))
    )
      continue;
    push(spans, { kind: 'time', start: m.index, end, text: m[0], time: { h: m[1].toLowerCase() === 'midnight' ? 0 : 12, mi: 0 } });
  }
}

/**
 * findNumbers' number-word pattern ("three", "twenty five", "twenty-five", "two hundred"):
 * NUMBER_WORDS but for the words read apart or not as a count. Built once (global: each
 * findNumbers call sets its lastIndex to 0 and reads it to the end).
 */
const NUMBER_WORDS_RE = new RegExp(
  `\\b(${Object.keys(NUMBER_WORDS)
    .filter((w) => !['once', 'twice', 'thrice', 'single', 'alone', 'solo', 'couple', 'pair', 'dozen', 'hundred'].includes(w))
    .join('|')})(?:[-\\s](one|two|three|four|five|six|seven|eight|nine))?\\b(?:\\s+(hundred|thousand|million))?`,
  'gi',
);

/** Extracts numbers (digits with sign, separators, currency, multipliers, units; number words). */
function findNumbers(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // optional sign, optional currency symbol, digits with thousands separators and decimals,
  // optional multiplier word or percent sign; not glued to letters/digits before it
  const num =
    /(?<![\p{L}\d._])([-+−]?)\s?([$€£¥])?\s?(\d{1,3}(?:,\d{3})+(?![\d])|\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?!\d)(?:\s?(%|percent\b|per cent\b))?/gu;
  while ((m = num.exec(text)) !== null) {
    const start = m.index;
    let end = m.index + m[0].length;
    // a sign right after a letter/digit is a hyphen ("2022-2023", "ef903ac-893"), not a minus
    let sign = m[1];
    if (sign && start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1])) sign = '';
    // thousands separators removed
    const intPart = m[3].replace(/,/g, '');
    let value = Number(`${intPart}${m[4] ? `.${m[4]}` : ''}${m[5] ? `e${m[5]}` : ''}`);
    if (sign === '-' || sign === '−') value = -value;
    // where the value is written, after any leading space the match took
    const valueAt = start + (m[0].length - m[0].trimStart().length);
    // a sign written as a word: "negative 25", and "minus 25" where no number (with at most a unit)
    // comes right before it ("the sum of 17 and minus 25", "longitude minus 74.0", "multiply 6 by
    // minus 3"; in "100 minus 40" and "100 kg minus 40" the word is the operation); only where a
    // measure, not a count of things, follows ("negative 5 degrees", not "the negative 5 reviews")
    if (!sign) {
      const before = text.slice(Math.max(0, valueAt - 40), valueAt);
      const signed = /\bnegative\s+$/i.test(before) || (/\bminus\s+$/i.test(before) && !OPERATOR_MINUS.test(before));
      if (signed && SIGNED_AFTER.test(text.slice(end, end + 24))) value = -value;
    }
    // an exponent of a unit or a variable ("9.8 m/s^2", "3x**2") is no value of its own; a number's
    // power ("2^10", "3**4") and Markdown bold ("**4** people") are
    if (
      (text[valueAt - 1] === '^' && /[\p{L})]/u.test(text[valueAt - 2] ?? '')) ||
      (text.slice(valueAt - 2, valueAt) === '**' && /[\p{L})]/u.test(text[valueAt - 3] ?? ''))
    )
      continue;
    const after = text.slice(end);
    // identifiers: digits followed by letters+digits or underscores are not numbers ("123abc4", "v2_x")
    if (/^[\p{L}_]*\d/u.test(after) || /^_/.test(after)) continue;
    // a number inside a dotted identifier or version ("1.2.3", "192.168.0.1")
    if (/^\.\d/.test(after)) continue;
    let unit: string | undefined;
    let percent = false;
    if (m[6]) percent = true;
    // multiplier word after the number: "1.5 million", "20k"
    const mult = /^\s?(thousand|million|billion|trillion|k|bn|mn)\b/i.exec(after);
    // "298K" / "300 K" after a plain number is kelvin; "20k" / "$20K" is thousands
    const kelvin = mult !== null && mult[1] === 'K' && !m[2];
    if (mult && !percent && !kelvin) {
      value *= MULTIPLIERS[mult[1].toLowerCase()] ?? 1;
      end += mult[0].length;
    }
    // a coordinate with its hemisphere ("112.0740 W", "33.86° S"): west and south are negative
    // (only a decimal within ±180 before a capital N/S/E/W that ends the value)
    const hemi =
      m[4] && m[4].length >= 2 && Math.abs(value) <= 180 && !sign ? /^\s?°?\s?([NSEW])(?![\p{L}\d])/u.exec(text.slice(end)) : null;
    if (hemi) {
      if (hemi[1] === 'W' || hemi[1] === 'S') value = -value;
      end += hemi[0].length;
    }
    // unit word right after: "5 km", "180cm", "3.5 kg", "10 years", "x^2"
    const u = hemi ? null : /^[\s-]?(°\s?[CF]|°|[\p{L}]+(?:\^\d)?)/u.exec(text.slice(end));
    if (u && !percent) unit = u[1].toLowerCase();
    const cur = m[2];
    const unitEnd = u && !percent ? end + u[0].length : end;
    push(spans, {
      after: text.slice(unitEnd, unitEnd + 24),
      kind: 'number',
      start: sign ? start : valueAt,
      end,
      text: text.slice(start, end).trim(),
      num: value,
      unit: cur ? cur : unit,
      percent,
      hemi: hemi ? (hemi[1] as 'N' | 'S' | 'E' | 'W') : undefined,
    });
  }
  // number words: "three", "twenty five", "twenty-five"
  const wre = NUMBER_WORDS_RE;
  wre.lastIndex = 0;
  while ((m = wre.exec(text)) !== null) {
    let v = NUMBER_WORDS[m[1].toLowerCase()];
    if (m[2] && v >= 20 && v % 10 === 0) v += NUMBER_WORDS[m[2].toLowerCase()];
    else if (m[2]) continue;
    if (m[3]) v *= MULTIPLIERS[m[3].toLowerCase()];
    // "one" is usually a pronoun ("the one with", "one of"): keep only before a noun-like word
    if (m[1].toLowerCase() === 'one' && /^\s+(of|with|that|which|who|more|another|day)\b/i.test(text.slice(m.index + m[0].length)))
      continue;
    const u = /^[\s-]?([\p{L}]+)/u.exec(text.slice(m.index + m[0].length));
    push(spans, {
      kind: 'number',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      num: v,
      word: true,
      unit: u ? u[1].toLowerCase() : undefined,
    });
  }
  // "a dozen", "a couple of", "a pair of", "alone"/"solo" (one person)
  const special = /\b(?:an?\s+)?(dozen|couple|pair)\b|\b(alone|solo|myself)\b/gi;
  while ((m = special.exec(text)) !== null) {
    const w = (m[1] ?? m[2]).toLowerCase();
    push(spans, {
      kind: 'number',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      num: w === 'myself' ? 1 : NUMBER_WORDS[w],
      word: true,
    });
  }
}

/** Extracts bracketed list literals: [1, 2, 3], ['a', 'b'], (3, 4). */
function findLists(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // a bracketed list whose items contain no further brackets except one nesting level
  const re = /\[(?:[^[\]]|\[[^[\]]*\])*\]|\((?:\s*-?\d+(?:\.\d+)?\s*,)+\s*-?\d+(?:\.\d+)?\s*\)/g;
  while ((m = re.exec(text)) !== null) {
    const raw = m[0];
    const items = parseListLiteral(raw);
    if (items) push(spans, { kind: 'list', start: m.index, end: m.index + raw.length, text: raw, items });
  }
}

/** Parses a bracketed list literal (JSON, Python-style quotes, or bare words); undefined if it is not one. */
export function parseListLiteral(raw: string): unknown[] | undefined {
  let src = raw.trim();
  // tuples "(3, 4)" read as lists
  if (src.startsWith('(')) src = `[${src.slice(1, -1)}]`;
  try {
    const v = JSON.parse(src) as unknown;
    if (Array.isArray(v)) return v;
  } catch {
    /* not JSON */
  }
  try {
    // Python-style single quotes and True/False/None
    const py = src
      .replace(/'([^']*)'/g, (_s, g: string) => JSON.stringify(g))
      .replace(/\bTrue\b/g, 'true')
      .replace(/\bFalse\b/g, 'false')
      .replace(/\bNone\b/g, 'null');
    const v = JSON.parse(py) as unknown;
    if (Array.isArray(v)) return v;
  } catch {
    /* not Python-ish */
  }
  // bare items: [a, b, c]
  const inner = src.slice(1, -1).trim();
  if (inner === '' || /[[\]{}]/.test(inner)) return undefined;
  // items that are plain (signed, decimal) numbers become numbers
  return inner
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s));
}

/** Extracts quoted spans: "x", 'x', “x”, ‘x’, `x`. */
function findQuoted(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  // double quotes, curly double quotes, backticks (any content up to the closing mark)
  const dq = /"([^"\n]{1,400})"|“([^”\n]{1,400})”|`([^`\n]{1,400})`/g;
  while ((m = dq.exec(text)) !== null) {
    const inner = m[1] ?? m[2] ?? m[3];
    if (inner.trim() !== '') push(spans, { kind: 'quoted', start: m.index + 1, end: m.index + m[0].length - 1, text: inner });
  }
  // Markdown bold ("**Logistic regression is not present in the text.**"): a value set apart as quotes set it
  // (between spaces or punctuation, of three words or more and no label: "2**10 + 3**2" is a power,
  // "**urgent**" and "**Important:**" are emphasis)
  const bold = /(?:(?<=\\n)|(?<![\w*]))\*\*(?=\S)([^*\n]{1,400}?)(?<=\S)\*\*(?![\w*])/g;
  while ((m = bold.exec(text)) !== null) {
    const inner = m[1];
    // (the pattern keeps spaces off both ends of `inner`)
    if (inner.split(/\s+/).length >= 3 && !inner.endsWith(':') && !overlaps(spans, m.index + 2, m.index + m[0].length - 2, ['quoted']))
      push(spans, { kind: 'quoted', start: m.index + 2, end: m.index + m[0].length - 2, text: inner });
  }
  // a labelled block after a colon and a line break ("here is the answer to the question:\n\nThe
  // text does not define it."), the break written as a newline or as the two characters "\n"
  const block =
    /\b(?:answer|response|reply|message|text|content|note|summary)\b[^:\n]{0,40}:\s*(?:\n|\\n)+\s*([^\n\\*][^\n]{0,400}?)\s*$/i.exec(text);
  if (block && !/^\p{L}[\p{L} _-]{0,20}:/u.test(block[1]) && !overlaps(spans, text.length - block[0].length, text.length, ['quoted'])) {
    const start = block.index + block[0].length - block[1].length - (block[0].length - block[0].trimEnd().length);
    push(spans, { kind: 'quoted', start, end: start + block[1].length, text: block[1] });
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
function findAddresses(text: string, spans: Span[]): void {
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
function findIds(text: string, spans: Span[]): void {
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

/** A number, or a number and its unit, as a regular-expression source ("100 ", "100 kg ", "5% "): what "minus" after it subtracts from (libs/search/src/tool-features.ts reads the same). */
export const NUMBER_AND_UNIT = String.raw`\d[\d.,]*\s*(?:[%°]\s*|(?:kg|g|lbs?|pounds?|km|m|miles?|meters?|metres?|feet|ft|degrees?|dollars?|euros?|points?|percent|hours?|minutes?|seconds?|days?|weeks?|months?|years?)\s+)?`;

/** "minus" written right after a number, or a number and its unit: the operation, not a sign ("100 minus 40", "100 kg minus 40", "5% minus 2"). */
const OPERATOR_MINUS = new RegExp(`${NUMBER_AND_UNIT}minus\\s+$`, 'i');

/** What may follow a number signed by a word: the end, punctuation, a joining word, or a unit of measure ("minus 5 degrees", "negative 25?"), not a counted thing ("negative 5 reviews"). */
const SIGNED_AFTER =
  /^(?:\s*$|\s*[.,;:!?)\]}]|\s+(?:and|or|to|for|in|on|at|with|then|plus|minus|times|degrees?|°|celsius|fahrenheit|kelvin|percent|%|points?|dollars?|euros?|meters?|metres?|km|kilometers?|miles?|feet|ft|kg|grams?|lbs?|pounds?|hours?|minutes?|seconds?|days?)\b|\s*[°%])/i;

/** Is the token capitalised (or an all-caps acronym / a number inside a name)? */
function isCap(t: Token): boolean {
  // starts with an upper-case letter
  return /^\p{Lu}/u.test(t.text);
}

/** Roles written before a person's name (not honorifics: "Mr. X" keeps its "Mr."; not "Lady", "Lord", "Sir": "Lady Gaga" is a name). */
const TITLE_WORDS = new Set([
  'doctor',
  'prof',
  'professor',
  'lawyer',
  'attorney',
  'judge',
  'senator',
  'president',
  'coach',
  'captain',
  'officer',
  'agent',
  'detective',
  'sergeant',
  'director',
  'manager',
  'dean',
  'mayor',
  'governor',
  'rev',
  'reverend',
]);

/** Abbreviations written with a period inside a name ("St. Louis", "Dr. Patel", "Sault Ste. Marie", "Gen. Pershing Street"). */
const NAME_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'St',
  'Ste',
  'Dr',
  'Mr',
  'Mrs',
  'Ms',
  'Mt',
  'Ft',
  'Pt',
  'Jr',
  'Sr',
  'Gen',
  'Lt',
  'Col',
  'Sgt',
  'Capt',
  'Prof',
  'Rev',
  'Hon',
  'Sen',
  'Gov',
  'Rep',
]);

/** Small words allowed inside a proper name ("Statue of Liberty", "Lord of the Rings"). */
const NAME_JOINERS = new Set(['of', 'the', 'de', 'da', 'del', 'la', 'le', 'van', 'von', '&', 'du', 'di', 'y']);

/** What may follow a name's "'s" when it owns nothing: the end, punctuation, or a preposition or conjunction. */
const STANDALONE_POSSESSIVE = /^(?:\s*$|\s*[.,;:!?)]|\s+(?:on|in|at|for|with|and|or|to|from|near|by|via|using|through|please)\b)/i;

/** Extracts runs of capitalised words (names, titles, places). */
function findProperNames(text: string, tokens: Token[], spans: Span[]): void {
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
function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

let KNOWN_CITIES: [key: string, city: string, first: string][] | undefined;
/**
 * The city names findPlaces looks for, in its order (US cities, nicknames, the other world
 * cities), each with its written form and its first word (its leading run of letters and digits;
 * '' when it starts with neither). Built once: rebuilding it would take half of each request's analysis.
 */
function knownCities(): [key: string, city: string, first: string][] {
  KNOWN_CITIES ??= [
    ...[...US_CITIES.keys()].map((c): [string, string] => [c, titleCase(c)]),
    ...Object.entries(CITY_NICKNAMES),
    ...[...WORLD_CITIES.keys()].filter((c) => !US_CITIES.has(c)).map((c): [string, string] => [c, titleCase(c)]),
  ].map(([key, city]) => [key, city, /^[\p{L}\p{N}]+/u.exec(key)?.[0] ?? '']);
  return KNOWN_CITIES;
}

let CITIES_BY_FIRST: { byFirst: Map<string, number[]>; noFirst: number[] } | undefined;
/**
 * Places in knownCities() of the names by first word, and of those with none: the names a text
 * can hold as whole words are those whose first word is one of its words.
 */
function citiesByFirst(): { byFirst: Map<string, number[]>; noFirst: number[] } {
  if (CITIES_BY_FIRST === undefined) {
    const byFirst = new Map<string, number[]>();
    const noFirst: number[] = [];
    knownCities().forEach(([, , first], i) => {
      if (first === '') noFirst.push(i);
      else {
        const at = byFirst.get(first);
        if (at === undefined) byFirst.set(first, [i]);
        else at.push(i);
      }
    });
    CITIES_BY_FIRST = { byFirst, noFirst };
  }
  return CITIES_BY_FIRST;
}

/**
 * The known cities findPlaces tries for a text, each once, in knownCities() order: every one
 * where `words` (the text's words, repeats allowed) is undefined, else those whose first word is
 * among `words` and those with no first word.
 */
function citiesToTry(words: readonly string[] | undefined): [key: string, city: string, first: string][] {
  const all = knownCities();
  if (words === undefined) return all;
  const { byFirst, noFirst } = citiesByFirst();
  const places = [...noFirst];
  // (a first word's cities are taken once, however often the text repeats it)
  const taken = new Set<string>();
  for (const w of words) {
    const at = byFirst.get(w);
    if (at === undefined || taken.has(w)) continue;
    taken.add(w);
    places.push(...at);
  }
  return places.sort((x, y) => x - y).map((i) => all[i]);
}

/** Extracts places: "Boston, MA", "Paris, France", known city names (any case), nicknames (LA, NYC). */
/** A word that makes a name a venue's, not a place's: "Hotel Paradise", "Louvre Museum", "Grand Hyatt Resort". */
const VENUE_WORD =
  /\b(?:Hotel|Motel|Inn|Resort|Hostel|Museum|Gallery|Restaurant|Cafe|Café|Bistro|Bar|Pub|Theater|Theatre|Cinema|Cinemas|Stadium|Arena|Mall|Hospital|Clinic|University|College|School|Church|Cathedral|Temple|Library|Zoo|Aquarium|Casino)\b/;

function findPlaces(text: string, tokens: Token[], spans: Span[]): void {
  const lower = text.toLowerCase();
  const propers = spans.filter((s) => s.kind === 'proper');
  // "<Proper>, <Proper or state code>" -> place with region
  for (const p of propers) {
    const rest = text.slice(p.end);
    // ", CA" / ", California" / ", Tamil Nadu" / ", UK"
    const r = /^,\s*([A-Z]{2}\b|[A-Z][\p{L}]+(?:\s[A-Z][\p{L}]+)?)/u.exec(rest);
    // (a venue's name before its city is no city: "Hotel Paradise, Las Vegas"; a town whose name
    // holds such a word is, before its state or country: "College Station, TX", "Bar Harbor, ME")
    const venue =
      r !== null &&
      VENUE_WORD.test(p.text) &&
      !US_CITIES.has(p.text.toLowerCase()) &&
      !WORLD_CITIES.has(p.text.toLowerCase()) &&
      !US_STATE_CODES.has(r[1]) &&
      US_STATES[r[1].toLowerCase()] === undefined &&
      !WORLD_COUNTRY_NAMES.has(r[1].toLowerCase());
    if (r && !venue) {
      const region = r[1];
      const key = p.text.toLowerCase();
      const country = US_CITIES.has(key) ? undefined : WORLD_CITIES.get(key);
      push(spans, { kind: 'place', start: p.start, end: p.end + r[0].length, text: `${p.text}, ${region}`, city: p.text, region, country });
    }
  }
  // known US cities and nicknames, any case, as whole words
  // (a key can be found as a whole word only where its first word is one of the text's words: the
  // others are not tried, and those tried are in the same order, so the same places are read)
  // (text with a surrogate pair is scanned for every key: the whole-word test below reads one UTF-16
  // unit, so an astral letter right before a name counts as no letter there, and as one in a run)
  const words = /[\ud800-\udfff]/.test(lower) ? undefined : letterDigitRuns(lower);
  for (const [key, city] of citiesToTry(words)) {
    let from = 0;
    for (;;) {
      const at = lower.indexOf(key, from);
      if (at < 0) break;
      from = at + key.length;
      const before = at === 0 ? ' ' : lower[at - 1];
      const after = lower[at + key.length] ?? ' ';
      // whole words only
      if (/[\p{L}\p{N}]/u.test(before) || /[\p{L}\p{N}]/u.test(after)) continue;
      const raw = text.slice(at, at + key.length);
      // two-letter nicknames must be written in capitals ("LA", not "la"), and "CHI" ("tai chi");
      // other short ones are no English word ("nyc", "atl")
      if ((key.length <= 2 || key === 'chi') && raw !== raw.toUpperCase()) continue;
      // "washington" alone is ambiguous with the state; needs capital W; a city whose name is a
      // common word needs its capital too ("nice attractions", "reading list")
      // (but "nice, france": the city's own country after it says it is the city)
      const ownCountry = WORLD_CITIES.get(key)?.[0].toLowerCase();
      if (
        (key === 'washington' || CITY_WORDS.has(key)) &&
        raw[0] !== raw[0].toUpperCase() &&
        !(ownCountry !== undefined && lower.slice(at + key.length).startsWith(`, ${ownCountry}`))
      )
        continue;
      let end = at + key.length;
      let region: string | undefined;
      // an explicit region written after the city
      const r = /^,?\s*([A-Z]{2}\b|[A-Z][\p{L}]+(?:\s[A-Z][\p{L}]+)?)/u.exec(text.slice(end));
      // (a world city's region after a comma, or its own country without one: "Manchester United"
      // is no place in a country called United)
      const own = WORLD_CITIES.get(key);
      const worldRegion =
        own !== undefined &&
        /^[A-Z]/.test(r?.[1] ?? '') &&
        (r![0].trimStart().startsWith(',') || own.some((c) => c.toLowerCase() === r![1].toLowerCase()));
      if (r && (US_STATE_CODES.has(r[1]) || US_STATES[r[1].toLowerCase()] !== undefined || worldRegion)) {
        region = r[1];
        end += r[0].length;
      }
      const country = US_CITIES.has(key) ? undefined : WORLD_CITIES.get(key);
      // (a city written with capitals keeps them: "Washington DC", not "Washington Dc"; a nickname
      // gives the city's own name: "NYC" → "New York City")
      const written = key === city.toLowerCase() && /^\p{Lu}/u.test(raw) && raw.split(/\s+/).every((w) => /^\p{Lu}/u.test(w)) ? raw : city;
      push(spans, { kind: 'place', start: at, end, text: text.slice(at, end), city: written, region, country });
    }
  }
  // a city written in Chinese, Japanese or Korean ("上海目前的天气", "서울 날씨"): those scripts
  // run words together, so the name is found anywhere in the text; it stands for the city the
  // lexicon knows (its English name and country)
  // (only as a word of its own, told by what follows it: the end, a mark, other text, 市 的 and
  // words of weather, time, travel or joining; not 上海路, 巴黎世家, 香港脚, 上海银行, 深圳北京路)
  const cjk: { at: number; name: string; key: string }[] = [];
  for (const [name, key] of CJK_CITIES) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      const after = text.slice(at + name.length);
      if (!(
        after === '' ||
        !CJK_CHAR.test(after[0]) ||
        /^(?:市|的|天气|天氣|今|明|后|後|昨|现在|現在|目前|最近|和|与|與|、|到|出发|出發|飞|飛|去|有|是|怎|什么|什麼|附近)/u.test(after)
      ))
        continue;
      cjk.push({ at, name, key });
    }
  }
  // (in the order written: "上海和北京的天气" is Shanghai first)
  for (const { at, name, key } of cjk.sort((x, y) => x.at - y.at)) {
    const country = WORLD_CITIES.get(key);
    if (country === undefined || spans.some((o) => o.kind === 'place' && o.start < at + name.length && at < o.end)) continue;
    push(spans, { kind: 'place', start: at, end: at + name.length, text: name, city: titleCase(key), country });
  }
  // a major airport's code written for its city ("I am travelling to LAX")
  for (const m of text.matchAll(/\b([A-Z]{3})\b/g)) {
    const city = AIRPORT_CITIES[m[1]];
    if (city === undefined || spans.some((o) => o.kind === 'place' && o.start <= m.index && o.end >= m.index + 3)) continue;
    push(spans, { kind: 'place', start: m.index, end: m.index + 3, text: m[1], city, airport: m[1] });
  }
  // a city's name misspelt by one letter after "in", "to", "near", "from" or "at" ("a counselor in
  // Berkley", "a theme park in Orlanda"): the one known city of six letters or more that it is one
  // edit from, with the same first letter, where no place is read there already
  for (const t of tokens) {
    if (!/^\p{Lu}\p{Ll}{5,}$/u.test(t.text) || !/\b(?:in|to|near|from|at)\s+$/i.test(text.slice(Math.max(0, t.start - 6), t.start)))
      continue;
    if (spans.some((o) => (o.kind === 'place' || o.kind === 'quoted') && o.start <= t.start && o.end >= t.end)) continue;
    // (the word alone: not the first of a longer name, "Berkley Square Hotel")
    if (/^\s+\p{Lu}/u.test(text.slice(t.end, t.end + 2))) continue;
    const key = t.text.toLowerCase();
    // (no month or weekday: "to August 17th" is no Augusta)
    if (
      US_CITIES.has(key) ||
      WORLD_CITIES.has(key) ||
      MONTHS[key] !== undefined ||
      WEEKDAYS[key] !== undefined ||
      /^\s*\d/.test(text.slice(t.end, t.end + 3))
    )
      continue;
    const near = (NEAR_CITY_KEYS.get(key[0]) ?? []).filter((c) => Math.abs(c.length - key.length) <= 1 && editDistance(c, key, 1) <= 1);
    if (near.length !== 1) continue;
    const country = US_CITIES.has(near[0]) ? undefined : WORLD_CITIES.get(near[0]);
    push(spans, { kind: 'place', start: t.start, end: t.end, text: t.text, city: titleCase(near[0]), country });
  }
  // a capitalised name right after "in", "near" or "around" that is a smaller US place of the
  // gazetteer (us-places.ts, which holds no name the tables above read: "a therapist in Los
  // Altos", "the weather in Sebastopol"), where no place is read there already; its state is the
  // gazetteer's ("at" is left out: "at Century 16" is a cinema)
  for (const p of propers) {
    if (!US_PLACES.has(p.text.toLowerCase())) continue;
    if (!/\b(?:in|near|around)\s+$/i.test(text.slice(Math.max(0, p.start - 8), p.start))) continue;
    if (spans.some((o) => o.kind === 'place' && o.start < p.end && p.start < o.end)) continue;
    push(spans, { kind: 'place', start: p.start, end: p.end, text: p.text, city: p.text });
  }
}

/** Cities of major US airports by their IATA code. */
const AIRPORT_CITIES: Readonly<Record<string, string>> = lookupTable({
  LAX: 'Los Angeles',
  SFO: 'San Francisco',
  JFK: 'New York',
  LGA: 'New York',
  EWR: 'Newark',
  ORD: 'Chicago',
  ATL: 'Atlanta',
  DFW: 'Dallas',
  DEN: 'Denver',
  SEA: 'Seattle',
  BOS: 'Boston',
  MIA: 'Miami',
  IAD: 'Washington',
  DCA: 'Washington',
  PHX: 'Phoenix',
  IAH: 'Houston',
  LAS: 'Las Vegas',
  MCO: 'Orlando',
  MSP: 'Minneapolis',
  DTW: 'Detroit',
  PHL: 'Philadelphia',
  SAN: 'San Diego',
  SJC: 'San Jose',
  OAK: 'Oakland',
  PDX: 'Portland',
});

/** Known one-word city names of six letters or more by their first letter, for misspellings (findPlaces). */
const NEAR_CITY_KEYS: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const c of new Set([...US_CITIES.keys(), ...WORLD_CITIES.keys()])) {
    if (!/^[a-z]{6,}$/.test(c)) continue;
    out.set(c[0], [...(out.get(c[0]) ?? []), c]);
  }
  return out;
})();

/** Cities whose names are common English words: read as cities only when capitalised. */
const CITY_WORDS: ReadonlySet<string> = new Set([
  'nice',
  'reading',
  'mobile',
  'bath',
  'split',
  'sale',
  'hope',
  'orange',
  'bend',
  'surprise',
  'paradise',
  'independence',
  'commerce',
  'liberty',
]);

/** Street-type words that end a street name. */
const STREET_RE =
  '(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Apartments|Plaza|Alley|Row)';

/** A character of the scripts that write words together (Han, Hangul, kana). */
const CJK_CHAR = /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]/u;

/** Cities written in Chinese, Japanese or Korean, by the WORLD_CITIES key of their English name. */
const CJK_CITIES: readonly [string, string][] = [
  ['北京', 'beijing'],
  ['上海', 'shanghai'],
  ['深圳', 'shenzhen'],
  ['广州', 'guangzhou'],
  ['廣州', 'guangzhou'],
  ['成都', 'chengdu'],
  ['杭州', 'hangzhou'],
  ['香港', 'hong kong'],
  ['东京', 'tokyo'],
  ['東京', 'tokyo'],
  ['大阪', 'osaka'],
  ['首尔', 'seoul'],
  ['서울', 'seoul'],
  ['부산', 'busan'],
  ['新加坡', 'singapore'],
  ['巴黎', 'paris'],
  ['伦敦', 'london'],
  ['倫敦', 'london'],
  ['柏林', 'berlin'],
  ['莫斯科', 'moscow'],
];

/** findAddresses2's pattern, built once (global: each call sets its lastIndex to 0 and reads it to the end). */
const STREET_ADDRESS_RE = new RegExp(
  `\\b\\d{1,6}[A-Za-z]?\\s+(?:[A-Z][\\w.'-]*\\s+){1,4}${STREET_RE}\\b\\.?(?:,\\s*(?:[A-Z][\\w.'-]*(?:\\s+[A-Z][\\w.'-]*){0,3}|[A-Z]{2,3}))*(?:(?<=\\b[A-Z]{2})(?:,\\s*|\\s+)\\d{5}(?:-\\d{4})?\\b)?`,
  'g',
);

/** Extracts street addresses: "2508 University Avenue, Palo Alto, CA", "221B Baker Street, Berkeley". */
function findAddresses2(text: string, spans: Span[]): void {
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
  findPlaces(text, tokens, spans);
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
