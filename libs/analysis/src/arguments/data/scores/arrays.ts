/**
 * Scores of arrays.ts: candidate lists for an array parameter (a list literal, enum items, the
 * description's examples, counted items, a series of numbers, quoted values, names, a written
 * list, one value as a one-item list), and the cuts that admit an item.
 */
import { hand, scoreGroup } from '../../scores.js';

/** Scores of the arrays kind. */
export const ARRAY_SCORES = scoreGroup('arrays', {
  listLiteralBase: hand(0.45, "a list literal ('[1, 2, 3]') whose items fit the item schema, before the name's bonus"),
  enumItemMinMatch: hand(0.6, "cut: an item enum's value counts as written from this match score (enumScore) up"),
  enumItems: hand(0.55, "the item enum's values the request writes, as one list"),
  describedExamples: hand(0.55, "the description's examples the request writes as words of their own, not negated, as one list", [
    'bfcl:simple_python_80',
    'bfcl:multiple_115',
    'bfcl:live_simple_119-75-0',
  ]),
  countedItems: hand(0.7, "the items of counted items ('2 burgers and 3 fries' → burgers, fries) for a list of items", [
    'bfcl:simple_python_370',
    'bfcl:simple_python_375',
    'bfcl:live_multiple_63-25-0',
  ]),
  numberSeriesBase: hand(0.35, "numbers written as a series ('3, 5 and 8') for a list of numbers, before the name's bonus"),
  numberSeriesAnchorWeight: hand(0.6, "weight of the parameter's name near a series of numbers"),
  quotedList: hand(0.4, 'every quoted value of the request (two or more), as one list'),
  nameListBase: hand(0.45, "names joined by commas, 'and', '&' or 'vs' ('Lakers and Clippers'), before the name's bonus", [
    'bfcl:multiple_171',
  ]),
  writtenListNameHitMin: hand(0.8, "cut: a written list is read only after a name hit of at least this weight ('tags: a, b and c')"),
  writtenList: hand(0.5, "a written list ('x, y and z') right after the parameter's name"),
  singleItemPenalty: hand(0.1, "penalty: one value of the item kind as a one-item list, below the value's own score"),
});
