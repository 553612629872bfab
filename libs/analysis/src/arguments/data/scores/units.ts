/**
 * Scores of the unit value kinds (units.ts): the units of a conversion ("How many ounces in 2
 * pounds") and the thing an amount measures ("3 cups of flour"). Each is the whole score of a
 * candidate of its kind. All are hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const UNIT_SCORES = scoreGroup('units', {
  compoundUnitAskedAtEnd: hand(
    0.55,
    'a compound unit ending the request ("… in grams/mole") for the unit converted into, where no single unit is asked for',
    ['bfcl:simple_python_59'],
  ),
  conversionUnitOfRole: hand(
    0.65,
    'the one unit of the parameter\'s role in a conversion of one kind of quantity ("ounces" of "how many ounces in 2 pounds")',
    ['bfcl:simple_python_365'],
  ),
  thingAfterUnitOf: hand(0.5, 'the one thing an amount of a unit measures ("2 pounds of butter" → "butter") for an item parameter', [
    'bfcl:simple_python_365',
  ]),
  thingOfProperty: hand(0.5, 'the one thing a physical property is asked of ("the density of iron" → "iron") for an item parameter', [
    'bfcl:simple_python_47',
  ]),
});
