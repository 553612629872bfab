/**
 * Scores of the numbers the request implies rather than writes (counts.ts): each is the whole
 * score of a candidate of its kind (a period, the cards of a rank or suit). All are hand-set,
 * not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const COUNT_SCORES = scoreGroup('counts', {
  periodWithoutNumber: hand(0.5, 'one period written without a number ("the next week") in the unit of time the parameter asks for'),
  cardsOfOneRankOrSuit: hand(0.5, 'the cards of the one rank or suit drawn ("a king": 4) for a count of favourable outcomes', [
    'bfcl:simple_python_112',
    'bfcl:multiple_123',
  ]),
});
