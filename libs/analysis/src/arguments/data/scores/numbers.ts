/**
 * Scores of the "numbers" value kind (numbers.ts): what a number span written in the request is
 * worth as the value of an integer or number parameter. A candidate starts at `base`; each cue
 * adds a bonus or takes off a penalty (penalties are written positive and subtracted). All are
 * hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const NUMBER_SCORES = scoreGroup('numbers', {
  base: hand(0.15, 'a number span for a numeric parameter, before any cue'),
  unitAsked: hand(0.45, 'the number carries a unit the parameter asks for (a unit word of its name or description)'),
  readingOrder: hand(0.03, 'tie-break: the n-th plain number of the request for the n-th numeric parameter'),
  insideOtherSpan: hand(
    0.4,
    'penalty: the number lies inside a date, time, quoted span, identifier, path, URL, e-mail or list (none for a date part of a year, month or day parameter)',
  ),
  headCountForPeople: hand(0.45, 'a head count ("for three people", "4 guests") for a parameter that counts people', [
    'bfcl:live_multiple_299-130-8',
  ]),
  countsCountedNoun: hand(0.4, 'the number is followed within four words by the noun the parameter counts ("ten historical events")', [
    'bfcl:simple_python_252',
    'bfcl:simple_python_223',
  ]),
  yearForYearParam: hand(0.35, 'a four-digit year ("from 2022") for a parameter named year, where the request writes one year', [
    'bfcl:live_multiple_340-133-4',
  ]),
});
