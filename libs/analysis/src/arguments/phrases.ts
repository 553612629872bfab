/**
 * Value kind "phrases": the words written after a parameter's name, the description's examples
 * written in the request, and modifiers of a type-like parameter.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, stem } from '../text.js';
import { anchorBonus } from './anchors.js';
import { RELATIVE_CLAUSE, commandCandidates } from './commands.js';
import { NOT_A_NAME } from './data/ids.js';
import { PHRASE_SCORES } from './data/scores/phrases.js';
import { stringParam } from './dispatch.js';
import { enumScore } from './enum-match.js';
import { type Cand, type ValueKindModule } from './types.js';

/** Phrase written right after the parameter's name ("crime of theft", "content - go to gym", "named Bob"). */
function anchoredPhrases(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out: Cand[] = [];
  const boundary = new Set([
    'and',
    'with',
    'for',
    'in',
    'on',
    'at',
    'from',
    'to',
    'by',
    'that',
    'which',
    'who',
    'please',
    'using',
    'where',
    'when',
    'while',
    'but',
    'or',
    'so',
    'then',
    'if',
    'also',
    'into',
    'as',
    'via',
    'about',
  ]);
  const long = p.semantic === 'text';
  for (const h of hits) {
    if (h.w < PHRASE_SCORES.nameHitMin.v) continue;
    let i = h.idx + 1;
    // a relative clause between the name and its "is": "the product I ordered is …", "the hotel
    // that we booked was …" (a pronoun and one verb, then is/was)
    const rel = RELATIVE_CLAUSE.exec(doc.text.slice(doc.tokens[h.idx].end, doc.tokens[h.idx].end + 40));
    const relEnd = rel ? doc.tokens[h.idx].end + rel[0].length : -1;
    if (rel) while (i < doc.tokens.length && doc.tokens[i].start < relEnd) i++;
    const afterRel = i;
    // skip link words right after the name: "is", "of", "named", ...
    while (
      i < doc.tokens.length &&
      ['is', 'of', 'be', 'as', 'named', 'called', 'titled', 'the', 'a', 'an', 'should', 'will', 'to', 'set'].includes(
        doc.tokens[i].lower,
      ) &&
      i - afterRel <= 3
    )
      i++;
    if (i >= doc.tokens.length) continue;
    // (after a relative clause only a thing is the value: "is a pair of sneakers", not "was
    // terrible", "is broken", "was cancelled")
    if (
      rel &&
      !(
        ['a', 'an', 'the', 'my', 'our', 'his', 'her', 'their', 'this', 'that', 'called', 'named'].includes(
          doc.tokens[i - 1]?.lower ?? '',
        ) ||
        /^[\p{Lu}\d"'#“‘]/u.test(doc.text.slice(doc.tokens[i].start - (/["'“‘]/.test(doc.text[doc.tokens[i].start - 1] ?? '') ? 1 : 0)))
      )
    )
      continue;
    const between = rel ? ' is ' + doc.text.slice(relEnd, doc.tokens[i].start) : doc.text.slice(doc.tokens[h.idx].end, doc.tokens[i].start);
    // the skipped link words removed from the gap
    const stripped = between.replace(/\b(is|of|be|as|named|called|titled|the|a|an|should|will|to|set)\b/gi, '');
    // only spaces, ":", "=", "-" (and the skipped words) between name and value
    if (!/^[\s:=\-–—"']*$/.test(stripped)) continue;
    // an explicit link: "is", "named", "called", "titled", ":", "=", "-"
    // ("the format of YYYY": a format's "of" names it)
    const explicit =
      /\b(is|named|called|titled|should be|will be|set to)\b|[:=\-–—]/i.test(between) ||
      (doc.tokens[h.idx].stem === 'format' && /^\s+of\s+$/i.test(between));
    if (!explicit && !/\bof\b/i.test(between) && !p.required) continue;
    const start = doc.tokens[i].start;
    let j = i;
    while (j + 1 < doc.tokens.length && j - i < (long ? 15 : 5)) {
      const gap = doc.text.slice(doc.tokens[j].end, doc.tokens[j + 1].start);
      // stop at punctuation other than spaces, hyphens and apostrophes
      if (!/^[\s'’-]*$/.test(gap)) break;
      if (!long && boundary.has(doc.tokens[j + 1].lower)) break;
      j++;
    }
    const first = doc.tokens[i].lower;
    // (a phrase may start with a digit)
    if (STOP_WORDS.has(first) && !/^\d/.test(first) && !long) continue;
    const end = doc.tokens[j].end;
    const text = doc.text.slice(start, end);
    // (one word that says when, how or which, not what: "Cancel my order immediately.", "the
    // repository online.", "the project details.")
    if (
      i === j &&
      (NOT_A_NAME.has(first) || /^[a-z]+ly$/.test(doc.tokens[i].text) || /^(?:tomorrow|yesterday|tonight|summary)$/.test(first))
    )
      continue;
    // (nor a preposition and a pronoun alone: "echo a message for me")
    if (/^(?:for|to|with|from|about|at|by|of|on)\s+(?:me|us|him|her|them|it|you)$/i.test(text)) continue;
    out.push({
      param: p,
      value: text,
      score: (explicit ? PHRASE_SCORES.explicitLink.v : PHRASE_SCORES.plainLink.v) + PHRASE_SCORES.nameHitWeight.v * h.w,
      ranges: [[start, end]],
      kind: 'phrase',
    });
  }
  return out;
}

/** Example values a description lists ("e.g., sculpture", "such as 'Berkeley, CA'", "Possible values: a, b"). */
export function descriptionExamples(p: ParamInfo): string[] {
  const out: string[] = [];
  const d = p.description;
  // a marker, then the list up to the end of the sentence or bracket
  // (a marker is a word of its own: "categories" holds no "eg")
  const re =
    /\b(?:e\.g\.?,?|eg\.?|such as|for example,?|for instance,?|like|examples?:|possible values(?: are)?:?|options(?: are)?:?|one of:?|either|include|includes|including|values:|can be|could be|may be)(?![a-z])\s*:?\s*([^.;()\n]+)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(d)) !== null) {
    // items are separated by commas, slashes, "or", "and", "etc"; quotes around an item are dropped
    for (const raw of m[1].split(/,|\/|\bor\b|\band\b|\betc\b/)) {
      const item = raw
        .trim()
        .replace(/^['"`]+|['"`]+$/g, '')
        .trim();
      // short plain phrases only (no digits, no format patterns)
      if (item && item.split(/\s+/).length <= 4 && /^[\p{L}][\p{L}\s'&-]*$/u.test(item) && !/^(the|a|an)$/i.test(item)) out.push(item);
    }
  }
  return [...new Set(out)].slice(0, 30);
}

/** Description examples written in the request -> candidates. */
function exampleCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out: Cand[] = [];
  for (const ex of descriptionExamples(p)) {
    const m = enumScore(ex, doc);
    if (m.score < PHRASE_SCORES.exampleWrittenMin.v || m.start < 0) continue;
    const written = doc.text.slice(m.start, m.end);
    out.push({
      param: p,
      value: written,
      score:
        PHRASE_SCORES.exampleWritten.v +
        anchorBonus(p, doc, { id: -1, kind: 'proper', start: m.start, end: m.end, text: written }, hits) * PHRASE_SCORES.exampleNearName.v,
      ranges: [[m.start, m.end]],
      kind: 'example',
    });
  }
  return out;
}

/**
 * Type-like parameters (room_type, cell_type): the word written before the named thing, the name's
 * part before the last ("single room", "human cell").
 */
function modifierCandidates(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  const parts = p.parts;
  if (
    ![
      'type',
      'kind',
      'category',
      'style',
      'class',
      'level',
      'mode',
      'format',
      'flavor',
      'genre',
      'size',
      'color',
      'colour',
      'material',
    ].includes(parts[parts.length - 1] ?? '')
  )
    return out;
  // the named thing: the name's part before the last ("room" of room_type)
  const headWord = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  if (headWord === undefined || STOP_WORDS.has(headWord)) return out;
  const own = stem(headWord);
  for (const t of doc.tokens) {
    if (t.stem !== own || t.index === 0) continue;
    const prev = doc.tokens[t.index - 1];
    // one plain word right before the head noun
    if (!/^\s+$/.test(doc.text.slice(prev.end, t.start)) && !/^-$/.test(doc.text.slice(prev.end, t.start))) continue;
    if (STOP_WORDS.has(prev.lower) || /\d/.test(prev.lower) || prev.lower.length < 3) continue;
    // (what powers or bases it, without the participle: "a gas-powered vehicle" → gas)
    const base = /^(\p{L}{2,})-(?:powered|fueled|fuelled)$/u.exec(prev.text);
    out.push({
      param: p,
      value: base ? base[1] : prev.text,
      score: PHRASE_SCORES.modifierWord.v,
      ranges: [[prev.start, prev.end]],
      kind: 'modifier',
    });
  }
  return out;
}

/** Value kind "phrases": phrases after the parameter's name, the description's examples, modifiers. */
export const PHRASES_KIND: ValueKindModule = {
  name: 'phrases',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    if (p.semantic !== 'date' && p.semantic !== 'time' && p.semantic !== 'datetime' && p.semantic !== 'email' && p.semantic !== 'url') {
      out.push(...commandCandidates(p, doc));
      out.push(...anchoredPhrases(p, doc, hits));
      out.push(...exampleCandidates(p, doc, hits));
      out.push(...modifierCandidates(p, doc));
    } else if (p.semantic === 'date' && p.type === 'string' && !p.enumValues) {
      // a date parameter whose description gives words as examples takes those words as written
      // ("Date of the concert, e.g. this weekend, today, tomorrow, or date string": "this weekend")
      out.push(...exampleCandidates(p, doc, hits));
    }
  },
};
