/**
 * Scores of the "kindNamed" value kind (identifiers.ts): a name or identifier written beside the
 * word for the thing it names, for a parameter described as that thing's name or identifier. Weak
 * evidence: it fills a parameter that is needed, never an optional one. Hand-set, not yet fitted
 * (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const IDENTIFIER_SCORES = scoreGroup('identifiers', {
  nameBeforeKind: hand(0.45, 'a determiner, one word and the thing\'s word ("the bandana project" → bandana)'),
  nameAfterKind: hand(
    0.45,
    'the thing\'s word, at most one word and an ID/name label, then one word ending the clause ("project ID badae" → badae)',
  ),
});
