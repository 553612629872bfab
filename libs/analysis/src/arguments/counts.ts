/**
 * Numbers the request implies rather than writes, for numeric parameters: counts of people and
 * cards, lengths of stays, frequencies ("compounded quarterly", "twice a day"), periods, ratings
 * written as fractions, range ends ("full volume"), a body at rest.
 */
import { type Doc } from '../extract.js';
import { NUMBER_WORDS } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { type Token } from '../text.js';
import { clauseBreak, sentenceOf } from './anchors.js';
import { CARDS_OF, FREQUENCY_PER_YEAR, PERIOD_SECONDS, PER_ADVERBS } from './data/counts.js';
import { COUNT_SCORES } from './data/scores/counts.js';
import { TIME_UNITS } from './data/units.js';
import { MAX_COUNTED_ITEMS } from './items.js';
import { type Cand } from './types.js';
import { rateDenominators, unitStem } from './units.js';

/** A frequency word after (or before) the verbs of one kind of frequency ("compounded quarterly", "monthly payments"). */
function frequencyPattern(verbs: string): RegExp {
  return new RegExp(
    `\\b(?:${verbs})\\s+(annually|yearly|semi-?annually|biannually|quarterly|monthly|bi-?weekly|fortnightly|weekly|daily|continuously)\\b|\\b(annual|yearly|semi-?annual|quarterly|monthly|weekly|daily)\\s+(?:${verbs})\\b`,
    'gi',
  );
}

/** How often payments are made, for a count of payments. */
export const PAYMENT_FREQUENCY = frequencyPattern('paid|payments?|repaid');

/** How often interest is compounded, for any other count of times per period. */
export const COMPOUNDING_FREQUENCY = frequencyPattern('compounded|compounding|applied');

/**
 * One period written without a number ("the next week", "the past hour", "next month") for a
 * numeric parameter measured in a unit of time: the period in that unit (a week is 7 days, an hour
 * 3,600 seconds; months and years convert only into each other). Whole values only.
 */
export function periodCandidates(p: ParamInfo, doc: Doc): Cand[] {
  // the unit of time the name says ("days", "timespan_seconds"), else the first the description says
  // (a plural name part: "year"/"month"/"day" alone name a calendar part, not a length of time; and
  // a description that measures the parameter in the unit, not one that only mentions it: "Max
  // results per day", "cached for a day")
  const word = /^(second|minute|hour|day|week|month|year)s$/;
  const fromName = p.parts.find((x) => word.test(x))?.replace(/s$/, '');
  const fromDesc = /\b(?:number of|in|how many|count of|amount of)\s+(second|minute|hour|day|week|month|year)s\b/i.exec(p.description)?.[1];
  const unit = (fromName ?? fromDesc)?.toLowerCase().replace(/s$/, '');
  if (!unit) return [];
  const out: Cand[] = [];
  // ("every hour", "each week", "a week", "per year" are rates, not lengths of time: left alone)
  const re = /\b(?:the\s+)?(?:next|past|last|coming|previous|upcoming|following)\s+(second|minute|hour|day|week|fortnight|month|year)\b/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null) {
    const period = m[1].toLowerCase();
    // months and years convert exactly only into each other: a month or a year has no fixed
    // number of days, hours or seconds
    let v: number;
    if (unit === period) v = 1;
    else if (unit === 'month' && period === 'year') v = 12;
    else if (PERIOD_SECONDS[period] === undefined || PERIOD_SECONDS[unit] === undefined) continue;
    else v = PERIOD_SECONDS[period] / PERIOD_SECONDS[unit];
    if (!Number.isInteger(v) || v <= 0) continue;
    out.push({ param: p, value: v, score: COUNT_SCORES.periodWithoutNumber.v, ranges: [[m.index, m.index + m[0].length]], kind: 'period' });
  }
  return out;
}

/** A number followed by a word for people ("3 people", "two adults", "a party of 4 persons"). */
const PEOPLE_AFTER = /^\s*(?:people|persons?|adults?|guests?|passengers?|travell?ers?|individuals?|pax)\b/i;

/** Does an integer parameter count people (adults, children, guests, passengers, seats, party size)? */
export function countsPeople(p: ParamInfo): boolean {
  return (
    p.type === 'integer' &&
    p.parts.some((x) =>
      /^(adults?|child|children|kids?|people|persons?|guests?|passengers?|travell?ers?|seats?|occupants?|pax|party)$/.test(x),
    )
  );
}

/**
 * A party counted as the writer and others ("for myself and one other adult", "me and 3 friends")
 * for a parameter that counts people (not children): the others plus one.
 */
export function selfAndOthers(p: ParamInfo, doc: Doc): Cand[] {
  if (!countsPeople(p) || p.parts.some((x) => /^(?:child|children|kids?)$/.test(x))) return [];
  const m =
    /\b(?:myself|me)\s+and\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:other\s+)?(?:adults?|people|persons?|friends?|guests?|others?|colleagues?|travell?ers?|passengers?)\b/i.exec(
      doc.text,
    );
  if (!m) return [];
  // (a total written gives way to nothing: "a party of 6 including me and 2 friends", "4 people";
  // and children counted too say the phrase is no total of the party)
  if (
    /\b(?:party|group|table|booking|reservation)\s+(?:of|for)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b|\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:people|persons|guests|adults|travell?ers|passengers)\b|\b(?:kids?|children|child|infants?|babies|baby)\b/i.test(
      doc.text.slice(0, m.index) + ' ' + doc.text.slice(m.index + m[0].length),
    )
  )
    return [];
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()];
  if (n === undefined) return [];
  return [
    { param: p, value: n + 1, score: COUNT_SCORES.selfAndOthers.v, ranges: [[m.index, m.index + m[0].length]], kind: 'self-and-others' },
  ];
}

/** The words after a number that count what this parameter counts: a children parameter counts children, any other counts people, adults, guests ... (never children). */
export function peopleAfter(p: ParamInfo): RegExp {
  return p.parts.some((x) => /^(child|children|kids?)$/.test(x)) ? /^\s*(?:child|children|kids?)\b/i : PEOPLE_AFTER;
}

/**
 * Counts that a standard deck of cards and a standard die have, for a draw or a roll the request
 * describes without giving them: the deck's 52 cards for a total ("total_outcomes",
 * "total_cards"), the 4 cards of a rank or the 13 of a suit for the favourable ones
 * ("favorable_outcomes", "desired_cards", "success_outcomes", "event_outcomes"), the 6 sides of a
 * die ("sides_per_die"). Below a number the request writes for the same parameter ("a deck of 32
 * cards" keeps 32).
 */
export function standardCounts(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  const parts = p.parts;
  // (a standard deck only: not a tarot, pinochle or Uno deck, nor one with jokers)
  const cards =
    /\b(?:deck|cards?)\b/i.test(doc.text) &&
    /\b(?:draw|draws|drawing|drawn|pull|pulling|pick|picking|dealt)\b/i.test(doc.text) &&
    !/\b(?:tarot|pinochle|uno|jokers?|skat|euchre)\b/i.test(doc.text);
  if (cards) {
    // (a total of outcomes or cards, not an amount: "pay the total due")
    const total =
      (parts.includes('total') && parts.some((x) => /^(outcomes?|cards?|possible|events?|count|number)$/.test(x))) ||
      (parts.includes('deck') && parts.includes('size'));
    const favourable = parts.some((x) => /^(favorable|favourable|success|successes|successful|desired|event|target|winning)$/.test(x));
    const sized = doc.spans.some((x) => x.kind === 'number' && /^cards?$/.test(x.unit ?? ''));
    if (total && !favourable && !sized)
      out.push({ param: p, value: 52, score: COUNT_SCORES.standardDeckTotal.v, ranges: [], kind: 'standard-count' });
    if (favourable) {
      // (one plain rank or suit: not "a red king", "a face card", "an ace or a king", "not drawing a king")
      const named = doc.tokens.filter((t) => CARDS_OF[t.lower] !== undefined);
      const qualified =
        named.some((t) => /^(red|black|face|royal|court)$/.test(doc.tokens[t.index - 1]?.lower ?? '')) ||
        /\bface\s+cards?\b|\bnot\s+(?:draw|drawing|get|getting|pick|picking)\b/i.test(doc.text);
      if (named.length === 1 && !qualified) {
        const t = named[0];
        out.push({
          param: p,
          value: CARDS_OF[t.lower],
          score: COUNT_SCORES.cardsOfOneRankOrSuit.v,
          ranges: [[t.start, t.end]],
          kind: 'standard-count',
        });
      }
    }
  }
  // (a plain die: not a "d20", an "8-sided die" or a die of N sides)
  if (
    /\b(?:dice|die)\b/i.test(doc.text) &&
    !/\bd\d+\b|\d+[- ]sided|\bsides?\b/i.test(doc.text) &&
    parts.some((x) => /^(sides|faces)$/.test(x))
  )
    out.push({ param: p, value: 6, score: COUNT_SCORES.standardDieSides.v, ranges: [], kind: 'standard-count' });
  return out;
}

/**
 * The number of days or nights between the request's two dates, for an integer parameter that
 * counts the days or nights of a stay ("length of the stay in number of days", nights,
 * num_nights): "from August 15th to August 17th" → 2. Only where exactly two full dates are
 * written, the second after the first, and no count of days or nights.
 */
export function stayLength(p: ParamInfo, doc: Doc): Cand[] {
  // (the length of a stay, a trip or a rental: not days of flexibility or of notice)
  if (
    p.type !== 'integer' ||
    !/\b(?:nights?|days?)\b/i.test(`${p.parts.join(' ')} ${p.description}`) ||
    !p.parts.some((x) => /^(length|nights?|days?|duration|stay)$/.test(x)) ||
    /\b(?:flexib|remind|before|notice|advance|ahead|buffer)/i.test(`${p.parts.join(' ')} ${p.description}`)
  )
    return [];
  const dates = doc.spans.filter((x) => x.kind === 'date' && x.date?.y !== undefined && x.start >= 0).sort((x, y) => x.start - y.start);
  if (dates.length !== 2 || doc.spans.some((x) => x.kind === 'number' && /^(nights?|days?)$/.test(x.unit ?? ''))) return [];
  // (a stay's own range: "from August 15th to August 17th", "2024-05-03 - 2024-05-07"; not two
  // dates of different things, a passport's expiry, a return to the office)
  if (!/^\s*(?:,\s*)?(?:to|until|till|through|thru|-|–)\s*(?:the\s+)?$/i.test(doc.text.slice(dates[0].end, dates[1].start))) return [];
  const [a, b] = dates.map((x) => Date.UTC(x.date!.y!, x.date!.m - 1, x.date!.d));
  const n = Math.round((b - a) / 86_400_000);
  if (n < 1 || n > 366) return [];
  return [{ param: p, value: n, score: COUNT_SCORES.stayLengthFromDates.v, ranges: [], kind: 'stay-length' }];
}

/** "from 0 to 100", "between 3 and 100", "range of 3 to 100", "a minimum of 3 and a maximum of 100": a numeric parameter's stated range. */
function statedRange(p: ParamInfo): { min?: number; max?: number } {
  const d = p.description;
  const pair =
    /\b(?:from|between|range\s+of|ranging\s+from|range\s+from)\s+(-?\d+(?:\.\d+)?)\s*(?:\([^)]{0,30}\)\s*)?(?:to|and|-)\s+(-?\d+(?:\.\d+)?)/i.exec(
      d,
    );
  if (pair) return { min: Number(pair[1]), max: Number(pair[2]) };
  const min = /\bminimum\s+(?:of|is|value\s+(?:of|is))\s+(-?\d+(?:\.\d+)?)/i.exec(d);
  const max = /\bmaximum\s+(?:of|is|value\s+(?:of|is))\s+(-?\d+(?:\.\d+)?)/i.exec(d);
  return { min: min ? Number(min[1]) : undefined, max: max ? Number(max[1]) : undefined };
}

const RANGE_TOP = /^(?:full|max|maximum|highest|loudest)$/i;

const RANGE_BOTTOM = /^(?:min|minimum|lowest)$/i;

/**
 * The end of a parameter's stated range asked for in words: "at full volume", "max entries per
 * page", "the volume at maximum" → the range's top ("ranging from 0 (mute) to 100") ; "minimum
 * volume" → its bottom. The word must stand right before the parameter's name (one word may come
 * between) or right after it ("volume at the minimum").
 */
export function rangeEndCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  if (hits.length === 0) return [];
  const range = statedRange(p);
  if (range.min === undefined && range.max === undefined) return [];
  const out: Cand[] = [];
  for (const h of hits) {
    if (h.w < COUNT_SCORES.rangeEndStrongNameHit.v) continue;
    // (asked for: "at full volume", "to max brightness", "with the maximum entries per page" (one
    // word may come between), or "volume at/to (the) maximum"; not "full brightness hurts my eyes",
    // "the lowest temperature that still gives variety")
    const after = /^\s+(?:at|to|on)\s+(?:the\s+|its\s+)?$/i.test(doc.text.slice(doc.tokens[h.idx].end, doc.tokens[h.idx + 3]?.start ?? 0))
      ? doc.tokens[h.idx + 3]
      : undefined;
    const asked = (t: Token | undefined): Token | undefined =>
      t !== undefined && /\b(?:at|to|on|with|in)\s+(?:the\s+|its\s+|a\s+)?$/i.test(doc.text.slice(Math.max(0, t.start - 12), t.start))
        ? t
        : undefined;
    const near = [asked(doc.tokens[h.idx - 1]), asked(doc.tokens[h.idx - 2]), after].filter((t): t is Token => t !== undefined);
    const around = (re: RegExp): Token | undefined =>
      near.find(
        (t) => re.test(t.lower) && !clauseBreak(doc, Math.min(t.start, doc.tokens[h.idx].start), Math.max(t.end, doc.tokens[h.idx].end)),
      );
    const top = range.max !== undefined ? around(RANGE_TOP) : undefined;
    const bottom = range.min !== undefined ? around(RANGE_BOTTOM) : undefined;
    const word = top ?? bottom;
    const v = top ? range.max : bottom ? range.min : undefined;
    if (word === undefined || v === undefined || (p.type === 'integer' && !Number.isInteger(v))) continue;
    // (a number written in the same sentence says how much: "at the max volume my neighbour
    // allows, which is 60")
    const sentence = sentenceOf(doc, word.start);
    if (/\d/.test(sentence)) continue;
    out.push({ param: p, value: v, score: COUNT_SCORES.rangeEndInWords.v, ranges: [[word.start, word.end]], kind: 'range-end' });
  }
  return out;
}

/** A parameter that counts how often something happens ("duplication_frequency", "Number of times ... per hour"). */
const FREQUENCY_PARAM = /\b(?:frequency|frequencies|times|how often|occurrences|repetitions|sessions|count)\b/i;

/**
 * Counts per unit of time for a parameter that counts how often something happens per that unit
 * ("The frequency of duplication per hour"): "every hour" / "hourly" / "once an hour" 1, "twice a
 * day" 2, "three times per week" 3. Nothing for "every 2 hours" (a period, not a count per hour),
 * for a number that is part of a larger one ("12.50 an hour", "$85,500 a year"), or for a
 * parameter that is an amount or rate per unit ("Pay per hour", "Interest rate per year").
 * At most MAX_COUNTED_ITEMS matches are read.
 */
export function perUnitCounts(p: ParamInfo, doc: Doc): Cand[] {
  if (!FREQUENCY_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return [];
  const per = [...rateDenominators(p)].filter((u) => TIME_UNITS.has(u));
  if (per.length === 0) return [];
  const out: Cand[] = [];
  const re =
    /(?<![\d.,$€£])\b(?:(once|twice|thrice|\d{1,3}(?![\d.,]\d)|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:times\s+)?(?:a|an|per|each|every)|every|each)\s+([a-z]+)\b|\b(hourly|daily|weekly|monthly|yearly|annually)\b/gi;
  let seen = 0;
  for (const m of doc.text.matchAll(re)) {
    if (++seen > MAX_COUNTED_ITEMS) break;
    const unit = m[3] ? PER_ADVERBS[m[3].toLowerCase()] : unitStem(m[2]);
    if (!unit || !per.includes(unit)) continue;
    const word = m[1]?.toLowerCase();
    const n =
      word === undefined
        ? 1
        : word === 'once'
          ? 1
          : word === 'twice'
            ? 2
            : word === 'thrice'
              ? 3
              : /^\d+$/.test(word)
                ? Number(word)
                : NUMBER_WORDS[word];
    if (!(n > 0)) continue;
    // (below what an optional parameter needs: "produced annually" says nothing of a yearly decrease)
    out.push({
      param: p,
      value: n,
      score: COUNT_SCORES.countPerUnitOfTime.v,
      ranges: [[m.index, m.index + m[0].length]],
      kind: 'per-unit',
    });
  }
  return out;
}

/** A parameter for the initial velocity or speed of a moving body (initial_velocity, initialSpeed, v0). */
export const INITIAL_MOTION = /^(?:initial[_ ]?(?:velocity|speed)|v_?0|u0?|start(?:ing)?[_ ]?(?:velocity|speed))$/i;

/** Words that say a body starts at rest: "from rest", "starts at rest", "initially at rest" (not "until it is at rest", "comes to rest"). */
export const STARTS_AT_REST =
  /\bfrom\s+rest\b|\b(?:starts?|started|starting|begins?|began|initially|is\s+initially|was\s+initially)\s+(?:at|from)\s+rest\b/i;

/** Words that say a body falls from rest unless a speed is written: "dropped", "released", "free fall". */
export const DROPPED = /\b(?:dropped|released)\b(?!\s+(?:with|at)\b)|\bfree[- ]?fall(?:s|ing)?\b/i;

/** A speed unit right after a number ("20 m/s", "60 km/h", "30 mph", "5 meters per second"). */
export const SPEED_UNIT =
  /^\s?(?:m\/s|km\/h|kmh|kph|mph|ft\/s|fps|knots?|(?:meters?|metres?|kilometers?|kilometres?|miles?|feet)\s*(?:\/|per)\s*(?:s|sec|second|h|hr|hour))\b/i;

export /** A rating written as a fraction of its scale, for a rating. */
function ratingFractions(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  // a rating written as a fraction of its scale ("above 4/5", "4.5 out of 5") for a rating
  if (p.parts.some((x) => /^(?:rate|rating|ratings|score|stars?)$/.test(x))) {
    // (of the parameter's own scale: out of 5 unless the description states another, "1-10",
    // "0 to 100", "out of 10"; "8/10" is no rating of a 1-5 scale)
    const stated = /\b[01]\s*(?:-|–|to)\s*(5|10|100)\b|\bout\s+of\s+(5|10|100)\b/i.exec(p.description);
    const scale = stated ? Number(stated[1] ?? stated[2]) : 5;
    for (const m of doc.text.matchAll(/(?<![\d.])(\d{1,2}(?:\.\d)?)\s*(?:\/|out\s+of)\s*(5|10|100)(?![\d.])/g)) {
      if (Number(m[2]) !== scale || Number(m[1]) > scale) continue;
      const v = p.type === 'integer' && !Number.isInteger(Number(m[1])) ? undefined : Number(m[1]);
      if (v !== undefined)
        out.push({
          param: p,
          value: v,
          score: COUNT_SCORES.ratingAsFraction.v,
          ranges: [[m.index, m.index + m[0].length]],
          kind: 'rating-fraction',
        });
    }
  }
  return out;
}

export /** 0 for the initial speed of a body that starts at rest. */
function atRest(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  // an initial velocity or speed of a body that starts at rest ("started from rest", "initially
  // at rest", "dropped from 100 m"): 0, unless the request gives an initial value of its own
  if (INITIAL_MOTION.test(p.name) && !/\binitial(?:ly)?\s+(?:velocit|speed)/i.test(doc.text)) {
    // (a drop or a release says nothing of the start where a speed is written: "released at 60 m/s")
    const m =
      STARTS_AT_REST.exec(doc.text) ??
      (doc.spans.some((x) => x.kind === 'number' && SPEED_UNIT.test(doc.text.slice(x.end, x.end + 12))) ? null : DROPPED.exec(doc.text));
    if (m)
      out.push({ param: p, value: 0, score: COUNT_SCORES.startsAtRest.v, ranges: [[m.index, m.index + m[0].length]], kind: 'at-rest' });
  }
  return out;
}

export /** Times a year of a compounding or payment frequency written as a word. */
function frequencyWords(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  // a compounding or payment frequency written as a word ("compounded quarterly" → 4 a year)
  // for a count of times per year or period
  if (
    /\b(?:times|periods?)\b[^.]{0,40}\b(?:per|a|each)\s+(?:year|unit period|unit time|time period|period)\b|\bper[_ ]year\b/i.test(
      p.description,
    ) ||
    /per_year$/.test(p.name)
  ) {
    // payments for a payment count, compounding for the rest; one frequency only ("compounded
    // annually vs compounded monthly", "compounded continuously" give nothing)
    const re = /\bpay/i.test(p.name + ' ' + p.description) ? PAYMENT_FREQUENCY : COMPOUNDING_FREQUENCY;
    const said = [...doc.text.matchAll(re)].map((m) => ({ m, word: (m[1] ?? m[2]).toLowerCase().replace('-', '') }));
    const distinct = new Set(said.map((h) => h.word));
    const times = distinct.size === 1 ? FREQUENCY_PER_YEAR[said[0].word] : undefined;
    if (times !== undefined && !/\bnot\s+(?:\w+\s+)?$/i.test(doc.text.slice(Math.max(0, said[0].m.index - 12), said[0].m.index))) {
      const m = said[0].m;
      out.push({
        param: p,
        value: times,
        score: COUNT_SCORES.frequencyWord.v,
        ranges: [[m.index, m.index + m[0].length]],
        kind: 'frequency',
      });
    }
  }
  return out;
}
