/**
 * Scores of values given for several parameters at once (series.ts): numbered parameters and a
 * series, plain-word lists. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const SERIES_SCORES = scoreGroup('series', {
  wordList: hand(0.3, 'plain words joined by "and"/"or" ("chicken and mushrooms"): only the type ties the list to the parameter', [
    'bfcl:multiple_89',
    'bfcl:simple_python_371',
  ]),
  numberedSeries: hand(
    1.05,
    'numbered numeric parameters (num1, num2; first_value, second_value) and the one written series of as many numbers, in order',
    ['bfcl:simple_python_19', 'bfcl:multiple_0'],
  ),
});
