/**
 * Scores of the unit value kinds (units.ts): the units of a conversion ("How many ounces in 2
 * pounds") and the thing an amount measures ("3 cups of flour"). Each is the whole score of a
 * candidate of its kind. All are hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const UNIT_SCORES = scoreGroup('units', {
  conversionUnitOfRole: hand(
    0.65,
    'the one unit of the parameter\'s role in a conversion of one kind of quantity ("ounces" of "how many ounces in 2 pounds")',
    ['bfcl:simple_python_365'],
  ),
  thingAfterUnitOf: hand(0.5, 'the one thing an amount of a unit measures ("2 pounds of butter" → "butter") for an item parameter', [
    'bfcl:simple_python_365',
  ]),
});
