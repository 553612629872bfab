/**
 * Numbers the request implies rather than writes, for numeric parameters: counts of people and of
 * cards drawn, periods ("the next week").
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { CARDS_OF, PERIOD_SECONDS } from './data/counts.js';
import { COUNT_SCORES } from './data/scores/counts.js';
import { type Cand } from './types.js';

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

/** The words after a number that count what this parameter counts: a children parameter counts children, any other counts people, adults, guests ... (never children). */
export function peopleAfter(p: ParamInfo): RegExp {
  return p.parts.some((x) => /^(child|children|kids?)$/.test(x)) ? /^\s*(?:child|children|kids?)\b/i : PEOPLE_AFTER;
}

/**
 * The cards of the one rank or suit a draw from a standard deck names, for a count of favourable
 * outcomes ("favorable_outcomes", "desired_cards", "success_outcomes", "event_outcomes"): a king
 * is 4 cards, a spade 13.
 */
export function cardsOfRankOrSuit(p: ParamInfo, doc: Doc): Cand[] {
  // (a standard deck only: not a tarot, pinochle or Uno deck, nor one with jokers)
  const cards =
    /\b(?:deck|cards?)\b/i.test(doc.text) &&
    /\b(?:draw|draws|drawing|drawn|pull|pulling|pick|picking|dealt)\b/i.test(doc.text) &&
    !/\b(?:tarot|pinochle|uno|jokers?|skat|euchre)\b/i.test(doc.text);
  if (!cards || !p.parts.some((x) => /^(favorable|favourable|success|successes|successful|desired|event|target|winning)$/.test(x)))
    return [];
  // (one plain rank or suit: not "a red king", "a face card", "an ace or a king", "not drawing a king")
  const named = doc.tokens.filter((t) => CARDS_OF[t.lower] !== undefined);
  const qualified =
    named.some((t) => /^(red|black|face|royal|court)$/.test(doc.tokens[t.index - 1]?.lower ?? '')) ||
    /\bface\s+cards?\b|\bnot\s+(?:draw|drawing|get|getting|pick|picking)\b/i.test(doc.text);
  if (named.length !== 1 || qualified) return [];
  const t = named[0];
  return [
    { param: p, value: CARDS_OF[t.lower], score: COUNT_SCORES.cardsOfOneRankOrSuit.v, ranges: [[t.start, t.end]], kind: 'standard-count' },
  ];
}
