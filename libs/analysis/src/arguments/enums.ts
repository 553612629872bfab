/**
 * Value kind "enums": enum values written in the request (or named by a synonym), values a
 * description lists as choices, and colour words.
 */
import { type Doc, tokenAt } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { type Token, contentStems, stem } from '../text.js';
import { anchorBonus, insideName } from './anchors.js';
import { currencyMentions } from './codes.js';
import { COLOR_PARTS, COLOR_WORDS, DONTCARE, NOT_COLOUR_BEFORE, PLAYS_AS_VERB, VALUE_SYNONYMS } from './data/enums.js';
import { NEGATIONS } from './data/flags.js';
import { ENUM_SCORES } from './data/scores/enums.js';
import { apostropheYears } from './dates.js';
import { enumParam, stringParam } from './dispatch.js';
import { distinctiveEnumWord, enumScore } from './enum-match.js';
import { flagEvidence } from './flags.js';
import { safeRegExp } from './identifiers.js';
import { countBonus } from './numbers.js';
import { REQUIRED_MIN_SCORE, type ValueKindModule } from './types.js';

/**
 * An enum value written as the other word a request uses for it (VALUE_SYNONYMS): not after a
 * negation ("nothing funny"), not inside a name of several capitalised words ("Funny Girl"), not
 * before a word that makes it something else ("comic book"), and "plays" only as a noun.
 */
function valueSynonym(value: string, p: ParamInfo, doc: Doc): { score: number; start: number; end: number } | undefined {
  const syn = VALUE_SYNONYMS[value.toLowerCase()];
  if (!syn || !syn.param.test(`${p.parts.join(' ')} ${p.description}`)) return undefined;
  for (const t of doc.tokens) {
    if (!syn.words.includes(t.lower)) continue;
    const prev = doc.tokens[t.index - 1];
    const next = doc.tokens[t.index + 1];
    const negated = (x: Token | undefined): boolean =>
      x !== undefined && (NEGATIONS.has(x.lower) || x.lower === 'nothing' || /n't$/.test(x.lower));
    if (negated(prev) || negated(doc.tokens[t.index - 2])) continue;
    if (next && syn.not?.includes(next.lower)) continue;
    if (t.lower === 'plays' && prev && PLAYS_AS_VERB.has(prev.lower)) continue;
    // (a capitalised word beside another capitalised one, mid-sentence, is part of a name)
    if (
      /^\p{Lu}/u.test(t.text) &&
      ((prev && /^\p{Lu}/u.test(prev.text) && !/[.!?]\s*$/.test(doc.text.slice(0, t.start))) || (next && /^\p{Lu}/u.test(next.text)))
    )
      continue;
    if (doc.spans.some((sp) => sp.kind === 'quoted' && sp.start <= t.start && sp.end >= t.end)) continue;
    return { score: ENUM_SCORES.valueSynonym.v, start: t.start, end: t.end };
  }
  return undefined;
}

/**
 * Colour words of a request that name a colour: never inside a capitalised name ("Red Hot Chili
 * Peppers", "Black Friday"), nor negated ("not black", "except white"), nor before a noun they
 * name a kind of ("orange juice"); none when two different colours are written ("red or blue"),
 * or when the parameter's pattern refuses the word ("^#[0-9a-f]{6}$").
 */
function colourWords(doc: Doc, p: ParamInfo): Token[] {
  const pattern = typeof p.schema['pattern'] === 'string' ? safeRegExp(p.schema['pattern']) : undefined;
  const found: Token[] = [];
  for (const tk of doc.tokens) {
    if (!COLOR_WORDS.has(tk.lower)) continue;
    if (insideName(doc, tk.start, tk.end)) continue;
    const next = doc.tokens[tk.index + 1];
    if (next && NOT_COLOUR_BEFORE.has(next.lower) && /^\s+$/.test(doc.text.slice(tk.end, next.start))) continue;
    const prev = doc.text.slice(Math.max(0, tk.start - 16), tk.start).toLowerCase();
    if (/\b(not|no|except|without|but)\s+(?:\w+\s+)?$/.test(prev) || /n't\s+(?:\w+\s+)?$/.test(prev)) continue;
    if (pattern !== undefined && !pattern.test(tk.lower)) continue;
    found.push(tk);
  }
  return new Set(found.map((t) => t.lower)).size === 1 ? found.slice(0, 1) : [];
}

/** Does the description quote at least two example values, all of them words ("'melting', 'freezing'")? */
export function valuesAreWords(p: ParamInfo): boolean {
  const quoted = [...p.description.matchAll(/['"‘“]([^'"’”\n]{1,30})['"’”]/g)].map((m) => m[1]);
  // (a clock's form counts as a word: '12h' or '24h')
  return quoted.length >= 2 && quoted.every((q) => /^[\p{L}][\p{L} _-]*$/u.test(q) || /^\d{1,2}\s?h$/i.test(q));
}

/**
 * The word values a description quotes as choices, when it quotes two or more and all are words
 * ("Mode of analysis, e.g. 'static' or 'dynamic'" → static, dynamic); none otherwise.
 */
function describedValues(p: ParamInfo): string[] {
  if (!valuesAreWords(p)) return [];
  // choices, not examples: "'static' or 'dynamic'", "one of", "either", "can be", "options", "possible values"
  if (!/['"’”]\s*,?\s*or\s*['"‘“]|\b(one of|either|can be|options?|possible values|allowed values|valid values)\b/i.test(p.description))
    return [];
  return [...new Set([...p.description.matchAll(/['"‘“]([^'"’”\n]{1,30})['"’”]/g)].map((m) => m[1]))];
}

/** Where `word` (lower case) is written as a whole word or phrase in `lower`, or -1. */
function wordAt(lower: string, word: string): number {
  if (word === '') return -1;
  let from = 0;
  for (;;) {
    const at = lower.indexOf(word, from);
    if (at < 0) return -1;
    const before = at === 0 ? '' : lower[at - 1];
    const after = lower[at + word.length] ?? '';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return at;
    from = at + 1;
  }
}

/**
 * Words that rule out what follows them within three words ("exclude any that are", "except",
 * "other than", "but not"; not after "nothing": "I eat nothing other than vegan food"), or within
 * one for "no longer" ("I no longer fly economy"; not "I no longer eat meat so vegetarian").
 */
const EXCLUDED_BEFORE =
  /(?:\b(?:exclud(?:e|es|ed|ing)|but\s+not|rather\s+than|instead\s+of)|(?<!\b(?:nothing|none|no\s+one|nobody)\s+)\b(?:except|other\s+than))\b(?:\s+[\p{L}'’]+){0,3}\s*$|\bno\s+longer(?:\s+[\p{L}'’]+)?\s*$/iu;

/** Value kind "enums": the enum values the request writes or names; ends the walk. */
export const ENUMS_KIND: ValueKindModule = {
  name: 'enums',
  serves: enumParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    if (!p.enumValues) return; // (enumParam)
    // enum parameters: choose among the enum values
    const strs = p.enumValues.filter((v): v is string => typeof v === 'string');
    // an enum spelled as booleans ("True"/"False"/"dontcare"...) with a "True"
    const boolLike =
      strs.length > 0 && strs.every((s) => /^(true|false|dontcare|any|none|yes|no)$/i.test(s)) && strs.some((s) => /^true$/i.test(s));
    if (boolLike) {
      const f = flagEvidence(p, doc);
      if (f) {
        // the enum's "True" / "False" spelling
        const want = f.value ? strs.find((s) => /^true$/i.test(s)) : strs.find((s) => /^false$/i.test(s));
        if (want !== undefined) out.push({ param: p, value: want, score: f.score + ENUM_SCORES.boolLikeEnum.v, ranges: [], kind: 'flag' });
      }
      return;
    }
    for (const v of p.enumValues) {
      if (typeof v === 'string') {
        if (DONTCARE.has(v.toLowerCase())) continue;
        let { score, start, end } = enumScore(v, doc);
        if (score === 0) ({ score, start, end } = valueSynonym(v, p, doc) ?? { score, start, end });
        // a numeral value ("4" of star ratings) written as a number or a number word ("four-star"),
        // or a year written with an apostrophe ("from the '19" for "2019")
        if (score === 0 && /^\d+$/.test(v)) {
          // (a count of what the parameter counts, too: "two smoking rooms" for "The number of
          // hotel rooms"; not a number joined to the word it measures, "a three-star hotel")
          for (const sp of doc.spans)
            if (sp.kind === 'number' && sp.num === Number(v))
              out.push({
                param: p,
                value: v,
                score: ENUM_SCORES.numeralBase.v + (/^-\p{L}/u.test(doc.text.slice(sp.end)) ? 0 : countBonus(p, doc, sp)),
                ranges: [[sp.start, sp.end]],
                kind: 'enum',
              });
          for (const c of apostropheYears(p, doc)) if (String(c.value) === v) out.push({ ...c, value: v, kind: 'enum' });
          continue;
        }
        if (p.semantic === 'currency' && score === 0) {
          const cm = currencyMentions(doc).find((c) => c.code.toLowerCase() === v.toLowerCase());
          if (cm) ({ score, start, end } = { score: ENUM_SCORES.currencyCode.v, start: cm.start, end: cm.end });
        }
        // (a value the request rules out is none: "exclude any that are completed", "other than economy")
        if (score > 0 && start >= 0 && EXCLUDED_BEFORE.test(doc.text.slice(Math.max(0, start - 40), start))) continue;
        if (score > 0) {
          const bonus =
            start >= 0 ? anchorBonus(p, doc, { id: -1, kind: 'proper', start, end, text: v }, hits) * ENUM_SCORES.anchorWeight.v : 0;
          // of two values matched where they are written, the longer one ("Premium Economy" over "Economy")
          const longer =
            start >= 0 ? ENUM_SCORES.longerValuePerWord.v * Math.min(4, doc.text.slice(start, end).trim().split(/\s+/).length - 1) : 0;
          // (a word inside a longer quoted value claims no text of it: "news" of "Find a recent news
          // article" is the source and leaves the quote whole for the query)
          const quotedIn =
            start >= 0 &&
            doc.spans.some((o) => o.kind === 'quoted' && o.start <= start && o.end >= end && o.end - o.start > end - start + 2);
          out.push({
            param: p,
            value: v,
            score: Math.min(1, score * ENUM_SCORES.matchWeight.v + bonus + longer),
            ranges: start >= 0 && !quotedIn ? [[start, end]] : [],
            kind: 'enum',
          });
        }
      } else if (typeof v === 'number') {
        for (const s of doc.spans)
          if (s.kind === 'number' && s.num === v)
            out.push({
              param: p,
              value: v,
              score: ENUM_SCORES.numberValueBase.v + anchorBonus(p, doc, s, hits) * ENUM_SCORES.numberValueAnchorWeight.v,
              ranges: [[s.start, s.end]],
              kind: 'enum',
            });
      } else if (typeof v === 'boolean') {
        const f = flagEvidence(p, doc);
        if (f && f.value === v) out.push({ param: p, value: v, score: f.score, ranges: [], kind: 'flag' });
      }
    }
    if (p.required && !out.some((c) => c.score >= REQUIRED_MIN_SCORE.v)) {
      const partial = distinctiveEnumWord(p, doc);
      if (partial)
        out.push({
          param: p,
          value: partial.value,
          score: REQUIRED_MIN_SCORE.v,
          ranges: [[partial.start, partial.end]],
          kind: 'enum-partial',
        });
    }
  },
};

/** Value kind "describedValue": a choice the description quotes, written in the request. */
export const DESCRIBED_VALUE_KIND: ValueKindModule = {
  name: 'describedValue',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // a value the description quotes as one of the choices ("e.g. 'static' or 'dynamic'") written
    // in the request as a word of its own: like an enum's value
    // (only one of the choices written, and next to a word of the parameter's name or of its
    // description before the choices: "dynamic analysis" for "Mode of analysis"; "a private copy of
    // the public repo", "from small to large" and "I am new here" give nothing)
    if (t === 'string' && !(p.enumValues && p.enumValues.length > 0)) {
      const choices = describedValues(p);
      // (a one-word choice also by its stem: "detail information" for 'detailed')
      const byStem = (v: string): { at: number; end: number } | undefined => {
        if (!/^\p{L}+$/u.test(v) || v.length < 4) return undefined;
        // (and the one word is the start of the other: Porter stems "generate" and "general" alike)
        const lower = v.toLowerCase();
        const st = stem(lower);
        const tk = doc.tokens.find((x) => x.stem === st && x.lower.length >= 4 && (lower.startsWith(x.lower) || x.lower.startsWith(lower)));
        return tk && { at: tk.start, end: tk.end };
      };
      // (a clock's form written out: "24 hour" or "24-hour" for '24h')
      const hours = (v: string): { at: number; end: number } | undefined => {
        const h = /^(\d{1,2})\s?h$/i.exec(v);
        const m = h ? new RegExp(`(?<![\\d.])${h[1]}[- ]?hours?\\b`, 'i').exec(doc.text) : null;
        return m ? { at: m.index, end: m.index + m[0].length } : undefined;
      };
      const found = choices
        .map((v) => {
          const at = wordAt(doc.lower, v.toLowerCase());
          return at >= 0 ? { v, at, end: at + v.length } : { v, ...(byStem(v) ?? hours(v) ?? { at: -1, end: -1 }) };
        })
        .filter((x) => x.at >= 0);
      if (found.length === 1) {
        const { v, at, end } = found[0];
        const head = new Set([...p.anchors, ...contentStems(p.description.split(/['"‘“]/)[0] ?? '')]);
        const i = tokenAt(doc, at);
        const j = tokenAt(doc, end - 1);
        // (or asked for as a form: "in the form of dictionary", "as a list")
        const near =
          [doc.tokens[i - 1], doc.tokens[j + 1]].some(
            (tk) => tk !== undefined && head.has(tk.stem) && !choices.some((d) => d.toLowerCase() === tk.lower),
          ) || /\b(?:form|format|shape)\s+of\s+(?:an?\s+)?$/i.test(doc.text.slice(Math.max(0, at - 20), at));
        if (near) out.push({ param: p, value: v, score: ENUM_SCORES.describedChoice.v, ranges: [[at, end]], kind: 'described-value' });
      }
    }
  },
};

/** Value kind "colour": a colour word for a colour parameter. */
export const COLOUR_KIND: ValueKindModule = {
  name: 'colour',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a colour word for a colour parameter ("a small green bird", "in red")
    if (COLOR_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
      for (const tk of colourWords(doc, p))
        out.push({
          param: p,
          value: tk.lower,
          score: ENUM_SCORES.colourBase.v,
          ranges: [[tk.start, tk.end]],
          kind: 'color',
        });
    }
  },
};
