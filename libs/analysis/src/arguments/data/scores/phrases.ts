/**
 * Scores of the "phrases" value kind (phrases.ts): the words written after a parameter's name, the
 * description's examples written in the request, and the modifier of a type-like parameter's head
 * noun; and the cuts that decide when a name or an example counts as written. Hand-set, not yet
 * fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const PHRASE_SCORES = scoreGroup('phrases', {
  nameHitMin: hand(
    0.8,
    'threshold: the least name-hit weight (anchorHits) for which the words written after the name are read as its value',
  ),
  explicitLink: hand(0.45, 'a phrase after the name joined by an explicit link ("is", "named", "called", ":", "=", "-")'),
  plainLink: hand(0.3, 'a phrase after the name with no explicit link (after "of", or right after a required parameter\'s name)'),
  nameHitWeight: hand(0.15, "bonus per unit of the name hit's weight: the more fully the name is written, the more its phrase is worth"),
  exampleWrittenMin: hand(
    0.75,
    "threshold: the least match score (enumScore) at which a description's example counts as written in the request",
  ),
  exampleWritten: hand(0.45, 'one of the description\'s examples ("e.g. sculpture") written in the request'),
  exampleNearName: hand(0.4, "multiplier of the anchor bonus of an example written near the parameter's name"),
  modifierWord: hand(0.55, 'one plain word right before the head noun of a type-like parameter\'s name ("single room" for room_type)', [
    'bfcl:simple_python_55',
    'bfcl:simple_python_70',
  ]),
});
