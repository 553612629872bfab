/**
 * Scores of the place value kinds (places.ts): a latitude and longitude pair, an administrative area
 * written with its kind. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const PLACE_SCORES = scoreGroup('places', {
  coordinatePair: hand(0.7, 'one latitude and one longitude written with their labels or hemispheres, for a coordinates array of numbers'),
  areaWithKind: hand(
    1.3,
    'a name written with the kind of area it is ("Chatuchak District") for the parameter named by that kind: above a place or name next to the parameter\'s word',
  ),
});
