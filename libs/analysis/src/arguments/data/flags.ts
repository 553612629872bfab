/**
 * Flag tables: negations, synonyms and phrases for the words of a boolean parameter's name.
 * Hand-set (no dev request recorded).
 */
import { lookupTable } from '../../lexicon.js';

/** Negation words before a flag's name ("without trip protection", "no pets"). Source: hand-set. */
export const NEGATIONS = new Set([
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
export const FLAG_SYNONYMS: Record<string, string[]> = lookupTable({
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
export const FLAG_PHRASES: Record<string, RegExp> = lookupTable({
  unisex: /\b(?:both\s+)?(?:men\s+and\s+women|women\s+and\s+men|males?\s+and\s+females?|genders)\b/i,
  // ("no entry fee" says free; its "no" is no negation of it)
  // (not "with or without an entry fee", not "no entry fee waivers")
  free: /(?<!\bor\s{1,3})\b(?:no|without(?:\s+an?)?)\s+(?:entry|entrance|admission)\s+(?:fees?|charges?)\b(?!\s+(?:waivers?|refunds?|discounts?))|\bfree\s+(?:of\s+charge|to\s+enter)\b/i,
});
