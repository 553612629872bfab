/**
 * Candidates that only echo the tool's own name or a label, and the tool name's stems.
 */
import { US_CITIES, US_STATES, WORLD_CITIES } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, letterDigitRuns, splitIdentifier, stem } from '../text.js';
import { COUNTRY_ALIAS_NAMES } from './data/places.js';
import { LABEL_WORDS } from './data/words.js';
import { type Cand } from './types.js';

/**
 * Is a candidate value nothing but words of the tool's own name ("Walmart" for
 * walmart.check_price's store_location)? Quoted spans (the user's own words) and enum values
 * are not. mapObject leaves an optional parameter whose best candidate is such a value out: the
 * value names the tool's subject, which the tool already serves. A required one keeps it: for get_tokyo_weather's
 * city, "Tokyo" is right, and dropping it let another place ("from Osaka") take its slot.
 */
export function echoesToolName(c: Cand, toolStems: ReadonlySet<string>): boolean {
  if (typeof c.value !== 'string' || toolStems.size === 0 || c.kind.includes('quoted') || c.param.enumValues) return false;
  if (c.kind === 'modifier') return toolStems.has(stem(c.value.toLowerCase()));
  const words = letterDigitRuns(c.value.toLowerCase());
  return words.length > 0 && words.length <= 3 && words.every((w) => toolStems.has(stem(w)));
}

/** Is a value that repeats the tool's name still of its parameter's kind: a known place for a place parameter, or a language, country, currency or unit parameter's value? (The musical-scale modifier is not.) */
export function echoFitsKind(c: Cand): boolean {
  if (c.kind === 'modifier' || typeof c.value !== 'string') return false;
  if (['language', 'country', 'currency', 'unit'].includes(c.param.semantic)) return true;
  if (!['place', 'origin', 'destination'].includes(c.param.semantic)) return false;
  const v = c.value.toLowerCase();
  return c.kind.includes('place') || v in US_STATES || US_CITIES.has(v) || WORLD_CITIES.has(v) || COUNTRY_ALIAS_NAMES.has(v);
}

/**
 * A string candidate without the words that only label it: dropped when it is nothing but its
 * parameter's own name words or label words ("ID" for order_id), else a leading label word is cut
 * ("UUID AB1010CD" -> "AB1010CD"). Quoted spans are the user's own words and stay as written.
 */
/** The lower-case words of a parameter's name, by parameter (withoutLabel reads them for every candidate value). */
const OWN_WORDS = new WeakMap<ParamInfo, Set<string>>();

export function withoutLabel(c: Cand): Cand[] {
  if (c.kind.includes('quoted')) return [c];
  let own = OWN_WORDS.get(c.param);
  if (own === undefined) OWN_WORDS.set(c.param, (own = new Set(splitIdentifier(c.param.name).map((w) => w.toLowerCase()))));
  const isLabel = (w: string): boolean => LABEL_WORDS.has(w.toLowerCase()) || own.has(w.toLowerCase());
  // a choice of the parameter's enum is kept whole or dropped, never cut: "Email Newsletter" is
  // that choice, not "Newsletter" after a label (cut, the value would leave the enum); a choice
  // of label words alone is no value ("no")
  if (c.param.enumValues && typeof c.value === 'string') return c.value.trim().split(/\s+/).every(isLabel) ? [] : [c];
  // a one-item list of a label word ("network ID" -> ["ID"]) is no value either
  if (Array.isArray(c.value) && c.value.length === 1 && typeof c.value[0] === 'string' && c.value[0].trim().split(/\s+/).every(isLabel))
    return [];
  // a list item opened by a label word loses it ("the items with IDs ITM456 and ITM789" → ITM456)
  if (Array.isArray(c.value) && c.value.every((v) => typeof v === 'string')) {
    const written = c.value as string[];
    // (only before an identifier: "Key West" and "Code Monkey" are names)
    const items = written.map((v) => {
      const words = v.trim().split(/\s+/);
      const rest = words.slice(1).join(' ');
      return words.length > 1 && LABEL_WORDS.has(words[0].toLowerCase()) && /\d/.test(rest) && /^[\w.-]+$/.test(rest) ? rest : v;
    });
    return items.some((v, i) => v !== written[i]) ? [{ ...c, value: items }] : [c];
  }
  if (typeof c.value !== 'string') return [c];
  const words = c.value.trim().split(/\s+/);
  if (words.every(isLabel)) return [];
  if (words.length > 1 && LABEL_WORDS.has(words[0].toLowerCase())) return [{ ...c, value: words.slice(1).join(' ') }];
  // a label glued to its value ("id:3", "sku=A-17")
  const glued = /^([A-Za-z]+)[:=]([^\s:=].*)$/.exec(c.value.trim());
  if (glued && LABEL_WORDS.has(glued[1].toLowerCase())) return [{ ...c, value: glued[2] }];
  return [c];
}

/**
 * The whole request as a value, without a first word that names the tool's own action: "Reverse
 * say hi" for reverse_input is "say hi" (the word asks for the tool; the rest is what it works on).
 */
export function withoutToolVerb(c: Cand, toolStems: ReadonlySet<string>): Cand {
  if (c.kind !== 'whole' || typeof c.value !== 'string') return c;
  const m = /^(\p{L}+)[\s:,]+(\S[\s\S]*)$/u.exec(c.value);
  // (a tool named by two words or more; one named by one word where a short value follows, "echo
  // hi", and no verb in it says the word was its subject: "Echo chambers are dangerous" for a
  // tool named echo keeps its words)
  // (and a "that" after it: "Post that the launch went great" posts "the launch went great")
  const short =
    m !== null &&
    toolStems.size === 1 &&
    m[2].trim().split(/\s+/).length <= 4 &&
    !/^\S+\s+(?:is|are|was|were|has|have|had|can|could|will|would|should|do|does|did)\b/i.test(m[2]);
  return m && (toolStems.size >= 2 || short) && toolStems.has(stem(m[1].toLowerCase())) && !STOP_WORDS.has(m[1].toLowerCase())
    ? { ...c, value: m[2].replace(/^that\s+(?=\S)/i, '') }
    : c;
}

/** Stems of the words of a tool's name ("bfcl:musical_scale:56771ee8" → music, scale, …), cached. */
const TOOL_NAME_STEMS = new Map<string, ReadonlySet<string>>();

export function toolNameStems(name: string): ReadonlySet<string> {
  let out = TOOL_NAME_STEMS.get(name);
  if (!out) {
    out = new Set(splitIdentifier(name).map((w) => stem(w.toLowerCase())));
    if (TOOL_NAME_STEMS.size > 10_000) TOOL_NAME_STEMS.clear();
    TOOL_NAME_STEMS.set(name, out);
  }
  return out;
}
