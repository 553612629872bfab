// Dates (absolute, relative, "today is …" anchors) and clock times of a request.
import { MONTHS, WEEKDAYS, NUMBER_WORDS } from '../lexicon.js';
import { type DateValue, type Span, push, overlaps } from './spans.js';

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
export function findTodayAnchor(text: string): TodayAnchor | undefined {
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
export function findDates(text: string, spans: Span[], today: Date, anchored: boolean): void {
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
export function fillYears(spans: Span[], today: Date, text: string): void {
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
export function findLaterDates(text: string, spans: Span[]): void {
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
export function shiftOffsetDates(text: string, spans: Span[], today: Date): void {
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
export function findTimes(text: string, spans: Span[]): void {
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
  while ((m = named.exec(text)) !== null) {
    push(spans, {
      kind: 'time',
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      time: { h: m[1].toLowerCase() === 'midnight' ? 0 : 12, mi: 0 },
    });
  }
}
