/**
 * Counts and periods: cards of a standard deck, frequency adverbs, periods in seconds, times a
 * year of a frequency word, the chemical elements. Facts of their domains, written by hand.
 */
import { lookupTable } from '../../lexicon.js';

/** Times a year of a frequency word (compounding, payments). Source: hand-set. */
export const FREQUENCY_PER_YEAR = lookupTable<number>({
  annually: 1,
  yearly: 1,
  annual: 1,
  semiannually: 2,
  semiannual: 2,
  biannually: 2,
  quarterly: 4,
  monthly: 12,
  biweekly: 26,
  fortnightly: 26,
  weekly: 52,
  daily: 365,
});

/** Seconds in one of each period word (months and years only convert into each other, below). Source: definitions of the units. */
export const PERIOD_SECONDS: Record<string, number> = lookupTable({
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86400,
  week: 604800,
  fortnight: 1209600,
});

/** Cards of one rank or one suit in a standard 52-card deck, by the word for them. Source: a standard 52-card deck. */
export const CARDS_OF: Record<string, number> = lookupTable({
  ace: 4,
  aces: 4,
  king: 4,
  kings: 4,
  queen: 4,
  queens: 4,
  jack: 4,
  jacks: 4,
  heart: 13,
  hearts: 13,
  spade: 13,
  spades: 13,
  diamond: 13,
  diamonds: 13,
  club: 13,
  clubs: 13,
});

/** Adverbs of frequency and the unit each is "per" ("hourly" → once per hour). Source: hand-set. */
export const PER_ADVERBS: Record<string, string> = lookupTable({
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  annually: 'year',
});
