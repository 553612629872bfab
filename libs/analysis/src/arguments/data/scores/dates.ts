/**
 * Scores of the date and time value kinds (dates.ts): a date range in the form the description
 * asks, a year written with an apostrophe, the end of a period from its start and a duration, an
 * hour of the clock, a month written by name, the year of a written date. Hand-set, not yet fitted
 * (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const DATE_SCORES = scoreGroup('dates', {
  dateRange: hand(0.9, 'two dates joined by "to", "until" or a dash, for a text parameter whose description formats it as a date range', [
    'bfcl:live_multiple_18-4-10',
  ]),
  apostropheYear: hand(0.5, 'a year written with an apostrophe after "from", "in", "since"… ("songs from \'19") for a year parameter', [
    'bfcl:live_multiple_341-133-5',
  ]),
  endFromDuration: hand(
    0.5,
    'the end of a period from the one date, clock time and duration the request gives, for an end date-time parameter',
    ['bfcl:live_multiple_977-215-1'],
  ),
  clockHour: hand(0.55, 'the hour of the one on-the-hour time, said of opening or closing, for an integer hour in 24-hour form', [
    'bfcl:simple_python_35',
  ]),
  monthByName: hand(0.6, 'a month written by name ("February 2022" → 2) for a month number', ['bfcl:live_multiple_1022-251-0']),
  monthNearName: hand(0.3, "multiplier of the anchor bonus of a month name written near the parameter's name", [
    'bfcl:live_multiple_1022-251-0',
  ]),
  yearOfDate: hand(0.3, 'the year of a date written in the request (not a relative date) for a year parameter, before its anchor bonus'),
});
