/**
 * Scores of the free-text value kinds (text.ts): the whole request, and the request as a search
 * term. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const TEXT_SCORES = scoreGroup('text', {
  wholeRequest: hand(
    0.21,
    "the whole first line for a required free-text parameter that asks for the user's own words (message, query, input)",
  ),
  searchPhrase: hand(0.3, 'the request without the words that only ask for a search or name the tool, for a query or search parameter', [
    'bfcl:live_multiple_961-205-1',
    'bfcl:live_multiple_11-4-3',
    'bfcl:live_irrelevance_136-13-2',
    'bfcl:live_irrelevance_398-81-59',
    'bfcl:live_multiple_9-4-1',
    'bfcl:live_multiple_239-107-0',
  ]),
});
