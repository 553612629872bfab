/**
 * Value kind "dates and times": dates, times and date-times formatted as a parameter asks, years
 * written with an apostrophe, the end of a period; and for numeric parameters, a date's year.
 */
import { type DateValue, type Doc, type Span, type TimeValue } from '../extract.js';
import { lookupTable } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { anchorBonus, rangeRole } from './anchors.js';
import { DATE_SCORES } from './data/scores/dates.js';
import { stringParam } from './dispatch.js';
import { yearParam } from './numbers.js';
import { type Cand, type ParamContext, type ValueKindModule } from './types.js';

/** Quiet default of the current date (UTC, day precision). */
export function todayUtc(): Date {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate()));
}

/** Zero-pads to 2 digits. */
function p2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Fills a missing year from the reference date. */
function withYear(d: DateValue, today: Date): Required<Pick<DateValue, 'y' | 'm' | 'd'>> {
  return { y: d.y ?? today.getUTCFullYear(), m: d.m, d: d.d };
}

/** Formats a date the way a parameter's description asks (ISO 8601 by default); date-times add the time. */
export function formatDate(d: DateValue, p: ParamInfo, today: Date, time?: TimeValue): string {
  const { y, m, d: day } = withYear(d, today);
  // (a year written with three or five Ys is a slip for four: "MM-DD-YYY")
  const want = p.description.toUpperCase().replace(/(?<![A-Z])Y{3}(?!Y)|(?<![A-Z])Y{5}(?!Y)/g, 'YYYY');
  let base: string;
  // which order the description's example asks for
  // the order written in words: "(month-day-year)", "in day/month/year format"
  const words = /\b(MONTH|DAY|YEAR)([-/.])(MONTH|DAY)\2(YEAR|DAY)\b/.exec(want);
  if (words && words[1] !== 'YEAR' && new Set([words[1], words[3], words[4]]).size === 3) {
    const part = (w: string): string => (w === 'MONTH' ? p2(m) : w === 'DAY' ? p2(day) : String(y));
    base = `${part(words[1])}${words[2]}${part(words[3])}${words[2]}${part(words[4])}`;
  } else if (/MM\/DD\/YYYY/.test(want)) base = `${p2(m)}/${p2(day)}/${y}`;
  else if (/DD\/MM\/YYYY/.test(want)) base = `${p2(day)}/${p2(m)}/${y}`;
  else if (/DD-MM-YYYY/.test(want)) base = `${p2(day)}-${p2(m)}-${y}`;
  // (each test below matches that literal pattern in the upper-cased description)
  else if (/MM-DD-YYYY/.test(want)) base = `${p2(m)}-${p2(day)}-${y}`;
  else if (/YYYY\/MM\/DD/.test(want)) base = `${y}/${p2(m)}/${p2(day)}`;
  else if (/YYYY\.MM\.DD/.test(want)) base = `${y}.${p2(m)}.${p2(day)}`;
  else if (/YYYYMMDD/.test(want)) base = `${y}${p2(m)}${p2(day)}`;
  else base = `${y}-${p2(m)}-${p2(day)}`;
  // the description's format names a time part ("HH:MM", "T", "ISO 8601 date-time")
  const fmtHasTime = /HH/.test(want) || /\bDATE-?TIME\b|TIMESTAMP/.test(want);
  if (!(p.semantic === 'datetime' || (time && fmtHasTime))) return base;
  if (!time && !fmtHasTime) return base;
  const t = time ?? { h: 0, mi: 0 };
  // seconds unless the format is exactly "HH:MM" (not followed by ":SS")
  const withSec = !/HH:MM(?!:)/.test(want) || /HH:MM:SS/.test(want);
  const tt = withSec ? `${p2(t.h)}:${p2(t.mi)}:${p2(t.s ?? 0)}` : `${p2(t.h)}:${p2(t.mi)}`;
  // a "T" between date and time in the example ("YYYY-MM-DDTHH:MM:SS"); a trailing "Z" for UTC
  const tSep = /DDTHH|\dT\d|ISO.?8601/.test(want) || !/HH/.test(want);
  // (not where the zone is given apart: "Timezone is not included and should be specified
  // separately", or a time-zone parameter beside it; the time is then the zone's local time)
  // (a description that says the time is in UTC keeps its Z)
  const zoneApart =
    !/\bUTC\b/.test(want) &&
    (/\bTIME\s?ZONE\b[^.]{0,40}\b(?:NOT INCLUDED|SEPARATELY)\b/.test(want) || p.siblings.some((n) => /^(?:time_?zone|tz)$/i.test(n)));
  const z = !zoneApart && /SSZ|:\d\dZ\b|\bZ\b.*UTC|UTC.*\bZ\b/.test(want) ? 'Z' : '';
  return `${base}${tSep ? 'T' : ' '}${tt}${z}`;
}

/** Formats a time of day ("HH:MM" unless the description asks for seconds or 12-hour). */
export function formatTime(t: TimeValue, p: ParamInfo): string {
  const want = p.description.toUpperCase();
  // "HH:MM:SS" asks for seconds
  if (/HH:MM:SS/.test(want)) return `${p2(t.h)}:${p2(t.mi)}:${p2(t.s ?? 0)}`;
  // an example written as an hour and "am"/"pm" ("e.g. 3pm", "like 9 AM") asks for that form:
  // "3pm", or "3:30pm" where the time has minutes
  // (not where the description writes the clock's form: "HH:MM", "24-hour", "24h")
  const example = /(?<!\bnot\s+)\b(?:e\.g\.?,?|such as|for example,?)\s*['"]?\d{1,2}(\s?)(am|pm|AM|PM)\b/.exec(p.description);
  if (example && !/HH:MM|24[- ]?h(?:ou)?r?s?\b/i.test(p.description)) {
    const h12 = t.h % 12 === 0 ? 12 : t.h % 12;
    const ampm = t.h < 12 ? 'am' : 'pm';
    return `${h12}${t.mi ? `:${p2(t.mi)}` : ''}${example[1]}${example[2] === example[2].toUpperCase() ? ampm.toUpperCase() : ampm}`;
  }
  // a 12-hour clock: "AM"/"PM" or "12-hour" in the description, unless it asks for a 24-hour
  // clock ("in 24-hour format 'HH:MM' (e.g., '13:45' for 1:45 PM)")
  if (!/24[- ]HOUR/.test(want) && /\b(AM|PM)\b|HH:MM (AM|PM)|12[- ]HOUR/.test(want)) {
    const h12 = t.h % 12 === 0 ? 12 : t.h % 12;
    return `${p2(h12)}:${p2(t.mi)} ${t.h < 12 ? 'AM' : 'PM'}`;
  }
  return `${p2(t.h)}:${p2(t.mi)}`;
}

/**
 * A year written with an apostrophe ("songs from '19") for a parameter named year, as a number or
 * (for a string parameter) its digits: the nearest such year not more than one year after the
 * reference date. Only after "from", "in", "of", "since", "circa", "around" or "the" ("the word
 * '99 in the title" is no year).
 */
export function apostropheYears(p: ParamInfo, doc: Doc): Cand[] {
  if (!yearParam(p)) return [];
  const out: Cand[] = [];
  const now = doc.today.getUTCFullYear();
  for (const m of doc.text.matchAll(/\b(?:from|in|of|since|circa|around|the)\s+['’](\d{2})\b(?!['’\w])/gi)) {
    const yy = Number(m[1]);
    const y = 2000 + yy <= now + 1 ? 2000 + yy : 1900 + yy;
    const at = m.index + m[0].length - 3;
    out.push({
      param: p,
      value: p.type === 'string' ? String(y) : y,
      score: DATE_SCORES.apostropheYear.v,
      ranges: [[at, at + 3]],
      kind: 'number',
    });
  }
  return out;
}

/** Ranges of calendar parts, by a parameter's last name part. */
export const CALENDAR_RANGES: Record<string, [number, number]> = lookupTable({
  month: [1, 12],
  day: [1, 31],
  hour: [0, 23],
  minute: [0, 59],
});

/** A description saying the parameter assumes today when left out ("If not specified, the current date is assumed", "Defaults to today"). */
// (the current date itself: not "30 days before the current date", "one day after the current date",
// "the current date minus one day")
export const TODAY_BY_DEFAULT =
  /\bif\s+(?:not|no\w*)\s+(?:\w+\s+){0,3}(?:specified|provided|given|set)\s*,?\s*(?:the\s+)?(?:current|today'?s)\s+date\s+(?:is\s+|will\s+be\s+)?(?:used|assumed|applied)\b|\b(?:defaults?\s+(?:is\s+|to\s+)?|by\s+default\s*,?\s*)(?:the\s+)?(?:current\s+date|today'?s\s+date|today)\b(?!\s*(?:minus|plus|[-+]))/i;

/** Whether a date span says "today" (a relative date that is the reference day; a date written out is sent as written). */
export function isToday(s: Span, doc: Doc): boolean {
  const d = s.date;
  return (
    d !== undefined &&
    d.relative === true &&
    d.y === doc.today.getUTCFullYear() &&
    d.m === doc.today.getUTCMonth() + 1 &&
    d.d === doc.today.getUTCDate()
  );
}

/** Value kind "endFromDuration": the end of a period from its start and a duration. */
export const END_FROM_DURATION_KIND: ValueKindModule = {
  name: 'endFromDuration',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the end of a period given by its start and a duration ("22/3/2024 time 11.00 a.m. 2 hours" →
    // 2024-03-22 13:00:00 for an end date-time)
    out.push(...endFromDuration(p, doc));
  },
};

/**
 * The end of a period for an end date-time parameter (rangeRole 'end', a date-time), where the
 * request gives one date, one clock time and one duration in hours or minutes ("on March 23 at
 * 3:00 p.m. for 2 hours" → 17:00): the start plus the duration, in the parameter's format. Only
 * within the same day.
 */
function endFromDuration(p: ParamInfo, doc: Doc): Cand[] {
  if (p.semantic !== 'datetime' || rangeRole(p) !== 'end') return [];
  const dates = doc.spans.filter((x) => x.kind === 'date' && x.date && x.start >= 0);
  const times = doc.spans.filter((x) => x.kind === 'time' && x.time);
  const durations = doc.spans.filter((x) => x.kind === 'number' && !x.word && /^(hours?|hrs?|minutes?|mins?)$/i.test(x.unit ?? ''));
  if (dates.length !== 1 || times.length !== 1 || durations.length !== 1) return [];
  const minutes = /^h/i.test(durations[0].unit!) ? durations[0].num! * 60 : durations[0].num!;
  const total = times[0].time!.h * 60 + times[0].time!.mi + minutes;
  if (!Number.isInteger(minutes) || minutes <= 0 || total >= 24 * 60) return [];
  const value = formatDate(dates[0].date!, p, doc.today, { h: Math.floor(total / 60), mi: total % 60 });
  return [
    { param: p, value, score: DATE_SCORES.endFromDuration.v, ranges: [[durations[0].start, durations[0].end]], kind: 'end-from-duration' },
  ];
}

/** A date written in figures: year, month and day with one separator ("2023-05-12", "04/07/2023", "2023.4.11"). */
const FIGURE_DATE = /^(?:\d{4}([-/.])\d{1,2}\1\d{1,2}|\d{1,2}([-/.])\d{1,2}\2\d{4})$/;

/** The order a date in figures is written in: year first, or year last. */
function figureOrder(text: string): 'ymd' | 'dmy' {
  return /^\d{4}/.test(text) ? 'ymd' : 'dmy';
}

/**
 * DetailedMapping.datesAsWritten of a mapping's top-level arguments: a date value in the order the
 * request writes its dates in (year first or year last; separators and zero padding aside) counts
 * as written.
 */
export function datesAsWritten(doc: Doc, args: Record<string, unknown>): number {
  const orders = new Set(
    doc.spans.filter((s) => s.kind === 'date' && FIGURE_DATE.test(s.text.trim())).map((s) => figureOrder(s.text.trim())),
  );
  if (orders.size !== 1) return 0;
  const [written] = orders;
  let sum = 0;
  for (const v of Object.values(args)) {
    // (a four-digit year first or last: "10.0.0.5" is an address)
    if (typeof v !== 'string' || !/^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})(?!\d)/.test(v)) continue;
    sum += figureOrder(v) === written ? 1 : -1;
  }
  return Math.max(-1, Math.min(1, sum));
}

export /** The year of a written date, for a year parameter. */
function yearsOfDates(p: ParamInfo, doc: Doc, hits: ParamContext['hits']): Cand[] {
  const out: Cand[] = [];
  // a date for year/month/day integers
  if (p.parts.some((x) => x === 'year')) {
    for (const s of doc.spans)
      if (s.kind === 'date' && s.date?.y !== undefined && !s.date.relative)
        out.push({
          param: p,
          value: s.date.y,
          score: DATE_SCORES.yearOfDate.v + anchorBonus(p, doc, s, hits),
          ranges: [[s.start, s.end]],
          kind: 'date-part',
        });
  }
  return out;
}
