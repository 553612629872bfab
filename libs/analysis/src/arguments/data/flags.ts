/**
 * Flag tables: negations, synonyms and phrases for the words of a boolean parameter's name.
 * Hand-set (no dev request recorded).
 */
import { cueSet, cueTable } from '../cue-tables.js';

/** Negation words before a flag's name ("without trip protection", "no pets"). Source: hand-set. */
export const NEGATIONS = cueSet('flags.negations', 'hand-set', [
  'no',
  'not',
  'without',
  "don't",
  'dont',
  'never',
  'exclude',
  'excluding',
  "doesn't",
  "isn't",
  "won't",
  'non',
  'nor',
  "aren't",
  "shouldn't",
  'neither',
  'disable',
  'disabled',
  'skip',
  'w/o',
  'avoid',
  'except',
  'off',
  'false',
  'lacking',
]);

/** Synonyms for flag name parts ("kids" in a name, "children" in a request). Source: hand-set. */
export const FLAG_SYNONYMS: Readonly<Record<string, string[]>> = cueTable('flags.flagSynonyms', 'hand-set', {
  kid: ['child', 'children', 'famili', 'kid'],
  child: ['kid', 'children', 'famili'],
  pet: ['pet', 'dog', 'cat'],
  free: ['free', 'no entri fee', 'complimentari'],
  privat: ['privat', 'secret', 'hidden'],
  detail: ['detail', 'detailed', 'in-depth', 'thorough'],
  refund: ['refund'],
  live: ['live'],
  wifi: ['wifi', 'wi-fi', 'internet'],
  smoke: ['smoke', 'smoking'],
  veget: ['vegetarian', 'vegan'],
  share: ['share', 'shared'],
  laundri: ['laundri', 'washer'],
  garag: ['garag', 'park'],
  park: ['park', 'garag'],
  direct: ['direct', 'nonstop'],
  return: ['return', 'round'],
});

/** Phrases that say what a flag name part says ("both men and women" for unisex). Source: hand-set. */
export const FLAG_PHRASES: Readonly<Record<string, RegExp>> = cueTable('flags.flagPhrases', 'hand-set', {
  unisex: /\b(?:both\s+)?(?:men\s+and\s+women|women\s+and\s+men|males?\s+and\s+females?|genders)\b/i,
  // ("no entry fee" says free; its "no" is no negation of it)
  // (not "with or without an entry fee", not "no entry fee waivers")
  free: /(?<!\bor\s{1,3})\b(?:no|without(?:\s+an?)?)\s+(?:entry|entrance|admission)\s+(?:fees?|charges?)\b(?!\s+(?:waivers?|refunds?|discounts?))|\bfree\s+(?:of\s+charge|to\s+enter)\b/i,
});
