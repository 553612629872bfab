/**
 * Scores of the "kindNamed" value kind (identifiers.ts): a name or identifier written beside the
 * word for the thing it names, for a parameter described as that thing's name or identifier. Weak
 * evidence: it fills a parameter that is needed, never an optional one. Hand-set, not yet fitted
 * (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const IDENTIFIER_SCORES = scoreGroup('identifiers', {
  nameBeforeKind: hand(0.45, 'a determiner, one word and the thing\'s word ("the bandana project" → bandana)', [
    'bfcl:live_multiple_253-117-0',
  ]),
  nameAfterKind: hand(
    0.45,
    'the thing\'s word, at most one word and an ID/name label, then one word ending the clause ("project ID badae" → badae)',
    ['bfcl:live_multiple_255-119-0', 'bfcl:live_multiple_1028-256-0'],
  ),
});
