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

/** The chemical elements' symbols: a formula is made of them ("C6H12O6"; not "MP3"). Source: the periodic table. */
export const ELEMENT_SYMBOLS: ReadonlySet<string> = new Set(
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'.split(
    ' ',
  ),
);

/** Adverbs of frequency and the unit each is "per" ("hourly" → once per hour). Source: hand-set. */
export const PER_ADVERBS: Record<string, string> = lookupTable({
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  annually: 'year',
});
