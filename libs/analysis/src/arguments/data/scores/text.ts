/**
 * Scores of the free-text value kinds (text.ts): what an alarm or a reminder is for, the whole
 * request, and the request as a search term. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const TEXT_SCORES = scoreGroup('text', {
  remindMeTo: hand(0.65, 'the clause after "reminding me to" for a purpose or reason parameter'),
  toAfterTime: hand(0.6, 'the clause after "to" right behind the time or date an alarm or reminder is set for, for its purpose parameter'),
  wholeRequest: hand(
    0.21,
    "the whole first line for a required free-text parameter that asks for the user's own words (message, query, input)",
  ),
  searchPhrase: hand(0.3, 'the request without the words that only ask for a search or name the tool, for a query or search parameter'),
});
