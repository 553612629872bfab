/**
 * Scores of mapObject's own steps (map-object.ts): the evidence score of an argument taken from the
 * context, from a name=value pair, by position or from a default; the least score an optional
 * parameter's candidate needs; and the cuts that decide a lenient nested object and a parameter
 * the request mentions. All are hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const MAP_OBJECT_SCORES = scoreGroup('mapObject', {
  contextNamed: hand(1, 'the context object names the parameter and holds a value of its type (or an object for it)'),
  pairWritten: hand(0.95, 'the request writes the parameter as name=value or "name: value"'),
  phraseOverItsName: hand(
    0.01,
    'a free text\'s phrase is put this much above a name candidate it opens with that scores as much or more ("body See you at noon")',
  ),
  optionalMin: hand(0.5, 'threshold: the least candidate score that fills an optional parameter'),
  lenientOneClearCue: hand(
    0.5,
    'threshold: a required object that marks none of its properties required, with one value only, keeps it only if its score reaches this',
  ),
  objectWithoutEvidence: hand(
    0.3,
    'a nested object whose filled properties carry no evidence score (its own score is the least of theirs)',
  ),
  positionalFit: hand(
    0.5,
    'numbers left over, exactly as many as the unfilled numeric required parameters, each fitting its parameter in reading order',
  ),
  readingOrder: hand(0.2, 'a number left over for a numeric required parameter in reading order, without a one-to-one fit'),
  schemaDefault: hand(0.3, 'a required parameter no rule filled takes its schema default'),
  describedDefault: hand(0.25, 'a required parameter no rule filled takes the default its description states in words'),
  flagDefault: hand(0.3, 'a required boolean no rule filled is false'),
  enumNoPreference: hand(0.3, 'a required enum no rule filled takes its value meaning no preference ("any", "dontcare")'),
  mentionedNameMin: hand(
    1,
    'threshold: the least name-hit weight (anchorHits) at which an optional parameter left empty counts as mentioned (mentionedUnfilled)',
  ),
});
