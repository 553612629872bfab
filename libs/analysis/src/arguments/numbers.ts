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
import { DIMENSIONS, LENGTH_UNITS, UNIT_STEMS } from './data/units.js';
import { COUNT_NOUN_BREAK, GENERIC_VALUE_STEMS } from './data/words.js';
import { CALENDAR_RANGES, apostropheYears, clockHour, monthNumbers, yearsOfDates } from './dates.js';
import { numericParam } from './dispatch.js';
import { positionCandidates } from './series.js';
import { type Cand, type ParamContext, type ValueKindModule } from './types.js';
import { AREA_PARAM, AREA_UNIT, canonUnit, rateDenominators, siScaled, timeScaled, unitStem, unitStemsOf } from './units.js';

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
  if (type === 'integer' && !Number.isInteger(v)) return undefined;
  // a percent is no count ("makes 70% of free throws" is no number of successes)
  if (s.percent && p.parts.some((x) => /^(num|number|count|successes|trials|attempts|items|times)$/.test(x))) return undefined;
  // a probability is at most 1 (a percent is read as a fraction above)
  if (p.parts.includes('probability') && v > 1) return undefined;
  // a calendar part named in the singular takes only values it can have ("month" 2022 is no month)
  const cal = CALENDAR_RANGES[p.parts[p.parts.length - 1] ?? ''];
  if (cal && (v < cal[0] || v > cal[1])) return undefined;
  return v;
}

/**
 * Bonus for a value written after "set/change/update/make ... <the parameter's last name part>
 * to": the request sets that parameter ("set the starting level to 5" for starting_level).
 */
function setToBonus(p: ParamInfo, doc: Doc, s: Span): number {
  const last = p.parts[p.parts.length - 1];
  if (last === undefined || last.length < 3) return 0;
  const before = doc.lower.slice(Math.max(0, s.start - 60), s.start);
  const m =
    /\b(?:set|change|update|make|adjust|increase|decrease|raise|lower|reduce|switch|turn)\b[^.;,!?]{0,40}?\b([a-z]+)\s+(?:to|=|at)\s*$/.exec(
      before,
    );
  return m && stem(m[1]) === stem(last) ? NUMBER_SCORES.setToValue.v : 0;
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

/** Name parts of a parameter that says how many results to return. */
export const RESULT_COUNT_PARTS = /^(num|number|count|limit|max|top|n|k|results|size)$/;

/**
 * Bonus for a number that counts what an integer parameter counts: followed within four words
 * by the noun its description counts ("Number of events" ← "ten major historical events"), or
 * written after "top"/"first"/"best" for a parameter of how many results ("the top three").
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
  const before = tokenAt(doc, s.start) - 1;
  if (before >= 0 && /^(top|first|best)$/.test(doc.tokens[before].lower) && p.parts.some((x) => RESULT_COUNT_PARTS.test(x)))
    return NUMBER_SCORES.afterTopFirstBest.v;
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

/** Per numeric parameter measured in one kind of unit (DIMENSIONS index d): its rank r among its siblings measured in that kind. */
export const DIMENSION_RANK = new WeakMap<ParamInfo, { d: number; r: number }>();

/** The one kind of unit (DIMENSIONS index) a parameter is measured in, or -1 (none, several, or an area). */
export function paramDimension(p: ParamInfo): number {
  if (AREA_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return -1;
  const units = [...unitStemsOf(p)];
  const ds = DIMENSIONS.map((set, i) => (units.some((u) => set.has(u)) ? i : -1)).filter((i) => i >= 0);
  return ds.length === 1 && rateDenominators(p).size === 0 ? ds[0] : -1;
}

/** Per request: each plain number written with a unit of time, length or mass, with its kind and rank among the numbers of that kind. */
const DIMENSION_RANKS = new WeakMap<Doc, Map<Span, { d: number; r: number }>>();

/** A number span's kind of unit and its rank among the request's numbers of that kind (undefined: no such unit). */
function dimensionRank(doc: Doc, s: Span): { d: number; r: number } | undefined {
  let ranks = DIMENSION_RANKS.get(doc);
  if (!ranks) {
    ranks = new Map();
    const seen = DIMENSIONS.map(() => 0);
    // (not where dimensions write the unit once: "18 x 24 inches" — the plain reading order holds)
    if (
      /\d\s*(?:x|×|by)\s*\d/i.test(doc.text) &&
      doc.spans.some(
        (o) =>
          o.kind === 'number' &&
          !o.word &&
          (o.unit === undefined || /^(?:x|×)$/i.test(o.unit)) &&
          /^\s*(?:x|×|by)?\s*\d/i.test(doc.text.slice(o.end, o.end + 8)),
      )
    ) {
      DIMENSION_RANKS.set(doc, ranks);
      return undefined;
    }
    for (const o of doc.spans
      .filter((x) => x.kind === 'number' && !x.word && x.unit !== undefined && !AREA_UNIT.test(x.unit))
      .sort((a, b) => a.start - b.start)) {
      const u = unitStem(o.unit);
      const d = u === undefined ? -1 : DIMENSIONS.findIndex((set) => set.has(u));
      if (d >= 0) ranks.set(o, { d, r: seen[d]++ });
    }
    DIMENSION_RANKS.set(doc, ranks);
  }
  return ranks.get(s);
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
    // (a parameter that measures an area: read once, not per number)
    const measuresArea = AREA_PARAM.test(`${p.parts.join(' ')} ${p.description}`);
    for (const s of doc.spans) {
      const c = numberCandidate(p, doc, s, t, ctx, measuresArea);
      if (c) out.push(c);
    }
    out.push(...positionCandidates(p, doc));
    out.push(...apostropheYears(p, doc));
    out.push(...periodCandidates(p, doc));
    out.push(...clockHour(p, doc));
    // the cards of the one rank or suit drawn from a standard deck ("drawing a king" → 4)
    out.push(...cardsOfRankOrSuit(p, doc));
    out.push(...monthNumbers(p, doc, hits));
    out.push(...yearsOfDates(p, doc, hits));
  },
};

/** One number span as a value of a numeric parameter, scored; undefined where it is none. */
function numberCandidate(
  p: ParamInfo,
  doc: Doc,
  s: Span,
  t: 'integer' | 'number',
  ctx: ParamContext,
  measuresArea: boolean,
): Cand | undefined {
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
  else if (us && (p.anchors.some((a) => canonUnit(a) === us) || [...p.descStems].some((d) => canonUnit(d) === us)))
    score += NUMBER_SCORES.unitWordNamed.v;
  else if (us && UNIT_STEMS.has(us) && us.length > 2 && units.size > 0) score -= NUMBER_SCORES.otherUnitThanAsked.v;
  // a count of the unit the parameter divides by is no value of it ("for 6 hours" is no rate per hour)
  if (us && rateDenominators(p).has(us)) score -= NUMBER_SCORES.countsRateDenominator.v;
  // an area ("400 square feet", "20 m^2") for a parameter that measures one ("The area in square
  // feet that one gallon of paint can cover"), and a plain length for none of those
  if (s.unit !== undefined && AREA_UNIT.test(s.unit)) score += measuresArea ? NUMBER_SCORES.areaForAreaParam.v : 0;
  else if (measuresArea && us !== undefined && LENGTH_UNITS.has(us)) score -= NUMBER_SCORES.lengthForAreaParam.v;
  if (s.word) score -= NUMBER_SCORES.writtenAsWord.v;
  // range ends: "from 2010 to 2015", "between 3 and 5"
  score += rangeBonus(p, doc, s);
  // ties go to the reading order: n-th number to the n-th numeric parameter
  // (among numbers with units of one kind, the n-th of them to the n-th parameter measured in
  // that kind: "a wall of 30 feet by 12 feet … 400 square feet per gallon" gives length 30 and
  // height 12 though the area parameter comes first)
  const pd = DIMENSION_RANK.get(p);
  const sd = pd === undefined ? undefined : dimensionRank(doc, s);
  if (pd !== undefined && sd !== undefined && pd.d === sd.d) score += pd.r === sd.r ? NUMBER_SCORES.dimensionReadingOrder.v : 0;
  else if (numericRank(p) === numberRank(doc, s)) score += NUMBER_SCORES.readingOrder.v;
  // a number inside a date, time, quoted span, identifier, path or URL is rarely the value
  const inside = doc.spans.find(
    (o) =>
      o !== s && ['date', 'time', 'id', 'path', 'url', 'email', 'quoted', 'list'].includes(o.kind) && o.start <= s.start && o.end >= s.end,
  );
  if (inside) score -= inside.kind === 'date' && p.parts.some((x) => /^(year|month|day)s?$/.test(x)) ? 0 : NUMBER_SCORES.insideOtherSpan.v;
  // a coordinate's hemisphere names its axis: N/S a latitude, E/W a longitude
  if (s.hemi) {
    const lat = p.parts.some((x) => /^lat(itude)?$/.test(x));
    const lon = p.parts.some((x) => /^(lon|lng|long|longitude)$/.test(x));
    if ((lat && (s.hemi === 'N' || s.hemi === 'S')) || (lon && (s.hemi === 'E' || s.hemi === 'W')))
      score += NUMBER_SCORES.hemisphereOfAxis.v;
    else if (lat || lon) score -= NUMBER_SCORES.hemisphereOfOtherAxis.v;
  }
  // a head count ("for three people", "4 guests") for a parameter that counts people
  if (countsPeople(p) && peopleAfter(p).test(doc.text.slice(s.end, s.end + 24))) score += NUMBER_SCORES.headCountForPeople.v;
  // "a ride for 2.", "a table for four?" (not children): the party's size
  // (after a thing that is booked, and a party's size only: not "make it for 6", "for 2025")
  else if (
    countsPeople(p) &&
    !p.parts.some((x) => /^(child|children|kids?)$/.test(x)) &&
    v >= 1 &&
    v <= 20 &&
    /\b(?:ride|table|room|rooms|reservation|booking|cab|taxi|car|seats?|tickets?|house|apartment|tour|trip|flight)\s+for\s+$/i.test(
      doc.text.slice(Math.max(0, s.start - 20), s.start),
    ) &&
    /^\s*(?:$|[.,;!?])/.test(doc.text.slice(s.end)) &&
    !s.unit
  )
    score += NUMBER_SCORES.partySizeAfterFor.v;
  // "set the starting level to 5", "change the volume to 30"
  score += setToBonus(p, doc, s);
  // a count of the things the parameter counts: "ten major historical events" for "Number of
  // events to return"; "the top three plants" for num_results
  const counted = countBonus(p, doc, s);
  // (a count written as a word loses nothing then: "ten events" is as clear as "10 events")
  score += counted + (counted > 0 && s.word ? NUMBER_SCORES.countWrittenAsWord.v : 0);
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
