/**
 * Scores of the place value kinds (places.ts): an administrative area written with its kind. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const PLACE_SCORES = scoreGroup('places', {
  areaWithKind: hand(
    1.3,
    'a name written with the kind of area it is ("Chatuchak District") for the parameter named by that kind: above a place or name next to the parameter\'s word',
    ['bfcl:live_simple_180-105-0', 'bfcl:live_simple_181-106-0', 'bfcl:live_simple_188-113-0'],
  ),
});
