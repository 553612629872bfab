/**
 * Numbers the request implies rather than writes, for numeric parameters: counts of people and
 * cards, lengths of stays, frequencies ("compounded quarterly", "twice a day"), periods, ordinal
 * positions, range ends ("full volume"), a body at rest.
 */
import { type Doc } from '../extract.js';
import { NUMBER_WORDS, lookupTable } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { type Token, stem } from '../text.js';
import { clauseBreak, sentenceOf } from './anchors.js';
import { CARDS_OF, PERIOD_SECONDS, PER_ADVERBS } from './data/counts.js';
import { TIME_UNITS } from './data/units.js';
import { MAX_COUNTED_ITEMS } from './items.js';
import { RESULT_COUNT_PARTS } from './numbers.js';
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
    out.push({ param: p, value: v, score: 0.5, ranges: [[m.index, m.index + m[0].length]], kind: 'period' });
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
  return [{ param: p, value: n + 1, score: 0.9, ranges: [[m.index, m.index + m[0].length]], kind: 'self-and-others' }];
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
    if (total && !favourable && !sized) out.push({ param: p, value: 52, score: 0.35, ranges: [], kind: 'standard-count' });
    if (favourable) {
      // (one plain rank or suit: not "a red king", "a face card", "an ace or a king", "not drawing a king")
      const named = doc.tokens.filter((t) => CARDS_OF[t.lower] !== undefined);
      const qualified =
        named.some((t) => /^(red|black|face|royal|court)$/.test(doc.tokens[t.index - 1]?.lower ?? '')) ||
        /\bface\s+cards?\b|\bnot\s+(?:draw|drawing|get|getting|pick|picking)\b/i.test(doc.text);
      if (named.length === 1 && !qualified) {
        const t = named[0];
        out.push({ param: p, value: CARDS_OF[t.lower], score: 0.5, ranges: [[t.start, t.end]], kind: 'standard-count' });
      }
    }
  }
  // (a plain die: not a "d20", an "8-sided die" or a die of N sides)
  if (
    /\b(?:dice|die)\b/i.test(doc.text) &&
    !/\bd\d+\b|\d+[- ]sided|\bsides?\b/i.test(doc.text) &&
    parts.some((x) => /^(sides|faces)$/.test(x))
  )
    out.push({ param: p, value: 6, score: 0.35, ranges: [], kind: 'standard-count' });
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
  return [{ param: p, value: n, score: 0.5, ranges: [], kind: 'stay-length' }];
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
    if (h.w < 0.8) continue;
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
    out.push({ param: p, value: v, score: 0.6, ranges: [[word.start, word.end]], kind: 'range-end' });
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
    out.push({ param: p, value: n, score: 0.45, ranges: [[m.index, m.index + m[0].length]], kind: 'per-unit' });
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

/** Superlatives that ask for the one first result ("the highest grossing bank"). */
const SUPERLATIVES =
  'best|top|highest|lowest|largest|biggest|smallest|most|least|cheapest|nearest|closest|greatest|richest|tallest|longest|shortest|oldest|newest';

/** "the <superlative>" anywhere in a request. */
const SUPERLATIVE_THE = new RegExp(String.raw`\bthe\s+(?:${SUPERLATIVES})\b`, 'gi');

/** "the <superlative> <noun phrase>", the phrase up to a word that ends it (its last word is the noun). */
const SUPERLATIVE_PHRASE = new RegExp(
  String.raw`(?<!\bof\s)\bthe\s+(?:single\s+)?(${SUPERLATIVES})\s+((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)(?=\s*(?:$|[.,;:!?]|\s(?:in|at|on|near|for|with|from|of|that|which|who|to|by|around|within|and|or|this|last|next)\b))`,
  'iu',
);

/**
 * One result asked for by a superlative and a singular noun ("Find the highest grossing bank in
 * the U.S" → top_n 1), for a count of results where the request writes no number but a year, of a
 * tool whose name holds that superlative (highest_grossing_banks). Not a plural ("the best
 * restaurants"), nor "one of the best", nor two superlatives.
 */
export function singleBestCount(p: ParamInfo, doc: Doc, toolStems: ReadonlySet<string>): Cand[] {
  if (p.type !== 'integer' || !p.parts.some((x) => RESULT_COUNT_PARTS.test(x))) return [];
  // (a year is no count: "for year 2020")
  if (doc.spans.some((s) => s.kind === 'number' && !(s.num !== undefined && s.num >= 1900 && s.num <= 2099 && /^\d{4}$/.test(s.text))))
    return [];
  // the noun phrase after the superlative, up to a word that ends it: its last word is the noun
  const m = SUPERLATIVE_PHRASE.exec(doc.text);
  // (only a tool that ranks by that very measure: highest_grossing_banks for "the highest grossing
  // bank"; a search tool's result count is not asked to be 1 by "the best way to learn Rust")
  if (!m || !toolStems.has(stem(m[1].toLowerCase()))) return [];
  // (and only once: "the best phone and the best tablet" asks two)
  if (doc.text.match(SUPERLATIVE_THE)!.length > 1) return [];
  const noun = m[2].split(/\s+/).pop()?.toLowerCase() ?? '';
  if (noun === '' || (/s$/.test(noun) && !/(?:ss|us|is)$/.test(noun)) || /^(?:ones?|people|children|men|women|data|media)$/.test(noun))
    return [];
  return [{ param: p, value: 1, score: 0.5, ranges: [], kind: 'single-best' }];
}

/** Ordinal words and figures ("second", "3rd") by the position they give. */
const ORDINAL_POSITION: Readonly<Record<string, number>> = lookupTable({
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
});

/**
 * A position written as an ordinal ("Remove the second item from my todo list", "the 3rd entry")
 * for an integer index or position parameter: the ordinal, less one where the description counts
 * from zero ("The zero-based index of the todo item"). Only "the <ordinal>" before a word for a
 * list's member (item, entry, task, row, tab, contact…), outside quotes: "the first time", "the
 * first name of…", "the second world war", "'review the first draft'" say no position.
 */
export function positionCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'integer' || !p.parts.some((x) => /^(?:index|idx|position|pos)$/.test(x))) return [];
  const zeroBased = /\b(?:zero|0)[- ]?(?:based|indexed)\b|\bstarts?(?:ing)?\s+(?:at|from)\s+(?:0|zero)\b/i.test(p.description);
  const out: Cand[] = [];
  for (const m of doc.text.matchAll(
    /\bthe\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|([1-9]|10)(?:st|nd|rd|th))\s+(?:one|item|entry|element|task|todo|to-do|row|line|record|tab|result|position|slot|card|note|reminder|contact|file|option|choice)s?\b/giu,
  )) {
    const n = m[2] !== undefined ? Number(m[2]) : ORDINAL_POSITION[m[1].toLowerCase()];
    if (n === undefined) continue;
    // (an ordinal inside a quoted value is its content: "Add 'review the first draft' to my list")
    if (doc.spans.some((sp) => sp.kind === 'quoted' && sp.start <= m.index && sp.end >= m.index + m[0].length)) continue;
    const start = m.index + m[0].indexOf(m[1]);
    // (weaker than a number written for it: "Mark item 3 as done, the second one I added")
    out.push({ param: p, value: zeroBased ? n - 1 : n, score: 0.45, ranges: [[start, start + m[1].length]], kind: 'position' });
  }
  return out;
}
