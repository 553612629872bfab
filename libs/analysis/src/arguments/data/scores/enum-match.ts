/**
 * Scores of enum-match.ts: how well a request writes one enum value (enumScore), by the way it is
 * written, from the words as written down to a part of a multi-word value. Each is the match's
 * score in [0, 1]; the enum kinds weigh it further (data/scores/enums.ts, data/scores/arrays.ts).
 */
import { hand, scoreGroup } from '../../scores.js';

/** Scores of enumScore, by the kind of match. */
export const ENUM_MATCH_SCORES = scoreGroup('enumMatch', {
  languageName: hand(0.8, "a language code's value written as the language's English name ('french' for 'fr')"),
  timeZoneCity: hand(0.75, "an IANA time zone named by its city ('London time' for Europe/London)", ['bfcl:live_simple_138-91-0']),
  timeZoneAbbreviation: hand(
    0.7,
    "an IANA time zone named by an abbreviation after a clock time ('4pm EST') or a region before 'time'; weaker than its city",
    ['bfcl:live_multiple_224-98-0'],
  ),
  commonWord: hand(0.35, 'a one-word value that is a stop word or a short lower-case word as written: weak evidence'),
  phraseAsWritten: hand(0.92, "the value's words written in a row, each as the value writes it"),
  phraseByStem: hand(0.9, "the value's words written in a row, some only by a shared stem"),
  squashed: hand(0.75, "the value written without its spaces or hyphens ('email' for 'e-mail')"),
  nearSpelling: hand(0.6, 'a long one-word value written one edit away (a misspelling)'),
  allContentWords: hand(0.6, 'every content word of the value written, but not in a row'),
  abbreviation: hand(0.7, "each word of the value starting consecutive words of the request ('Sci-fi' for 'science fiction')"),
  actionSynonym: hand(0.55, "a verb that names the same action as a one-word value ('remove' for 'delete')"),
  sharedPrefixOneWord: hand(0.5, 'a one-word value sharing its first six letters with a word of the request'),
  sharedPrefixTwoWords: hand(0.45, 'a two-word value whose last word shares its first six letters with a word of the request'),
  partOfValue: hand(0.3, "part of a multi-word value's content words written: this times the share of them written"),
});
