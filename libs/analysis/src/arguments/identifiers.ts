/**
 * Value kind "identifiers and URLs": identifiers labelled in the request ("user ID 42"), names
 * written beside their kind.
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, stem } from '../text.js';
import { ID_DETERMINERS, NOT_A_NAME } from './data/ids.js';
import { IDENTIFIER_SCORES } from './data/scores/identifiers.js';
import { stringParam } from './dispatch.js';
import { type Cand, type ValueKindModule } from './types.js';

/** An IPv4 address, with a port or not. */
export const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/;

/** Words of a parameter that holds an IP address. */
export const IP_PARAM = /\b(ip|ips|ipv4|host|hostname|server|address|addr|endpoint|gateway|dns|node)\b/i;

/** A schema's pattern as a RegExp, or undefined when it does not compile. */
export function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A number written after a bare identifier label, "ID is 1234", "id: 1234", "my ID 42", for an id
 * parameter (a label with a qualifier, "user ID 42", may be another thing's: not read here).
 */
export function idLabelled(p: ParamInfo, doc: Doc, s: Span): boolean {
  if (p.semantic !== 'id') return false;
  const before = doc.text.slice(Math.max(0, s.start - 48), s.start);
  const m = /(?:^|[\s(,;.])(?:(\p{L}+)\s+)?(?:id|identifier)\s*(is|was|:|=|#)?\s*#?$/iu.exec(before);
  if (!m) return false;
  // the number ends its clause ("The ID is 5 digits long" gives no ID), or, written right after
  // the label, is the subject of what follows ("with employee id 123 is currently using")
  // (the latter only where it is the request's one number: "Order id 55 was shipped, refund order 66")
  if (
    !/^\s*(?:$|[.,;:!?)]|and\b|please\b)/i.test(doc.text.slice(s.end)) &&
    !(
      m[2] === undefined &&
      /^\s+(?:is|was|has|had|who|which)\b/i.test(doc.text.slice(s.end)) &&
      doc.spans.filter((o) => o.kind === 'number' && !o.word).length === 1
    )
  )
    return false;
  const qualifier = m[1]?.toLowerCase();
  return qualifier === undefined || ID_DETERMINERS.has(qualifier);
}

/** Value kind "kindNamed": a name written beside the word for its kind ("the bandana project"). */
export const KIND_NAMED_KIND: ValueKindModule = {
  name: 'kindNamed',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the name or identifier of a thing written beside the word for that thing ("the bandana
    // project", "project ID badae") for a parameter described as that thing's name or identifier
    out.push(...kindNamedCandidates(p, doc));
  },
};

/** The thing a name or identifier parameter names, from its description ("The unique identifier of the project" → project). */
// (the thing's word is the first lower-case word after the article: "the name of the NFL player" → player)
const NAMED_KIND =
  /\b(?:[Ii]dentifier|[Ii][Dd]|[Nn]ame|[Tt]itle)\b(?:\s+\w+)?\s+(?:of|for)\s+(?:the|a|an)\s+(?:specific\s+|particular\s+)?(?:\p{Lu}\S*\s+){0,2}(\p{Ll}{3,})\b/u;

/** Endings of adjectives, participles and adverbs ("pending", "weekly", "active", "cancelled"): words that say which one, not its name. */
const NOT_A_NAME_ENDING = /(?:ing|ed|ly|ive|al|ous|ful|less|able|ible|ic|ary|ent|ant)$/;

/**
 * A name or identifier written beside the word for the thing it names, for a string parameter
 * described as that thing's name or identifier ("The unique identifier of the project"): "the
 * bandana project" → "bandana"; "project ID badae" / "host agent zzwzee" → "badae" / "zzwzee"
 * (the word after the thing's word, with at most one word and an ID/name label between, ending
 * the clause). One word only, no function word, no word that only says which one ("the new
 * project"). Weak evidence (identifiers.nameBeforeKind, identifiers.nameAfterKind): it fills a
 * parameter that is needed, never an optional one.
 */
function kindNamedCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if ((p.semantic !== 'id' && p.semantic !== 'name') || p.type !== 'string' || p.enumValues) return [];
  const m = NAMED_KIND.exec(p.description);
  if (!m) return [];
  const kind = stem(m[1].toLowerCase());
  const out: Cand[] = [];
  // (a plain lower-case word with an adjective's or adverb's ending is no name; one with a digit,
  // a capital, a hyphen or an underscore may be: "release-2", "Q3")
  const usable = (t: Token | undefined): t is Token =>
    t !== undefined &&
    !STOP_WORDS.has(t.lower) &&
    !NOT_A_NAME.has(t.lower) &&
    !/^\d+$/.test(t.text) &&
    t.lower.length >= 2 &&
    !(/^[a-z]+$/.test(t.text) && NOT_A_NAME_ENDING.test(t.text));
  const joined = (a: Token, b: Token): boolean => /^\s+$/.test(doc.text.slice(a.end, b.start));
  for (const t of doc.tokens) {
    // (the thing's word written in lower case: "the Louvre Museum", "Pope Innocent III" are names of their own)
    if (t.stem !== kind || t.text !== t.lower) continue;
    // "the bandana project": a determiner, one word, the thing's word
    const before = doc.tokens[t.index - 1];
    const det = doc.tokens[t.index - 2];
    if (
      usable(before) &&
      det &&
      ['the', 'my', 'our', 'your', 'this', 'that'].includes(det.lower) &&
      joined(det, before) &&
      joined(before, t) &&
      !doc.spans.some((s) => s.kind === 'number' && s.start <= before.start && s.end >= before.end)
    ) {
      out.push({
        param: p,
        value: before.text,
        score: IDENTIFIER_SCORES.nameBeforeKind.v,
        ranges: [[before.start, before.end]],
        kind: 'kind-named',
      });
    }
    // "project ID badae", "host agent zzwzee": the thing's word, at most one word and a label, then the value ending its clause
    let k = t.index + 1;
    if (
      doc.tokens[k] &&
      !['id', 'name', 'identifier'].includes(doc.tokens[k].lower) &&
      !STOP_WORDS.has(doc.tokens[k].lower) &&
      /^[a-z]{3,}$/.test(doc.tokens[k].text) &&
      doc.tokens[k + 1] &&
      joined(doc.tokens[k - 1], doc.tokens[k])
    )
      k++;
    if (doc.tokens[k] && ['id', 'name', 'identifier'].includes(doc.tokens[k].lower) && joined(doc.tokens[k - 1], doc.tokens[k])) k++;
    const v = doc.tokens[k];
    if (k > t.index + 1 || (v && usable(v))) {
      if (
        usable(v) &&
        joined(doc.tokens[k - 1], v) &&
        /^\s*(?:$|[.,;!?)]|(?:for|in|and|with|please|from|on)\b)/i.test(doc.text.slice(v.end))
      ) {
        out.push({ param: p, value: v.text, score: IDENTIFIER_SCORES.nameAfterKind.v, ranges: [[v.start, v.end]], kind: 'kind-named' });
      }
    }
  }
  return out;
}
