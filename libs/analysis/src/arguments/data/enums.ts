/**
 * Enum matching tables: time zones (IANA names), languages (ISO 639-1), other words for enum values,
 * colour words.
 */
import { cueSet, cueTable } from '../cue-tables.js';
import { lookupTable } from '../../lexicon.js';

/**
 * IANA zones an abbreviation written in capitals stands for (tz database abbreviations, and the
 * US zones' two-letter forms). Left out: abbreviations zones in unrelated places share (CST: US
 * Central and China; IST: India, Israel, Ireland), MST (Denver, or Phoenix all year) and GMT,
 * which is UTC as often as London.
 * Source: the IANA time zone database; the choice of abbreviations hand-set.
 */
export const TIME_ZONE_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  EST: ['America/New_York', 'America/Toronto', 'America/Detroit'],
  EDT: ['America/New_York', 'America/Toronto', 'America/Detroit'],
  ET: ['America/New_York'],
  CDT: ['America/Chicago'],
  CT: ['America/Chicago'],
  MDT: ['America/Denver'],
  MT: ['America/Denver'],
  PST: ['America/Los_Angeles', 'America/Vancouver'],
  PDT: ['America/Los_Angeles', 'America/Vancouver'],
  PT: ['America/Los_Angeles'],
  AKST: ['America/Anchorage'],
  HST: ['Pacific/Honolulu'],
  BST: ['Europe/London'],
  CET: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam'],
  CEST: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam'],
  JST: ['Asia/Tokyo'],
  KST: ['Asia/Seoul'],
  HKT: ['Asia/Hong_Kong'],
  SGT: ['Asia/Singapore'],
  AEST: ['Australia/Sydney', 'Australia/Melbourne'],
  AEDT: ['Australia/Sydney', 'Australia/Melbourne'],
});

/** IANA zones of a region's name written before "time" ("Eastern time"). Source: the IANA time zone database; the choice of regions hand-set. */
export const TIME_ZONE_REGIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  eastern: TIME_ZONE_ABBREVIATIONS.EST,
  central: TIME_ZONE_ABBREVIATIONS.CDT,
  mountain: TIME_ZONE_ABBREVIATIONS.MDT,
  pacific: TIME_ZONE_ABBREVIATIONS.PST,
});

/** An ISO 639-1 language code, optionally with a region ("fr", "es-ES", "zh_CN"). Source: ISO 639-1 and BCP 47. */
// two letters, then optionally "-" or "_" and two more
export const LANGUAGE_CODE = /^([a-z]{2})(?:[-_][a-z]{2})?$/i;

/** English names of common languages by ISO 639-1 code (lower case). Source: ISO 639-1 codes; the choice of languages hand-set. */
export const LANGUAGE_NAMES: Record<string, string[]> = lookupTable({
  en: ['english'],
  fr: ['french'],
  es: ['spanish'],
  de: ['german'],
  it: ['italian'],
  pt: ['portuguese'],
  zh: ['chinese', 'mandarin'],
  ja: ['japanese'],
  ko: ['korean'],
  ru: ['russian'],
  ar: ['arabic'],
  hi: ['hindi'],
  nl: ['dutch'],
  sv: ['swedish'],
  pl: ['polish'],
  tr: ['turkish'],
  el: ['greek'],
  he: ['hebrew'],
  vi: ['vietnamese'],
  th: ['thai'],
  uk: ['ukrainian'],
  id: ['indonesian'],
});

/**
 * Words that name the same action as a one-word enum value. Source: hand-set. "delete" alone: it
 * gains on one dev half of the mapper only, but discovery's head reranker reads a required enum
 * through it and its dev figures fall without it (docs/decisions/mapper-unsourced-synonym-entries.md).
 */
export const ENUM_SYNONYMS: Readonly<Record<string, string[]>> = cueTable('enums.enumSynonyms', 'hand-set', {
  delete: ['remove', 'erase', 'drop', 'cancel', 'clear'],
});

/** Name parts and description words of a parameter that holds a genre or a kind of work. Source: hand-set. */
const GENRE_PARAM = /\b(?:genre|genres|category|categories|type|kind|style)\b/i;

/** … a kind of event. Source: hand-set. */
const EVENT_PARAM = /\bevents?\b/i;

/**
 * Genres and kinds by the other word a request uses for them ("a funny movie", "some cartoon
 * films", "I love drama", "a Toto concert"): a word that names one such value only, as strong as
 * a near spelling, for a parameter of that domain (`param` tested on its name and description).
 * `not` lists words after which the word means something else ("comic book", "drama series").
 * Source: hand-set.
 */
export const VALUE_SYNONYMS: Readonly<Record<string, { words: string[]; param: RegExp; not?: string[] }>> = cueTable(
  'enums.valueSynonyms',
  'hand-set',
  {
    comedy: {
      words: ['funny', 'comic', 'comedic', 'humorous', 'hilarious'],
      param: GENRE_PARAM,
      not: ['book', 'books', 'strip', 'strips', 'con'],
    },
    animation: { words: ['cartoon', 'cartoons', 'animated'], param: GENRE_PARAM },
    theater: {
      words: ['drama', 'plays', 'broadway', 'musical', 'musicals'],
      param: EVENT_PARAM,
      not: ['series', 'show', 'shows', 'tv', 'film', 'films', 'movie', 'movies', 'instrument', 'instruments'],
    },
    music: { words: ['concert', 'concerts', 'gig', 'gigs'], param: EVENT_PARAM },
  },
);

/** Words before which "plays" is a verb ("the team that plays", "he plays"), not theater plays. Source: hand-set. */
export const PLAYS_AS_VERB = cueSet('enums.playsAsVerb', 'hand-set', [
  'that',
  'who',
  'which',
  'he',
  'she',
  'it',
  'team',
  'band',
  'one',
  'also',
  'still',
  'never',
  'often',
  'usually',
  'and',
]);

/** Enum values meaning "no preference". Source: hand-set. */
export const DONTCARE = cueSet('enums.dontcare', 'hand-set', [
  'dontcare',
  'any',
  'all',
  'none',
  'default',
  'unspecified',
  'either',
  'no preference',
  'auto',
]);

/** Last name parts of a musical key parameter. Source: hand-set. */
export const MUSIC_KEY_PARTS = cueSet('enums.musicKeyParts', 'hand-set', [
  'key',
  'tonic',
  'musical_key',
  'key_signature',
  'scale_key',
  'root_note',
]);

/** Last name parts of a colour parameter. Source: hand-set. */
export const COLOR_PARTS = cueSet('enums.colorParts', 'hand-set', ['color', 'colour', 'colors', 'colours']);

/** Colour names (basic English colour terms and common shades), written lower-case as the value. Source: hand-set. */
export const COLOR_WORDS = cueSet('enums.colorWords', 'hand-set', [
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'violet',
  'pink',
  'brown',
  'black',
  'white',
  'gray',
  'grey',
  'cyan',
  'magenta',
  'gold',
  'silver',
  'navy',
  'teal',
  'beige',
  'maroon',
  'turquoise',
  'indigo',
  'lavender',
  'burgundy',
  'olive',
  'crimson',
  'ivory',
  'khaki',
  'coral',
  'charcoal',
]);

/** Words after a colour word that make it part of a name of something else ("orange juice", "white wine", "brown rice"). Source: hand-set. */
export const NOT_COLOUR_BEFORE = cueSet('enums.notColourBefore', 'hand-set', [
  'juice',
  'wine',
  'rice',
  'tea',
  'oil',
  'bean',
  'beans',
  'pepper',
  'peppers',
  'bread',
  'sugar',
  'chocolate',
  'cheese',
  'meat',
  'onion',
  'onions',
  'tequila',
  'rum',
  'beer',
  'grape',
  'grapes',
  'salmon',
  'tuna',
  'curry',
  'sauce',
  'cabbage',
  'lentils',
  'card',
  'cards',
  'belt',
  'house',
  'friday',
  'sea',
  'cross',
  'pages',
  'paper',
  'collar',
  'list',
  'hat',
  'box',
  'light',
  'lights',
  'flag',
  'carpet',
  'medal',
  'mine',
  'screen',
  'hole',
  'dwarf',
  'giant',
  'blood',
  'tape',
  'water',
  'bottle',
  'seal',
  'mail',
]);
