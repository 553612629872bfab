/**
 * Value kind "flags": a boolean (or a "True"/"False" enum) from the words of its name, negations
 * and synonyms in the request.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { stem } from '../text.js';
import { FLAG_SYNONYMS, NEGATIONS } from './data/flags.js';
import { FLAG_SCORES } from './data/scores/flags.js';
import { booleanParam } from './dispatch.js';
import { type ValueKindModule } from './types.js';

/** Flag-like evidence for a boolean parameter: true/false when its name words are written, undefined otherwise. */
export function flagEvidence(p: ParamInfo, doc: Doc): { value: boolean; score: number; start: number; end: number } | undefined {
  const generic = new Set([
    'is',
    'has',
    'include',
    'includ',
    'enable',
    'flag',
    'use',
    'with',
    'show',
    'allow',
    'onli',
    'only',
    'get',
    'should',
    'can',
    'do',
    'need',
    'want',
    'requir',
    'option',
    'mode',
    'filter',
    'the',
    'of',
    'for',
    'to',
    'and',
    'in',
    'on',
    'a',
    'are',
    'be',
    'set',
    'return',
    'fetch',
    'if',
    'whether',
    'by',
    'at',
    'visibl',
    'entri',
    'good',
    'avail',
    'support',
    'data',
    'add',
    'info',
    'inform',
    'consid',
    'account',
    'appli',
  ]);
  const salient = p.anchors.filter((a) => !generic.has(a) && a.length > 2);
  if (salient.length === 0) return undefined;
  let found = 0;
  let neg = false;
  let first = -1;
  let last = -1;
  for (const a of salient) {
    const forms = new Set([a, ...(FLAG_SYNONYMS[a] ?? []).map((f) => stem(f))]);
    const t = doc.tokens.find((tk) => forms.has(tk.stem));
    if (!t) continue;
    found++;
    if (first < 0 || t.start < first) first = t.start;
    last = Math.max(last, t.end);
    // a negation up to 5 words before, in the same clause ("no garage or in-unit laundry", "no need for a garage"),
    // 4 more across each "or"/"nor" that joins the word to others ("I don't care about garage or in-unit laundry";
    // not "and": "I don't need a pool and need a garage")
    let reach = 5;
    for (let k = t.index - 1; k >= 0 && k >= t.index - reach; k--) {
      if (/[.;,!?]|\bbut\b/i.test(doc.text.slice(doc.tokens[k].end, doc.tokens[k + 1].start)) || doc.tokens[k].lower === 'but') break;
      if (['or', 'nor'].includes(doc.tokens[k].lower)) {
        // "... and I have laundry": a new clause with its own subject ends the negation's reach
        if (['i', 'we', 'you', 'he', 'she', 'they', 'it', "i'm", "i've", "we're"].includes(doc.tokens[k + 1]?.lower ?? '')) break;
        reach = Math.min(reach + 4, 14);
      }
      // a negation word, or any word ending in "n't"
      if (NEGATIONS.has(doc.tokens[k].lower) || /n't$/.test(doc.tokens[k].lower)) {
        neg = true;
        break;
      }
    }
  }
  if (found === 0) return undefined;
  // indifference says neither ("I don't mind if it has a garage or not", "with or without a
  // garage", "parking either way"): no value. Within the flag's own clause (ended by punctuation,
  // "but", "whether" or "and" before a new subject): "don't mind"/"don't care"/"not concerned"
  // before the flag's word, "or not"/"either way"/"doesn't matter" within six words after it
  // (not "whether … or not", which is about what follows), "with or without" right before it
  // (read within CLAUSE_REACH characters either side: the markers count only near the word)
  const head = doc.text.slice(Math.max(0, first - CLAUSE_REACH), first);
  let cut = 0;
  for (const b of head.matchAll(CLAUSE_BOUNDARY)) cut = b.index + b[0].length;
  const before = head.slice(cut);
  const tail = doc.text.slice(last, last + CLAUSE_REACH);
  const end = tail.search(CLAUSE_BOUNDARY_ONE);
  const after = (end < 0 ? tail : tail.slice(0, end)).split(/\s+/).slice(0, 7).join(' ');
  if (
    INDIFFERENT_BEFORE.test(before) ||
    (INDIFFERENT_AFTER.test(after) && !/\bwhether\b/i.test(after)) ||
    /\bwith\s+or\s+without\s+(?:\S+\s+){0,2}$/i.test(before)
  )
    return undefined;
  const score = found === salient.length ? FLAG_SCORES.allNameWords.v : FLAG_SCORES.someNameWords.v;
  return { value: !neg, score, start: first, end: last };
}

/** What ends a clause around a flag's word: punctuation, "but", "whether", "and" before a new subject. */
const CLAUSE_BOUNDARY = /[.!?\n,;]|\b(?:but|whether|and\s+(?:i|we|you|it|they)(?:['’](?:m|d|ve))?)\b/gi;

/** CLAUSE_BOUNDARY for a first-match search. */
const CLAUSE_BOUNDARY_ONE = new RegExp(CLAUSE_BOUNDARY.source, 'i');

/** Characters either side of a flag's word that its indifference markers are read in. */
const CLAUSE_REACH = 200;

/** Words before a flag's word that leave its choice open: "don't mind (if)", "don't care about", "not concerned about". */
const INDIFFERENT_BEFORE =
  /\b(?:(?:do|does|did)\s*n[o'’]?t\s+(?:mind|care)|dont\s+(?:mind|care)|not\s+(?:too\s+)?(?:concerned|bothered|fussed))\b/i;

/** Words after a flag's word that leave its choice open: "or not", "either way", "doesn't matter". */
const INDIFFERENT_AFTER = /\b(?:or\s+not|either\s+way|doesn['’]?t\s+matter|does\s+not\s+matter)\b/i;

/** Value kind "flags": a boolean from the words of its name; ends the walk. */
export const FLAGS_KIND: ValueKindModule = {
  name: 'flags',
  serves: booleanParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const f = flagEvidence(p, doc);
    if (f) out.push({ param: p, value: f.value, score: f.score, ranges: [], kind: 'flag' });
  },
};
