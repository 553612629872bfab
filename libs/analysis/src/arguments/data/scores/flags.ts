/**
 * Scores of flags.ts: a boolean read from the words of its parameter's name written in the
 * request (flagEvidence), true unless negated.
 */
import { hand, scoreGroup } from '../../scores.js';

/** Scores of flagEvidence, by how many of the name's salient words are written. */
export const FLAG_SCORES = scoreGroup('flags', {
  allNameWords: hand(0.6, "every salient word of a boolean parameter's name written in the request (or a synonym)"),
  someNameWords: hand(0.4, "some, not all, salient words of a boolean parameter's name written in the request"),
});
