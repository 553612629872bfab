/**
 * Scores of codes.ts: a code a parameter's description explains ("'1' for cleaning"), a musical
 * key, and a currency code, by where it is written among the request's other currencies. A
 * currency parameter is a target when its name says so (to, target, destination, into, ...);
 * any other currency parameter is read as the source.
 */
import { hand, scoreGroup } from '../../scores.js';

/** Scores of the codes, musicKey and currency kinds. */
export const CODE_SCORES = scoreGroup('codes', {
  describedCode: hand(0.75, "a numeric code whose meaning the description explains ('1' for cleaning) and the request writes", [
    'bfcl:live_multiple_928-191-16',
  ]),
  musicKey: hand(0.65, "a musical key written before its mode ('C# minor') for a key parameter of music", [
    'bfcl:simple_python_299',
    'bfcl:multiple_169',
  ]),
  onlyCurrency: hand(0.6, 'the one currency the request writes, for a currency parameter'),
  currencyInOrder: hand(
    0.6,
    'of several currencies, the one where the parameter expects it: the last for a target (to, into), the first for a source',
  ),
  currencyOutOfOrder: hand(0.35, 'of several currencies, one not where the parameter expects it'),
  targetAfterTo: hand(0.25, "of several currencies, one after 'to', 'into', 'in' or 'for' (no amount beside it), for a target"),
  sourceAfterToPenalty: hand(0.2, "penalty: of several currencies, one after 'to', 'into', 'in' or 'for', for a source"),
  sourceWrittenAsTargetPenalty: hand(
    0.3,
    "penalty: for a source, a currency written elsewhere after 'to' or 'into' (the target), when several are written",
  ),
});
