/**
 * Counts and periods: cards of a standard deck, periods in seconds. Facts of their domains,
 * written by hand.
 */
import { lookupTable } from '../../lexicon.js';

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
