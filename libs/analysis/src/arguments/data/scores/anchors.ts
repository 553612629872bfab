/**
 * Scores of anchors.ts: how much a word of the request counts as the parameter's name written
 * (a hit's weight, which multiplies the bonus below), the bonus of a value written next to such a
 * word by the words between them, and the bonus of a value after a range word ("from", "to"). All
 * hand-set when the rules were written; none fitted yet.
 */
import { hand, scoreGroup } from '../../scores.js';

export const ANCHOR_SCORES = scoreGroup('anchors', {
  // hit weights (anchorHits): how surely a word writes the parameter's name
  strongNamePart: hand(1, 'a content word of the parameter name written in the request'),
  reviewScoreWord: hand(0.8, 'a "review score" or "user score" written for a rating parameter', ['bfcl:live_multiple_929-191-17']),
  soleWeakFirstPart: hand(0.8, 'a weak name word that is the first and only anchor of the name'),
  weakNamePart: hand(0.5, 'a weak word of the parameter name (a generic part such as "name", "type")'),
  // anchor bonus (anchorBonus), multiplied by the hit's weight
  nameInsideNameSpan: hand(0.35, 'the parameter name written inside a proper name or quoted span ("Premier League" for league)'),
  nameInsideOtherSpan: hand(0.1, 'the parameter name written inside a span that is no name or quote'),
  nameRightBefore: hand(0.7, 'the value written right after the parameter name, only link words between'),
  nameBeforeAcrossWeakLink: hand(0.55, 'the value after the parameter name with one weak link word between ("cuisine in Seattle")', [
    'bfcl:simple_python_204',
    'bfcl:multiple_146',
  ]),
  nameOneWordBefore: hand(0.45, 'the value after the parameter name with one other word between'),
  nameWordAndWeakLinkBefore: hand(0.35, 'the value after the parameter name with one word and one weak link word between'),
  nameTwoWordsBefore: hand(0.28, 'the value after the parameter name with two words between'),
  nameFewWordsBefore: hand(0.12, 'the value after the parameter name with three or four words between (none beyond)'),
  nameRightAfter: hand(0.6, 'the value written right before the parameter name, only link words between'),
  nameAfterAcrossWeakLink: hand(0.4, 'the value before the parameter name with one weak link word between'),
  nameOneWordAfter: hand(0.3, 'the value before the parameter name with one other word between'),
  nameTwoWordsAfter: hand(0.12, 'the value before the parameter name with two words between (none beyond)'),
  // range words (rangeBonus)
  rangeWordFitsRole: hand(
    0.3,
    'a value after a word that opens ("from", "since") or ends ("to", "until") a range, for the parameter of that end',
  ),
});
