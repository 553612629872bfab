/**
 * Value kind "numbers": number spans for integer and number parameters (units, percent, ranks,
 * ranges, years, head counts), plus the numeric readings of other modules (counts, periods).
 */
import { type Doc, type Span, tokenAt } from '../extract.js';
import { NUMBER_WORDS } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, stem } from '../text.js';
import { anchorBonus, boundClash, insideName, rangeBonus } from './anchors.js';
import { cardsOfRankOrSuit, countsPeople, peopleAfter, periodCandidates } from './counts.js';
import { PERCENT_FRACTION_ROUNDING } from './data/numbers.js';
import { NUMBER_SCORES } from './data/scores/numbers.js';
import { COUNT_NOUN_BREAK, GENERIC_VALUE_STEMS } from './data/words.js';
import { CALENDAR_RANGES, apostropheYears, yearsOfDates } from './dates.js';
import { numericParam } from './dispatch.js';
import { type Cand, type ParamContext, type ValueKindModule } from './types.js';
import { siScaled, timeScaled, unitStem } from './units.js';

/** An angle measured in radians (a parameter's name and description). */
const RADIANS = /\b(?:radians?|rad)\b/i;

/** "Four decimal places", "2 decimal places", "rounded to 3 decimals": the precision an angle computed from pi is given at. */
const DECIMAL_PLACES = /\b(\d{1,2}|one|two|three|four|five|six|seven|eight)\s+decimal(?:\s+places?|s)\b/i;

/** A number span converted for a numeric parameter (percent handling, integer check); undefined if it does not fit. */
export function numberFor(s: Span, p: ParamInfo, type: 'integer' | 'number'): number | undefined {
  if (s.num === undefined) return undefined;
  let v = timeScaled(siScaled(s.num, s.unit, p), s.unit, p, s.after);
  if (s.percent && type === 'number') {
    const d = p.description.toLowerCase();
    const name = p.parts.join(' ');
    // "as a decimal", "0.05 for 5%", rates and yields -> fraction; "percentage"/"in percent" -> as written
    const asFraction =
      /decimal|fraction|e\.g\.,? 0\.\d|0\.\d+ for|between 0 and 1|0 to 1/.test(d) ||
      (/\b(rate|yield|return|ratio|probability|growth|confidence|significance|alpha)\b/.test(name + ' ' + d) && !/percent(age)?\b/.test(d));
    if (asFraction) v = Math.round((v / 100) * PERCENT_FRACTION_ROUNDING) / PERCENT_FRACTION_ROUNDING;
  }
  // a multiple of pi ("from 0 to 2 pi") for an angle in radians, at the precision its description
  // states ("Four decimal places": 6.2832); a number before "pi" is no angle elsewhere ("30 Pi
  // Kappa Alpha members", "4 pi boards")
  if ((s.unit === 'pi' || s.unit === 'π') && type === 'number' && RADIANS.test(`${p.parts.join(' ')} ${p.description}`)) {
    v *= Math.PI;
    const places = DECIMAL_PLACES.exec(p.description);
    const n = places ? Number(places[1]) || NUMBER_WORDS[places[1].toLowerCase()] : undefined;
    if (n !== undefined && n >= 0 && n <= 12) v = Number(v.toFixed(n));
  }
  // (a unit or percent can take a finite number past Number.MAX_VALUE; JSON would carry it as null)
  if (!Number.isFinite(v) || (type === 'integer' && !Number.isInteger(v))) return undefined;
  // a percent is no count ("makes 70% of free throws" is no number of successes)
  if (s.percent && p.parts.some((x) => /^(num|number|count|successes|trials|attempts|items|times)$/.test(x))) return undefined;
  // a probability is at most 1 (a percent is read as a fraction above)
  if (p.parts.includes('probability') && v > 1) return undefined;
  // a calendar part named in the singular takes only values it can have ("month" 2022 is no month)
  const cal = CALENDAR_RANGES[p.parts[p.parts.length - 1] ?? ''];
  if (cal && (v < cal[0] || v > cal[1])) return undefined;
  return v;
}

/** Plural nouns for the values a request gives: a number before one counts them ("two numbers"). */
const VALUE_NOUNS = /^(?:numbers|values|integers|ints|floats|decimals|operands|inputs|arguments|args|terms|numerals|figures)$/;

/**
 * Does a number count the values a request gives ("the sum of two numbers a and b") rather than
 * give one, for parameter `p`? Not where `p` counts or is measured in that noun ("60 terms" for a
 * loan's term in months, "up to 4 arguments" for max_args) or is named as a count (size, n, k,
 * count, quantity, num…, max…, min…).
 */
export function countsValues(s: Span, p: ParamInfo): boolean {
  if (s.unit === undefined || !VALUE_NOUNS.test(s.unit)) return false;
  // (a description's own "number" or "value" says what the parameter is, not what it counts: "First number")
  const u = stem(s.unit);
  const measured = !GENERIC_VALUE_STEMS.has(u) && (p.anchors.includes(u) || p.descStems.has(u));
  return !measured && !p.parts.some((x) => /^(?:n|k|count|size|quantity|num|number|max|min|limit|total)$/.test(x));
}

/** Per parameter: the stems of what it counts, from its description ("Number of events to return" → ["event"]; none: []). */
const COUNTED_NOUN = new WeakMap<ParamInfo, string[]>();

/**
 * Bonus for a number that counts what an integer parameter counts: followed within four words
 * by the noun its description counts ("Number of events" ← "ten major historical events").
 */
export function countBonus(p: ParamInfo, doc: Doc, s: Span): number {
  if (insideName(doc, s.start, s.end)) return 0;
  let nouns = COUNTED_NOUN.get(p);
  if (nouns === undefined) {
    // (the phrase's second word too: "The number of hotel rooms to reserve" counts rooms)
    // (the second word only where the phrase ends with it: "Number of child car seats" counts no cars)
    const m =
      /\b(?:number|count|amount) of (?:the )?(\w+)(?: (\w+)(?= (?:to|for|in|on|of|that|which|per|and|or|with|from|by|at|is|are)\b|[.,;:)]|$))?|\bhow many (\w+)(?: (\w+)(?= (?:to|for|in|on|of|that|which|per|and|or|with|from|by|at|is|are)\b|[.,;:)]|$))?/i.exec(
        p.description,
      );
    const counted = (w: string | undefined): boolean =>
      w !== undefined &&
      !STOP_WORDS.has(w.toLowerCase()) &&
      !COUNT_NOUN_BREAK.has(w.toLowerCase()) &&
      !/^(results?|items?|times?|records?|entries|values?)$/i.test(w);
    const first = m?.[1] ?? m?.[3];
    const second = m?.[2] ?? m?.[4];
    nouns = counted(first) ? [stem(first!.toLowerCase()), ...(counted(second) ? [stem(second!.toLowerCase())] : [])] : [];
    COUNTED_NOUN.set(p, nouns);
  }
  const at = tokenAt(doc, s.end - 1);
  if (nouns.length > 0 && at >= 0) {
    for (let k = at + 1; k < Math.min(doc.tokens.length, at + 5); k++) {
      // (only words that describe the noun between: "50 with extroverted members" counts no members)
      if (/[.,;:!?]/.test(doc.text.slice(doc.tokens[k - 1].end, doc.tokens[k].start)) || COUNT_NOUN_BREAK.has(doc.tokens[k].lower)) break;
      if (nouns.includes(doc.tokens[k].stem)) return NUMBER_SCORES.countsCountedNoun.v;
    }
  }
  return 0;
}

/** The request writes more than one four-digit year ("between 2010 and 2015", "2019 or 2020"). */
function severalYears(doc: Doc): boolean {
  return doc.spans.filter((o) => o.kind === 'number' && /^(1\d|20)\d\d$/.test(o.text)).length > 1;
}

/** A parameter that holds a year: its last name part is "year" ("year", "release_year", "startYear"). */
export function yearParam(p: ParamInfo): boolean {
  return p.parts[p.parts.length - 1] === 'year';
}

/** Rank of a parameter among the numeric parameters of its object (set by mapObject). */
export const NUMERIC_RANK = new WeakMap<ParamInfo, number>();

/** Rank of a parameter among numeric siblings (-1 when unknown). */
function numericRank(p: ParamInfo): number {
  return NUMERIC_RANK.get(p) ?? -1;
}

/** Rank of a number span among the plain number spans of the text. */
function numberRank(doc: Doc, s: Span): number {
  if (s.word) return -2;
  let ranks = NUMBER_RANKS.get(doc);
  if (!ranks) {
    // once per request: each plain number's count of plain numbers that start before it (numbers
    // starting at the same place share a rank)
    const nums = doc.spans.filter((o) => o.kind === 'number' && !o.word).sort((a, b) => a.start - b.start);
    ranks = new Map();
    nums.forEach((o, i) => ranks!.set(o, i > 0 && nums[i - 1].start === o.start ? ranks!.get(nums[i - 1])! : i));
    NUMBER_RANKS.set(doc, ranks);
  }
  return ranks.get(s) ?? 0;
}

/** Per request: the rank of each plain number span (numberRank). */
const NUMBER_RANKS = new WeakMap<Doc, Map<Span, number>>();

/** Value kind "numbers": number spans for an integer or number parameter, and the numbers other rules imply; ends the walk. */
export const NUMBERS_KIND: ValueKindModule = {
  name: 'numbers',
  serves: numericParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const { hits, type: t } = ctx;
    if (t !== 'integer' && t !== 'number') return; // (numericParam)
    for (const s of doc.spans) {
      const c = numberCandidate(p, doc, s, t, ctx);
      if (c) out.push(c);
    }
    out.push(...apostropheYears(p, doc));
    out.push(...periodCandidates(p, doc));
    // the cards of the one rank or suit drawn from a standard deck ("drawing a king" → 4)
    out.push(...cardsOfRankOrSuit(p, doc));
    out.push(...yearsOfDates(p, doc, hits));
  },
};

/** One number span as a value of a numeric parameter, scored; undefined where it is none. */
function numberCandidate(p: ParamInfo, doc: Doc, s: Span, t: 'integer' | 'number', ctx: ParamContext): Cand | undefined {
  const { hits, units } = ctx;
  if (s.kind !== 'number') return undefined;
  const v = numberFor(s, p, t);
  if (v === undefined) return undefined;
  // a bound of the other side is no value of a minimum or maximum ("a price over 500" is no
  // max_price; "a rating lower than 3" no min_rating)
  if (boundClash(p, doc, s)) return undefined;
  // a count of the values themselves is none of them ("the sum of two numbers a and b", "the
  // 2 values 10 and 32"), unless the parameter counts them ("generate two random numbers")
  if (countsValues(s, p) && countBonus(p, doc, s) <= 0) return undefined;
  let score = NUMBER_SCORES.base.v + anchorBonus(p, doc, s, hits);
  const us = unitStem(s.unit);
  if (us && units.has(us)) score += NUMBER_SCORES.unitAsked.v;
  // range ends: "from 2010 to 2015", "between 3 and 5"
  score += rangeBonus(p, doc, s);
  // ties go to the reading order: n-th number to the n-th numeric parameter
  if (numericRank(p) === numberRank(doc, s)) score += NUMBER_SCORES.readingOrder.v;
  // a number inside a date, time, quoted span, identifier, path or URL is rarely the value
  const inside = doc.spans.find(
    (o) =>
      o !== s && ['date', 'time', 'id', 'path', 'url', 'email', 'quoted', 'list'].includes(o.kind) && o.start <= s.start && o.end >= s.end,
  );
  if (inside) score -= inside.kind === 'date' && p.parts.some((x) => /^(year|month|day)s?$/.test(x)) ? 0 : NUMBER_SCORES.insideOtherSpan.v;
  // a head count ("for three people", "4 guests") for a parameter that counts people
  if (countsPeople(p) && peopleAfter(p).test(doc.text.slice(s.end, s.end + 24))) score += NUMBER_SCORES.headCountForPeople.v;
  // a count of the things the parameter counts: "ten major historical events" for "Number of
  // events to return"
  score += countBonus(p, doc, s);
  // a year written as one ("from 2022") for a parameter named year
  // (not a number inside a name, "Blade Runner 2049", nor one of several years: "between 2010 and 2015")
  if (
    yearParam(p) &&
    !s.word &&
    !s.unit &&
    Number.isInteger(v) &&
    v >= 1000 &&
    v <= 2999 &&
    /^\d{4}$/.test(s.text) &&
    !insideName(doc, s.start, s.end) &&
    !severalYears(doc)
  )
    score += NUMBER_SCORES.yearForYearParam.v;
  return { param: p, value: v, score, ranges: [[s.start, s.end]], kind: 'number' };
}
