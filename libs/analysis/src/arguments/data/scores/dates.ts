/**
 * Scores of the date and time value kinds (dates.ts): a year written with an apostrophe, the end
 * of a period from its start and a duration, the year of a written date. Hand-set, not yet fitted
 * (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const DATE_SCORES = scoreGroup('dates', {
  apostropheYear: hand(0.5, 'a year written with an apostrophe after "from", "in", "since"… ("songs from \'19") for a year parameter', [
    'bfcl:live_multiple_341-133-5',
  ]),
  endFromDuration: hand(
    0.5,
    'the end of a period from the one date, clock time and duration the request gives, for an end date-time parameter',
    ['bfcl:live_multiple_977-215-1'],
  ),
  yearOfDate: hand(0.3, 'the year of a date written in the request (not a relative date) for a year parameter, before its anchor bonus'),
});
