/**
 * Score thresholds the value-kind modules share (types.ts): the least score a candidate needs to
 * fill a required parameter, or one of two parameters the description says are needed one or the
 * other. An optional parameter's threshold is mapObject's own (data/scores/map-object.ts). All are
 * hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const THRESHOLD_SCORES = scoreGroup('thresholds', {
  requiredMin: hand(0.2, 'threshold: the least candidate score that fills a required parameter (or counts an enum value as offered)'),
  eitherOrMin: hand(
    0.35,
    'threshold: the least candidate score that fills one of two parameters needed one or the other, or a property of a required object that marks none required',
  ),
});
