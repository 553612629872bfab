/**
 * Flag tables: negations and synonyms for the words of a boolean parameter's name.
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
});
