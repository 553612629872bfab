/**
 * Scores of values given for several parameters at once and of positions and counts said in words
 * (series.ts): numbers "respectively", numbered parameters and a series, two words joined by "and",
 * plain-word lists, an ordinal position, one result for a superlative. All are hand-set, not yet
 * fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const SERIES_SCORES = scoreGroup('series', {
  wordList: hand(0.3, 'plain words joined by "and"/"or" ("chicken and mushrooms"): only the type ties the list to the parameter', [
    'bfcl:multiple_89',
    'bfcl:simple_python_371',
  ]),
  respectively: hand(1.1, 'parameter names listed together, then as many numbers in the same order ("base and height are 6 and 10")', [
    'bfcl:simple_python_10',
  ]),
  ordinalWords: hand(
    0.6,
    'two numbered string parameters (color1, color2) and the one pair of plain words joined by "and"/"or"/"vs" in the request',
    ['bfcl:simple_python_258', 'bfcl:simple_python_63'],
  ),
  numberedSeries: hand(
    1.05,
    'numbered numeric parameters (num1, num2; first_value, second_value) and the one written series of as many numbers, in order',
    ['bfcl:simple_python_19', 'bfcl:multiple_0'],
  ),
  singleBest: hand(0.5, 'a result count of 1 for "the <superlative> <singular noun>" where the tool\'s name holds that superlative', [
    'bfcl:simple_python_151',
  ]),
  ordinalPosition: hand(0.45, 'an ordinal before a list member\'s word ("the second item") for an index or position parameter', [
    'bfcl:live_multiple_62-24-0',
  ]),
});
