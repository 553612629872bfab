/**
 * Where a tool's description puts a value ("the weather in <place>"): the request's words in the
 * same place fill a required text parameter left empty (weak evidence).
 */
import { type Doc } from '../extract.js';
import { NUMBER_WORDS } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, splitIdentifier, stem, tokenize } from '../text.js';
import {
  SLOT_DETERMINERS,
  SLOT_EMPTY_PARTS,
  SLOT_GENERIC,
  SLOT_POSSESSIVES,
  SLOT_PREPOSITIONS,
  SLOT_VAGUE,
  SLOT_VALUE_END,
  SLOT_WHICH,
} from './data/slots.js';

/** Tokenised descriptions, each token marked where punctuation separates it from the one before (bounded cache: descriptions repeat across requests). */
const slotTokenCache = new Map<string, SlotToken[]>();

/** The request's tokens so marked, once per request. */
const SLOT_REQUEST_TOKENS = new WeakMap<Doc, SlotToken[]>();

/** A token, marked `brk` when punctuation (not a quote) stands between it and the token before; the first always is. */
type SlotToken = Token & { brk: boolean };

/** Tokens of a text, each marked `brk` (SlotToken). */
function slotTokens(text: string, tokens: readonly Token[] = tokenize(text)): SlotToken[] {
  return tokens.map((x, i) => ({ ...x, brk: i === 0 || /[^\s'"’‘“”]/.test(text.slice(tokens[i - 1].end, x.start)) }));
}

/** A description's tokens (cached). */
function descriptionTokens(text: string): SlotToken[] {
  let out = slotTokenCache.get(text);
  if (!out) {
    out = slotTokens(text);
    if (slotTokenCache.size >= 5000) slotTokenCache.clear();
    slotTokenCache.set(text, out);
  }
  return out;
}

/** Where a description puts a parameter: the preposition before its slot, the content words just before that, the word right after the slot, and whether the slot says "whichever one you name" ("the specified namespace"). */
interface DescribedSlot {
  prep: string;
  before: Set<string>;
  closing: string | undefined;
  named: boolean;
}

/** The slots a description gives a parameter whose name's words are `head` (stems), in description order. */
function describedSlots(d: readonly SlotToken[], head: readonly string[]): DescribedSlot[] {
  const out: DescribedSlot[] = [];
  for (let j = 0; j + head.length <= d.length; j++) {
    if (!head.every((s, k) => d[j + k].stem === s && (k === 0 || !d[j + k].brk))) continue;
    let i = j;
    let named = false;
    while (i > 0 && !d[i].brk && (SLOT_DETERMINERS.has(d[i - 1].lower) || SLOT_VAGUE.has(d[i - 1].lower))) {
      i--;
      if (SLOT_VAGUE.has(d[i].lower)) named = true;
    }
    if (i === 0 || d[i].brk || !SLOT_PREPOSITIONS.has(d[i - 1].lower)) continue;
    const before = new Set<string>();
    for (let k = i - 2; k >= Math.max(0, i - 4); k--) {
      if (!STOP_WORDS.has(d[k].lower)) before.add(d[k].stem);
      if (d[k].brk) break;
    }
    const after = d[j + head.length];
    if (before.size > 0) out.push({ prep: d[i - 1].lower, before, closing: after && !after.brk ? after.lower : undefined, named });
  }
  return out;
}

/**
 * The request's words that stand where a description puts the parameter, between the same
 * words. The description names the parameter after a preposition, with a content word at most
 * three words before it ("ratings of an instrument from a particular manufacturer", "services
 * available in the specified namespace"); the request has that preposition with one of those
 * words before it, and then one to three words that either end at the word that follows the
 * slot in the description ("ratings of piano from Yamaha" → piano) or are followed by the
 * parameter's own head noun where the description leaves the name to the user or the value is
 * written as a name ("services are in the default namespace" for "in the specified namespace"
 * → default; "the Marketing team"; not "reviews of cheap hotels"). The value
 * stops at any function word or punctuation, and is none of: a possessive's ("in my area"), a
 * generic noun ("in the area"), a number, a date or time ("at noon for 4 people"), a word that
 * only says which ("the current directory"), nor the head of a longer phrase ("on the basis of
 * rating"). A slot the description ends, with nothing after it to match, fills nothing: else
 * "Find books by popularity" would give an author and "List pods in the cluster" a namespace
 * that way. Returns the value's character range in the request, or undefined.
 */
export function descriptionSlot(description: string, p: ParamInfo, doc: Doc): [number, number] | undefined {
  if (!description) return undefined;
  const head = splitIdentifier(p.name)
    .map(stem)
    .filter((s) => !SLOT_EMPTY_PARTS.has(s));
  if (head.length === 0 || head.length > 3) return undefined;
  const slots = describedSlots(descriptionTokens(description), head);
  if (slots.length === 0) return undefined;
  let r = SLOT_REQUEST_TOKENS.get(doc);
  if (!r) SLOT_REQUEST_TOKENS.set(doc, (r = slotTokens(doc.text, doc.tokens)));
  const datedOrCounted = (start: number, end: number): boolean =>
    doc.spans.some((s) => ['date', 'time', 'number'].includes(s.kind) && s.start < end && start < s.end);
  for (const { prep, before, closing, named } of slots) {
    for (let a = 1; a < r.length - 1; a++) {
      if (r[a].lower !== prep) continue;
      let anchored = false;
      for (let k = a - 1; k >= Math.max(0, a - 3) && !anchored; k--) {
        anchored = before.has(r[k].stem);
        if (r[k].brk) break;
      }
      if (!anchored) continue;
      let b = a + 1;
      if (b < r.length && SLOT_POSSESSIVES.has(r[b].lower)) continue;
      while (b < r.length && !r[b].brk && SLOT_DETERMINERS.has(r[b].lower)) b++;
      if (b >= r.length || r[b].brk || SLOT_WHICH.has(r[b].lower)) continue;
      let e = b;
      while (
        e < r.length &&
        e - b < 4 &&
        (e === b || !r[e].brk) &&
        r[e].lower !== closing &&
        !STOP_WORDS.has(r[e].lower) &&
        !SLOT_VALUE_END.has(r[e].lower)
      )
        e++;
      let words = r.slice(b, e);
      const next = r[e];
      // the slot's closing word right after the value, or the parameter's head noun ending it
      const closed = closing !== undefined && next !== undefined && !next.brk && next.lower === closing;
      // (the head noun after a name: where the description leaves the name to the user, or the
      // value is written as a name; not a kind of it, "reviews of cheap hotels")
      const echoed = words.length > head.length && head.every((s, k) => words[words.length - head.length + k].stem === s);
      if (echoed) words = words.slice(0, words.length - head.length);
      if (echoed && !closed && !named && !words.every((w) => /^\p{Lu}|[\d_-]/u.test(doc.text.slice(w.start, w.end)))) continue;
      if ((!closed && !echoed) || words.length === 0 || words.length > 3) continue;
      // (a value that heads a longer noun phrase is no value: "on the basis of rating")
      if (next !== undefined && !next.brk && next.lower === 'of') continue;
      if (
        words.some(
          (w) =>
            SLOT_VAGUE.has(w.lower) ||
            SLOT_GENERIC.has(w.lower) ||
            SLOT_WHICH.has(w.lower) ||
            /^\d/.test(w.lower) ||
            Object.hasOwn(NUMBER_WORDS, w.lower),
        )
      )
        continue;
      const start = words[0].start;
      const end = words[words.length - 1].end;
      if (datedOrCounted(start, end)) continue;
      return [start, end];
    }
  }
  return undefined;
}
