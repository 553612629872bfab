/**
 * How well a request writes one enum value: exact words, stems, prefixes, abbreviations, languages
 * and time zones by name, numerals; memoised per request and per value.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, editDistance, splitIdentifier, squash, stem } from '../text.js';
import { DONTCARE, ENUM_SYNONYMS, LANGUAGE_CODE, LANGUAGE_NAMES, TIME_ZONE_ABBREVIATIONS, TIME_ZONE_REGIONS } from './data/enums.js';
import { ENUM_MATCH_SCORES } from './data/scores/enum-match.js';

/** Per request: each enum value's match (enumScore), shared by every parameter and candidate tool that offers the value. */
const ENUM_MATCHES = new WeakMap<Doc, Map<string, { score: number; start: number; end: number }>>();

/** Most enum values whose match is kept per request (a stream of odd schemas cannot grow it without end). */
const ENUM_MATCHES_LIMIT = 20_000;

/**
 * Matches one enum value against the text; returns a score in [0,1] and where. Memoised per
 * request: a 20,000-character request against five required enums of 60 values takes under 55 ms
 * a call, against 50-270 ms (median 111 ms) when each parameter matches each value again and each
 * value squashes the whole text (tools/mapper/hostile-input.bench.ts).
 */
export function enumScore(value: string, doc: Doc): { score: number; start: number; end: number } {
  let memo = ENUM_MATCHES.get(doc);
  if (!memo) ENUM_MATCHES.set(doc, (memo = new Map()));
  let r = memo.get(value);
  if (r === undefined) {
    r = enumScoreOnce(value, doc);
    if (memo.size >= ENUM_MATCHES_LIMIT) memo.clear();
    memo.set(value, r);
  }
  return r;
}

/** Per request: its tokens indexed for enumScoreOnce (computed once, shared by every enum value). */
interface TokenIndex {
  /** the first token of each distinct lower-case form, in text order */
  distinct: Token[];
  /** token positions by lower-case form and by stem, in text order */
  byLower: Map<string, number[]>;
  byStem: Map<string, number[]>;
  /** the text squashed (squash), for the squashed match; made on first use */
  squashed?: string;
  /** positions, in text order, of the tokens that start with a prefix (the abbreviation match), by prefix */
  startingWith: Map<string, number[]>;
}

const TOKEN_INDEX = new WeakMap<Doc, TokenIndex>();

/** The request's token index (built on first use). */
export function tokenIndex(doc: Doc): TokenIndex {
  let ix = TOKEN_INDEX.get(doc);
  if (!ix) {
    ix = { distinct: [], byLower: new Map(), byStem: new Map(), startingWith: new Map() };
    doc.tokens.forEach((t, i) => {
      let l = ix!.byLower.get(t.lower);
      if (!l) {
        ix!.byLower.set(t.lower, (l = []));
        ix!.distinct.push(t);
      }
      l.push(i);
      let st = ix!.byStem.get(t.stem);
      if (!st) ix!.byStem.set(t.stem, (st = []));
      st.push(i);
    });
    TOKEN_INDEX.set(doc, ix);
  }
  return ix;
}

/** Positions, in text order, where a token's stem is `stemOf` or its lower-case form is `lower`. */
export function positionsOf(ix: TokenIndex, stemOf: string, lower: string): number[] {
  const a = ix.byStem.get(stemOf) ?? [];
  const b = ix.byLower.get(lower) ?? [];
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/** Does an enum word start a token as its abbreviation? Digits abbreviate nothing: "10" does not start "100", another number. */
function abbreviates(word: string, token: string): boolean {
  // (a word ending in a digit, a token going on with one)
  return token.startsWith(word) && !(/\d$/.test(word) && /^\d/.test(token.slice(word.length)));
}

/** Positions, in text order, of the tokens that start with `prefix` (memoised per request and prefix). */
function tokensStartingWith(ix: TokenIndex, prefix: string): number[] {
  let starts = ix.startingWith.get(prefix);
  if (starts === undefined) {
    starts = ix.distinct
      .filter((t) => t.lower.startsWith(prefix))
      .flatMap((t) => ix.byLower.get(t.lower)!)
      .sort((x, y) => x - y);
    ix.startingWith.set(prefix, starts);
  }
  return starts;
}

/** An enum value's words, their stems and its squashed form (valueWords). */
interface ValueWords {
  words: readonly string[];
  stems: readonly string[];
  squashed: string;
}

/** Enum values' words, by value (bounded like ENUM_MATCHES: values repeat across requests and tools). */
const VALUE_WORDS = new Map<string, ValueWords>();

/**
 * Longest value VALUE_WORDS keeps, so it holds at most ENUM_MATCHES_LIMIT × this many characters
 * of values (about 12 MB at worst; the eval corpus's longest enum value has 100 characters, most
 * far fewer).
 */
const VALUE_WORDS_MAX_CHARS = 64;

/** A value's words (splitIdentifier), their stems and its squashed form: made once per value (up to VALUE_WORDS_MAX_CHARS), not per request. */
function valueWords(value: string): ValueWords {
  let r = VALUE_WORDS.get(value);
  if (r === undefined) {
    const words = splitIdentifier(value);
    r = { words, stems: words.map((w) => stem(w)), squashed: squash(value) };
    if (value.length <= VALUE_WORDS_MAX_CHARS) {
      if (VALUE_WORDS.size >= ENUM_MATCHES_LIMIT) VALUE_WORDS.clear();
      VALUE_WORDS.set(value, r);
    }
  }
  return r;
}

/** enumScore without the memo (scans distinct words and indexed positions, not every token for every value). */
function enumScoreOnce(value: string, doc: Doc): { score: number; start: number; end: number } {
  const ix = tokenIndex(doc);
  // a language code ("fr", "es-ES", "zh_CN") written as the language's English name
  const code = LANGUAGE_CODE.exec(value);
  const names = code ? LANGUAGE_NAMES[code[1].toLowerCase()] : undefined;
  if (names)
    for (const t of ix.distinct)
      if (names.includes(t.lower)) return { score: ENUM_MATCH_SCORES.languageName.v, start: t.start, end: t.end };
  // an IANA time zone ("Europe/London", "America/New_York") named by its city ("London time")
  const tz = /^(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/(?:[A-Za-z_]+\/)?([A-Za-z_]+)$/.exec(value);
  if (tz) {
    const city = tz[1].toLowerCase().split('_');
    for (const i of ix.byLower.get(city[0]) ?? []) {
      if (i + city.length <= doc.tokens.length && city.every((w, j) => doc.tokens[i + j].lower === w))
        return { score: ENUM_MATCH_SCORES.timeZoneCity.v, start: doc.tokens[i].start, end: doc.tokens[i + city.length - 1].end };
    }
    // or by an abbreviation written in capitals ("4pm EST"; a two-letter one, "9:00 PT", right
    // after a clock time only; never one with an offset, "GMT+5:30") or a region's name before
    // "time" ("Pacific time"): weaker than a city the request names ("Berlin? CET I think")
    for (const t of ix.distinct) {
      const zone =
        TIME_ZONE_ABBREVIATIONS[t.text] ?? (/^\s+time\b/i.test(doc.text.slice(t.end, t.end + 6)) ? TIME_ZONE_REGIONS[t.lower] : undefined);
      if (zone === undefined || !zone.includes(value) || /^\s*[+-−]\s*\d/.test(doc.text.slice(t.end, t.end + 3))) continue;
      // (an abbreviation only right after a clock time, "4pm EST", "9:00 PT": "the PST archive",
      // "SGT Miller", "the HST return" name no zone)
      if (/^[A-Z]+$/.test(t.text) && !/(?:\d:\d\d|\d\s*[ap]\.?m\.?)\s*$/i.test(doc.text.slice(Math.max(0, t.start - 12), t.start)))
        continue;
      return { score: ENUM_MATCH_SCORES.timeZoneAbbreviation.v, start: t.start, end: t.end };
    }
  }
  const { words, stems, squashed: sq } = valueWords(value);
  if (words.length === 0) return { score: 0, start: -1, end: -1 };
  const toks = doc.tokens;
  // contiguous phrase match on stems (only where every word is written somewhere: most values of a
  // long enum are not, and scanning each occurrence of a common first word for each value costs
  // values × occurrences, 11 s for 10,000 values and 2,000 occurrences)
  const everyWordWritten = stems.every((st, j) => ix.byStem.has(st) || ix.byLower.has(words[j]));
  for (const i of everyWordWritten ? positionsOf(ix, stems[0], words[0]) : []) {
    if (i + stems.length > toks.length) break;
    let ok = true;
    for (let j = 0; j < stems.length; j++)
      if (toks[i + j].stem !== stems[j] && toks[i + j].lower !== words[j]) {
        ok = false;
        break;
      }
    if (ok) {
      const written = toks[i].text;
      // a stop word, or a short all-lower-case word as written ("in", "on"), is weak evidence
      const common = stems.length === 1 && (STOP_WORDS.has(words[0]) || (words[0].length <= 2 && /^[a-z]+$/.test(written)));
      // (the words as written outrank a shared stem: "Anime" is "Anime", not "Animation")
      const asWritten = words.every((w, j) => toks[i + j].lower === w);
      return {
        score: common ? ENUM_MATCH_SCORES.commonWord.v : asWritten ? ENUM_MATCH_SCORES.phraseAsWritten.v : ENUM_MATCH_SCORES.phraseByStem.v,
        start: toks[i].start,
        end: toks[i + stems.length - 1].end,
      };
    }
  }
  // squashed match ("e-mail" vs "email", "Sci-fi" vs "scifi"), not where the value's digits run on
  // in the text's: "node1" in "node16" ("node 16") is another number, not "node_1"
  if (sq.length >= 4) {
    const text = (ix.squashed ??= squash(doc.text));
    const digitAt = (i: number): boolean => i >= 0 && i < text.length && text[i] >= '0' && text[i] <= '9';
    for (let at = text.indexOf(sq); at >= 0; at = text.indexOf(sq, at + 1))
      if (!(digitAt(at) && digitAt(at - 1)) && !(digitAt(at + sq.length - 1) && digitAt(at + sq.length)))
        return { score: ENUM_MATCH_SCORES.squashed.v, start: -1, end: -1 };
  }
  // near spelling of a single long word
  if (stems.length === 1 && words[0].length >= 5) {
    // (a function word is no misspelling: "would" is not "World")
    for (const t of ix.distinct)
      if (t.lower.length >= 4 && !STOP_WORDS.has(t.lower) && editDistance(t.lower, words[0], 1) <= 1)
        return { score: ENUM_MATCH_SCORES.nearSpelling.v, start: t.start, end: t.end };
  }
  // all content words present, not contiguous
  const content = stems.filter((s, i) => !STOP_WORDS.has(words[i]));
  if (content.length >= 2) {
    const have = content.filter((c) => ix.byStem.has(c)).length;
    if (have === content.length) return { score: ENUM_MATCH_SCORES.allContentWords.v, start: -1, end: -1 };
  }
  // abbreviation of consecutive words ("Sci-fi" for "science fiction"): each enum word starts the next token
  if (words.length >= 2 && words[0].length >= 2) {
    // (the positions of every word that starts like the first, in text order; none unless every
    // word of at least 2 letters starts some token, as for the phrase match above)
    const possible = words.every((w) => w.length >= 2 && tokensStartingWith(ix, w).length > 0);
    for (const i of possible ? tokensStartingWith(ix, words[0]) : []) {
      if (i + words.length > toks.length) break;
      let ok = true;
      for (let j = 0; j < words.length; j++)
        if (!(abbreviates(words[j], toks[i + j].lower) && words[j].length >= 2)) {
          ok = false;
          break;
        }
      // (as strong as a near spelling once weighed: an optional enum takes it on its own)
      if (ok) return { score: ENUM_MATCH_SCORES.abbreviation.v, start: toks[i].start, end: toks[i + words.length - 1].end };
    }
  }
  // verbs that name the same action ("remove" for "delete")
  if (words.length === 1) {
    const syn = ENUM_SYNONYMS[words[0]];
    if (syn)
      for (const t of ix.distinct)
        if (syn.includes(t.lower) || syn.includes(t.stem)) return { score: ENUM_MATCH_SCORES.actionSynonym.v, start: t.start, end: t.end };
  }
  // a long single word sharing its first 6 letters with a token ("Comedy"/"comic" no; "counselor"/"counseling" yes)
  if (words.length <= 2) {
    const key = words[words.length - 1];
    if (key.length >= 6)
      for (const t of ix.distinct)
        if (t.lower.length >= 6 && t.lower.slice(0, 6) === key.slice(0, 6))
          return {
            score: words.length === 1 ? ENUM_MATCH_SCORES.sharedPrefixOneWord.v : ENUM_MATCH_SCORES.sharedPrefixTwoWords.v,
            start: t.start,
            end: t.end,
          };
  }
  // part of a multi-word value
  if (content.length >= 2) {
    const have = content.filter((c) => (ix.byStem.get(c) ?? []).some((i) => !STOP_WORDS.has(toks[i].lower))).length;
    if (have > 0) return { score: ENUM_MATCH_SCORES.partOfValue.v * (have / content.length), start: -1, end: -1 };
  }
  return { score: 0, start: -1, end: -1 };
}

/**
 * A required enum that no value matches in full, read from one word of a multi-word value that
 * no other value has, written right beside a word of the parameter's own name or description:
 * "a Family Therapist" for "Family Counselor" among "Psychologist", "Family Counselor",
 * "Psychiatrist" (described as "the type of therapist"); "the turing project" for project_name
 * "turing-machine". Undefined unless exactly one value has such a word in the request: a word
 * alone says too little ("the first available flight" is no "First Class", "my family trip" no
 * "Family Suite"). Weak evidence (kind 'enum-partial'): it fills a required parameter only.
 */
export function distinctiveEnumWord(p: ParamInfo, doc: Doc): { value: string; start: number; end: number } | undefined {
  const { allWords, distinct } = enumWords(p.enumValues!);
  // words that say what the parameter is: its name's and its description's content words
  const own = (st: string, lower: string): boolean =>
    !STOP_WORDS.has(lower) && !allWords.has(st) && (p.anchors.includes(st) || p.descStems.has(st));
  // (beside it: only spaces or a hyphen between, "family therapist", "turing project")
  const beside = (tk: Token, nb: Token | undefined): boolean =>
    nb !== undefined &&
    own(nb.stem, nb.lower) &&
    /^[\s-]*$/.test(nb.index < tk.index ? doc.text.slice(nb.end, tk.start) : doc.text.slice(tk.end, nb.start));
  // (or standing alone for the value after a determiner, at the end of its clause: "using my
  // debit." for "debit card"; not "my family trip", where it only qualifies the next word)
  // (after a word of using it: "using my debit." — not "to grow my business.", "visiting my family.")
  const alone = (tk: Token): boolean =>
    ['my', 'the', 'a', 'an', 'your', 'our', 'his', 'her', 'their'].includes(doc.tokens[tk.index - 1]?.lower ?? '') &&
    ['using', 'use', 'with', 'via', 'through', 'by', 'from', 'on'].includes(doc.tokens[tk.index - 2]?.lower ?? '') &&
    /^\s*(?:$|[.,;!?])/.test(doc.text.slice(tk.end));
  let found: { value: string; start: number; end: number } | undefined;
  for (const { value, words } of distinct) {
    for (const w of words) {
      const t = doc.tokens.find(
        (tk) =>
          tk.stem === w &&
          !STOP_WORDS.has(tk.lower) &&
          (beside(tk, doc.tokens[tk.index - 1]) || beside(tk, doc.tokens[tk.index + 1]) || alone(tk)),
      );
      if (!t) continue;
      if (found && found.value !== value) return undefined;
      found = { value, start: t.start, end: t.end };
    }
  }
  return found;
}

/** An enum's words as distinctiveEnumWord reads them (enumWords). */
interface EnumWords {
  /** the stems of every content word of every string value */
  allWords: ReadonlySet<string>;
  /** each string value of two content words or more (no DONTCARE), in order, with its stems no other value has */
  distinct: readonly { value: string; words: readonly string[] }[];
}

/**
 * Per enum (its values' array, the schema's own): its words (enumWords), read once. Like
 * paramsOf's cache, it takes a schema as immutable (a snapshot's is): an enum edited in place
 * keeps its first reading.
 */
const ENUM_WORDS = new WeakMap<readonly unknown[], EnumWords>();

/**
 * The part of distinctiveEnumWord that reads the enum alone, made once per enum: each string
 * value's content words (three letters or more, no stop word) as stems, and those no other value
 * has. Finding them is quadratic in the enum's words, so done per request it would make a large
 * enum costly on every request.
 */
function enumWords(values: readonly unknown[]): EnumWords {
  const cached = ENUM_WORDS.get(values);
  if (cached) return cached;
  const strs = values.filter((v): v is string => typeof v === 'string');
  const wordsOf = strs.map((v) =>
    splitIdentifier(v)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
      .map((w) => stem(w)),
  );
  const count = new Map<string, number>();
  for (const ws of wordsOf) for (const w of new Set(ws)) count.set(w, (count.get(w) ?? 0) + 1);
  const distinct: { value: string; words: string[] }[] = [];
  strs.forEach((value, i) => {
    if (wordsOf[i].length < 2 || DONTCARE.has(value.toLowerCase())) return;
    const words = wordsOf[i].filter((w) => count.get(w) === 1);
    if (words.length > 0) distinct.push({ value, words });
  });
  const out: EnumWords = { allWords: new Set(count.keys()), distinct };
  ENUM_WORDS.set(values, out);
  return out;
}
