/**
 * Scores of the numbers the request implies rather than writes (counts.ts): each is the whole
 * score of a candidate of its kind (a period, a party, a standard deck or die, a stay, a range
 * end, a frequency, a rating fraction, a body at rest), plus the cut on a name hit that a range
 * end needs. All are hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const COUNT_SCORES = scoreGroup('counts', {
  periodWithoutNumber: hand(0.5, 'one period written without a number ("the next week") in the unit of time the parameter asks for'),
  selfAndOthers: hand(0.9, 'a party written as the writer and others ("me and 3 friends") for a count of people: the others plus one', [
    'bfcl:live_multiple_1048-275-0',
  ]),
  standardDeckTotal: hand(
    0.35,
    "a standard deck's 52 cards for a total of cards or outcomes, where a draw is written without a deck size",
    ['bfcl:simple_python_112', 'bfcl:multiple_123'],
  ),
  cardsOfOneRankOrSuit: hand(0.5, 'the cards of the one rank or suit drawn ("a king": 4) for a count of favourable outcomes', [
    'bfcl:simple_python_112',
    'bfcl:multiple_123',
  ]),
  standardDieSides: hand(0.35, "a plain die's 6 sides for a count of sides, where the request writes no other die", ['bfcl:multiple_51']),
  stayLengthFromDates: hand(0.5, 'the days or nights between the two dates of a stay ("August 15th to August 17th") for its length', [
    'bfcl:live_multiple_309-131-8',
  ]),
  rangeEndStrongNameHit: hand(
    0.8,
    "cut: a range-end word counts only beside a name hit of the parameter of at least this weight (a hit's score, from anchors.ts)",
    ['bfcl:live_multiple_946-196-4', 'bfcl:live_multiple_219-94-1'],
  ),
  rangeEndInWords: hand(0.6, 'the end of the range a description states, asked for in words ("at full volume", "minimum brightness")', [
    'bfcl:live_multiple_946-196-4',
    'bfcl:live_multiple_219-94-1',
  ]),
  countPerUnitOfTime: hand(
    0.45,
    'a count per unit of time ("twice a day", "every hour") for a frequency per that unit; kept below what an optional parameter needs',
    ['bfcl:simple_python_74'],
  ),
  ratingAsFraction: hand(0.6, 'a rating written as a fraction of the parameter\'s own scale ("4.5 out of 5") for a rating', [
    'bfcl:simple_python_362',
  ]),
  startsAtRest: hand(0.6, 'an initial speed of 0 for a body that starts at rest or is dropped ("from rest", "dropped from 100 m")', [
    'bfcl:multiple_103',
    'bfcl:simple_python_31',
  ]),
  frequencyWord: hand(0.7, 'the times a year of one compounding or payment frequency word ("compounded quarterly": 4)', [
    'bfcl:simple_python_153',
    'bfcl:parallel_170',
  ]),
});
