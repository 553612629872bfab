/**
 * Value kind "codes": codes a description explains ("'1' for cleaning"), currency codes, musical
 * keys.
 */
import { type Doc, tokenAt } from '../extract.js';
import { CURRENCIES } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, stem } from '../text.js';
import { MUSIC_KEY_PARTS } from './data/enums.js';
import { CODE_SCORES } from './data/scores/codes.js';
import { CODE_FILLER } from './data/words.js';
import { every, stringParam } from './dispatch.js';
import { positionsOf, tokenIndex } from './enum-match.js';
import { coerce } from './map.js';
import { type Cand, type ValueKindModule } from './types.js';

/** Currency codes written in the text, in order. */
export function currencyMentions(doc: Doc): { code: string; start: number; end: number }[] {
  const out: { code: string; start: number; end: number }[] = [];
  const keys = Object.keys(CURRENCIES).sort((a, b) => b.length - a.length);
  const taken: [number, number][] = [];
  for (const k of keys) {
    let from = 0;
    for (;;) {
      const at = doc.lower.indexOf(k, from);
      if (at < 0) break;
      from = at + k.length;
      const before = at === 0 ? ' ' : doc.lower[at - 1];
      const after = doc.lower[at + k.length] ?? ' ';
      // whole words only (symbols excepted)
      if (/\w/.test(k) && (/[\p{L}\p{N}]/u.test(before) || /[\p{L}]/u.test(after))) continue;
      if (taken.some(([a, b]) => at < b && a < at + k.length)) continue;
      taken.push([at, at + k.length]);
      out.push({ code: CURRENCIES[k], start: at, end: at + k.length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** A negation right before a word (one word may come between): "not ironing", "no massage", "without a pool". */
const NEGATED_BEFORE = /\b(?:not|no|without|except|excluding|exclude)\s+(?:[\p{L}'’]+\s+)?$/iu;

/** One code a parameter's description explains ("'1' for cleaning"), as codeMeanings reads it. */
interface CodeMeaning {
  /** the code as written ("1") */
  code: string;
  /** the meaning's words as written, fillers left out ("cleaning"; "Group", "A") */
  written: string[];
  /** those words in lower case, and their stems */
  words: string[];
  stems: string[];
}

/** Per property schema: the codes its parameter's description explains (codeMeanings), with that description. */
const CODE_MEANINGS = new WeakMap<object, { description: string; meanings: readonly CodeMeaning[] }>();

/**
 * The numeric codes a parameter's description explains, in order, each code once: the part of
 * codeCandidates that reads the parameter alone, made once per parameter (a description is
 * bounded only by the schema's size, and every request of every candidate tool read it again).
 */
function codeMeanings(p: ParamInfo): readonly CodeMeaning[] {
  // (kept with the property's schema, so it lives as long as the snapshot that holds it; a copy
  // of p made with another description reads its own)
  const key: object | undefined = typeof p.schema === 'object' && p.schema !== null ? p.schema : undefined;
  const cached = key && CODE_MEANINGS.get(key);
  if (cached?.description === p.description) return cached.meanings;
  const re =
    /['"]?(\d{1,4})['"]?\s*(for|represents|means|stands for|corresponds to|refers to|to|is|=|:)\s+([\p{L}][\p{L} '-]{1,40}?)(?=\s*(?:[,.;)]|\band\b|\bor\b|$))/giu;
  const out: CodeMeaning[] = [];
  const seen = new Set<string>();
  let m: RegExpExecArray | null;
  while ((m = re.exec(p.description)) !== null) {
    // "N to ..." is a range, not a code, after "from"/"between" or before a quantity ("2 to many")
    if (
      m[2].toLowerCase() === 'to' &&
      (/\b(from|between)\s*['"]?$/i.test(p.description.slice(Math.max(0, m.index - 10), m.index)) ||
        /^(many|more|any|all|unlimited|infinity|infinite|max|maximum|several|few|none)\b/i.test(m[3]))
    )
      continue;
    // (a capital letter after a word labels it, "Group A", "Plan B": no article; it must be
    // written so, right after that word)
    const written = m[3]
      .split(/[\s-]+/)
      .filter((w, k) => w && ((k > 0 && /^[A-Z]$/.test(w)) || (!CODE_FILLER.has(w.toLowerCase()) && !STOP_WORDS.has(w.toLowerCase()))));
    const words = written.map((w) => w.toLowerCase());
    if (words.length === 0 || words.length > 4 || seen.has(m[1])) continue;
    seen.add(m[1]);
    out.push({ code: m[1], written, words, stems: words.map((w) => stem(w)) });
  }
  if (key !== undefined && cached === undefined) CODE_MEANINGS.set(key, { description: p.description, meanings: out });
  return out;
}

/** Per enum (its values' array): enumCodes' reading, made once. */
const ENUM_CODES = new WeakMap<readonly unknown[], ReadonlyMap<string, unknown> | null>();

/**
 * An enum of numbers or digit strings only, as its values by their written form (the first of
 * each: `find` by `String(v)`); undefined for any other enum. Made once per enum: with each code
 * searching the values, 2,000 codes against an enum of 2,000 numbers cost about 23 ms a request.
 */
function enumCodes(values: readonly unknown[]): ReadonlyMap<string, unknown> | undefined {
  let m = ENUM_CODES.get(values);
  if (m === undefined) {
    const numeric = values.every((v) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)));
    const table = new Map<string, unknown>();
    if (numeric) for (const v of values) if (!table.has(String(v))) table.set(String(v), v);
    ENUM_CODES.set(values, (m = numeric ? table : null));
  }
  return m ?? undefined;
}

/**
 * Numeric codes a parameter's description explains ("'1' for cleaning, '2' for ironing",
 * "1 represents Bangkok"): the code whose meaning is written in the request, as a candidate.
 */
function codeCandidates(p: ParamInfo, doc: Doc): Cand[] {
  const codes = p.enumValues && p.enumValues.length > 0 ? enumCodes(p.enumValues) : undefined;
  if (!(p.type === 'integer' || p.type === 'number' || codes !== undefined) || !p.description) return [];
  const out: Cand[] = [];
  const ix = tokenIndex(doc);
  for (const { code, written, words, stems } of codeMeanings(p)) {
    const raw = codes !== undefined ? codes.get(code) : Number(code);
    if (raw === undefined) continue;
    const value = codes !== undefined ? raw : coerce(raw, p);
    if (value === undefined) continue;
    // each word's first token in the request (by stem or as written); a label letter, the token
    // right after its word's
    const at: (Token | undefined)[] = [];
    for (let j = 0; j < words.length; j++) {
      if (j > 0 && /^[A-Z]$/.test(written[j])) {
        const next = at[j - 1] && doc.tokens[at[j - 1]!.index + 1];
        at.push(next && next.text === written[j] ? next : undefined);
      } else at.push(doc.tokens[positionsOf(ix, stems[j], words[j])[0]]);
    }
    if (at.some((t) => t === undefined)) continue;
    // (a meaning the request rules out names no code: "cleaning, not ironing", "no massage")
    if (NEGATED_BEFORE.test(doc.text.slice(Math.max(0, at[0]!.start - 24), at[0]!.start))) continue;
    // a code names what the words name without using them up: "Bangkok" still fills a city
    // parameter; but a lettered label is the code's own name ("in Group B" is no district)
    const lettered = written.length > 1 && /^[A-Z]$/.test(written[written.length - 1]);
    out.push({
      param: p,
      value,
      score: CODE_SCORES.describedCode.v,
      ranges: lettered ? [[at[0]!.start, at[at.length - 1]!.end]] : [],
      kind: 'code',
    });
  }
  return out;
}

/** Value kind "codes": codes a parameter's description explains ("'1' for cleaning"), for every parameter. */
export const CODES_KIND: ValueKindModule = {
  name: 'codes',
  serves: every,
  propose(p, doc, ctx, out) {
    out.push(...codeCandidates(p, doc));
  },
};

/** Value kind "musicKey": a musical key ("C# minor" → "C#"). */
export const MUSIC_KEY_KIND: ValueKindModule = {
  name: 'musicKey',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a musical key for a key parameter: "C major", "C# minor", "C sharp major" -> "C", "C#"
    // (only where the description speaks of music: an API key or a dictionary key takes no "A major")
    if (
      MUSIC_KEY_PARTS.has(p.parts.join('_')) &&
      /\b(music|musical|scale|chord|note|notes|tonic|melody|song|major|minor|signature)\b/i.test(p.description)
    ) {
      for (const m of doc.text.matchAll(/\b([A-G])(#|♯|b|♭|\s+sharp|\s+flat)?\s+(?:major|minor|maj|min)\b/g)) {
        const acc = m[2] === undefined ? '' : /#|♯|sharp/.test(m[2]) ? '#' : 'b';
        out.push({
          param: p,
          value: m[1] + acc,
          score: CODE_SCORES.musicKey.v,
          ranges: [[m.index, m.index + m[1].length + (m[2]?.length ?? 0)]],
          kind: 'music-key',
        });
      }
    }
  },
};

/** Value kind "currency": currency codes, the one converted from or to. */
export const CURRENCY_KIND: ValueKindModule = {
  name: 'currency',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    if (p.semantic === 'currency') {
      const cms = currencyMentions(doc);
      // name words of the currency converted into
      const later = /\b(to|target|destination|quote|into|output|desired)\b/.test(p.parts.join(' '));
      // codes written after "to"/"into" somewhere: the target, whatever amount is written with them
      // elsewhere ("Convert my EUR to USD, I need at least 100 USD" converts from EUR)
      const severalCodes = new Set(cms.map((x) => x.code)).size > 1;
      const prevWords = cms.map((c) => doc.tokens[tokenAt(doc, c.start) - 1]?.lower ?? '');
      const targets = new Set(cms.filter((_, i) => ['to', 'into'].includes(prevWords[i])).map((c) => c.code));
      cms.forEach((c, i) => {
        let posScore =
          cms.length === 1
            ? CODE_SCORES.onlyCurrency.v
            : later
              ? i === cms.length - 1
                ? CODE_SCORES.currencyInOrder.v
                : CODE_SCORES.currencyOutOfOrder.v
              : i === 0
                ? CODE_SCORES.currencyInOrder.v
                : CODE_SCORES.currencyOutOfOrder.v;
        // (a currency written with the amount, "500 US dollars", "$200", is not one named after "to")
        const withAmount = doc.spans.some(
          (n) =>
            n.kind === 'number' &&
            ((n.end <= c.start && /^\s*$/.test(doc.text.slice(n.end, c.start))) ||
              (n.start >= c.end && /^\s*$/.test(doc.text.slice(c.end, n.start)) && c.end - c.start === 1)),
        );
        const toWord = ['to', 'into', 'in', 'for'].includes(prevWords[i]) && !withAmount;
        if (cms.length > 1 && toWord) posScore += later ? CODE_SCORES.targetAfterTo.v : -CODE_SCORES.sourceAfterToPenalty.v;
        if (!later && !toWord && targets.has(c.code) && severalCodes) posScore -= CODE_SCORES.sourceWrittenAsTargetPenalty.v;
        out.push({ param: p, value: c.code, score: posScore, ranges: [[c.start, c.end]], kind: 'currency' });
      });
    }
  },
};
