/**
 * Scores of enums.ts: the enum kinds' candidates (an enum value written or named, a choice a
 * description quotes, a colour word). An enum value's own match is enumScore's
 * (data/scores/enum-match.ts), weighed here.
 */
import { hand, scoreGroup } from '../../scores.js';

/** Scores of the enums, describedValue and colour kinds. */
export const ENUM_SCORES = scoreGroup('enums', {
  valueSynonym: hand(0.7, "an enum value written as the other word a request uses for it ('scary' for 'horror')"),
  boolLikeEnum: hand(0.1, "bonus over the flag's score for an enum spelled as booleans ('True'/'False') read as a flag"),
  numeralBase: hand(0.3, "a numeral enum value ('4') written as a number in the request, before any cue", [
    'bfcl:live_multiple_477-146-2',
    'bfcl:live_multiple_600-158-6',
    'bfcl:live_multiple_603-158-9',
  ]),
  currencyCode: hand(0.7, 'a currency enum value written as a currency mention (symbol, name or code) in the request'),
  matchWeight: hand(0.8, "weight of the enum value's match score (enumScore) in its candidate's score"),
  anchorWeight: hand(0.3, "weight of the parameter's name near a matched enum value"),
  longerValuePerWord: hand(0.01, 'bonus per extra word of a matched value (up to four): the longer of two values written', [
    'bfcl:live_multiple_503-149-0',
  ]),
  numberValueBase: hand(0.5, 'a number enum value written as a number in the request, before any cue'),
  numberValueAnchorWeight: hand(0.5, "weight of the parameter's name near a number enum value"),
  describedChoice: hand(0.6, "a choice the description quotes ('static' or 'dynamic') written beside a word of the parameter", [
    'bfcl:simple_python_271',
    'bfcl:multiple_162',
    'bfcl:simple_python_212',
    'bfcl:simple_python_23',
  ]),
  colourBase: hand(0.6, 'a colour word for a colour parameter, before any cue', ['bfcl:simple_python_67', 'bfcl:simple_python_261']),
});
