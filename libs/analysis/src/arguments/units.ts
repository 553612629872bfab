/**
 * Value kind "units": units of measure (stems, canonical names, SI prefixes, conversions of time),
 * the units of a conversion ("ounces in 2 pounds") and the thing measured ("3 cups of flour").
 */
import { type Doc, type Span } from '../extract.js';
import { NUMBER_WORDS } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, stem } from '../text.js';
import { MEASURE_WORDS } from './data/items.js';
import { UNIT_SCORES } from './data/scores/units.js';
import { DIMENSIONS, MEASURE_KINDS, MEASURE_UNITS, SECONDS_IN, SI_BASE_WORDS, SI_PREFIXES, UNIT_CANON, UNIT_STEMS } from './data/units.js';
import { stringParam } from './dispatch.js';
import { type Cand, type ValueKindModule } from './types.js';

/** Stems of unit words a parameter asks for (from its name and description). */
export function unitStemsOf(p: ParamInfo): ReadonlySet<string> {
  let out = UNIT_STEMS_OF.get(p);
  if (out === undefined) UNIT_STEMS_OF.set(p, (out = readUnitStems(p)));
  return out;
}

/** unitStemsOf's cache: the units of a parameter depend on its name and description alone. */
const UNIT_STEMS_OF = new WeakMap<ParamInfo, ReadonlySet<string>>();

function readUnitStems(p: ParamInfo): Set<string> {
  const out = new Set<string>();
  for (const a of p.anchors) if (UNIT_STEMS.has(a) && a.length > 1) out.add(canonUnit(a));
  // the denominator of a rate ("meters/second", "miles per hour", "m/s^2") is no unit the value
  // is written in: "5 seconds" is no velocity
  const per = rateDenominators(p);
  for (const d of p.descStems) if (UNIT_STEMS.has(d) && d.length > 1 && !per.has(canonUnit(d))) out.add(canonUnit(d));
  return out;
}

/**
 * A number written with a unit of time, length or mass ("3 days", "5 km") that the parameter
 * neither names nor describes (`units`: unitStemsOf(p)). (Not a count of things: "25 shares", "4 guests" may be a string
 * quantity's value.)
 */
export function foreignUnit(s: Span, p: ParamInfo, units: ReadonlySet<string>): boolean {
  const us = unitStem(s.unit);
  return us !== undefined && DIMENSIONS.some((d) => d.has(us)) && !units.has(us) && !p.anchors.some((a) => canonUnit(a) === us);
}

/** rateDenominators per parameter (computed once: it reads the whole description). */
const RATE_DENOMINATORS = new WeakMap<ParamInfo, Set<string>>();

/** Unit stems a parameter's description divides by ("hour" of "duplications per hour", "second" of "meters/second"). */
function rateDenominators(p: ParamInfo): Set<string> {
  const cached = RATE_DENOMINATORS.get(p);
  if (cached) return cached;
  const per = new Set<string>();
  RATE_DENOMINATORS.set(p, per);
  for (const m of p.description.matchAll(/(?:([a-z]+)\s?\/\s?|\bper\s+)([a-z]+)/gi)) {
    const u = unitStem(m[2]);
    // (units of one kind either side of "/" are alternatives: "in hours/minutes")
    if (u && !(m[1] !== undefined && sameDimension(unitStem(m[1]), u))) per.add(u);
  }
  return per;
}

/** Whether two unit stems measure the same kind of quantity. */
function sameDimension(a: string | undefined, b: string): boolean {
  return a !== undefined && DIMENSIONS.some((d) => d.has(a) && d.has(b));
}

/** Canonical unit stem. */
function canonUnit(u: string): string {
  return UNIT_CANON[u] ?? u;
}

/** Normalises a unit as written ("kms", "kilometers", "km") to a stem comparable with UNIT_STEMS. */
export function unitStem(u: string | undefined): string | undefined {
  const raw = unitStemRaw(u);
  return raw === undefined ? undefined : canonUnit(raw);
}

/** Unit stem before canonicalisation. */
function unitStemRaw(u: string | undefined): string | undefined {
  if (!u) return undefined;
  // a trailing exponent ("m^2") is dropped
  const w = u.replace(/\^\d$/, '').toLowerCase();
  const alias: Record<string, string> = {
    yrs: 'year',
    yr: 'year',
    mins: 'minut',
    min: 'minut',
    secs: 'second',
    sec: 'second',
    hrs: 'hour',
    hr: 'hour',
    kms: 'km',
    kilometres: 'kilomet',
    kilometers: 'kilomet',
    metres: 'meter',
    meters: 'meter',
    kgs: 'kg',
    lbs: 'pound',
    lb: 'pound',
    '°c': 'celsiu',
    '°f': 'fahrenheit',
    '°': 'degre',
    $: 'dollar',
    '€': 'euro',
    '£': 'pound',
    '¥': 'yen',
    ms: 'millisecond',
    m: 'meter',
    ft: 'feet',
    in: 'inch',
    g: 'gram',
    gr: 'gram',
    grams: 'gram',
    h: 'hour',
    s: 'second',
  };
  return alias[w] ?? stem(w);
}

/**
 * A number written with an SI-prefixed unit ("100µF", "50mH", "5 km") in the base unit the
 * parameter's description asks for ("in farads (F)", "in henries", "in meters"): 100µF → 0.0001.
 * Unchanged when the description names no base unit, or names a prefixed one itself
 * ("in kilometers", "in milliseconds").
 */
export function siScaled(v: number, unit: string | undefined, p: ParamInfo): number {
  if (!unit || unit.length < 2) return v;
  const prefix = SI_PREFIXES[unit[0]];
  const base = unit.slice(1);
  if (!prefix || !prefix.bases.includes(base)) return v;
  const word = SI_BASE_WORDS[base];
  const d = p.description.toLowerCase();
  if (!new RegExp(`\\b${word}\\b`).test(d)) return v;
  if (new RegExp(`\\b(?:pico|nano|micro|milli|centi|kilo|mega|giga)-?${word}\\b`).test(d)) return v;
  return Number((v * prefix.factor).toPrecision(12));
}

/**
 * A duration written in one unit of time ("3 minutes") in the one unit the parameter's
 * description asks for ("Length in seconds" → 180). Unchanged where the description names no
 * unit of time, or the value's own; months and years are not converted (their length varies).
 */
export function timeScaled(v: number, unit: string | undefined, p: ParamInfo, after = ''): number {
  const from = unitStem(unit);
  if (from === undefined || SECONDS_IN[from] === undefined) return v;
  // (not a point in time, "Unix timestamp in seconds"; not one part of "1 hour 30 minutes")
  if (/\b(?:timestamp|epoch|unix)\b/i.test(`${p.parts.join(' ')} ${p.description}`)) return v;
  if (/^\s*(?:and\s+|,\s*)?\d+\s*(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)\b/i.test(after)) return v;
  const m =
    /\b(?:in|as|of)\s+(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\b|\((?:in\s+)?(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\)/i.exec(
      p.description,
    );
  const to = m ? unitStem((m[1] ?? m[2]).toLowerCase()) : undefined;
  if (to === undefined || to === from || SECONDS_IN[to] === undefined) return v;
  // (one unit of time only: "Duration in hours/minutes" takes either)
  const named = new Set(
    [...p.description.matchAll(/\b(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\b/gi)].map((x) => unitStem(x[1].toLowerCase())),
  );
  if (named.size !== 1) return v;
  return Number(((v * SECONDS_IN[from]) / SECONDS_IN[to]).toPrecision(12));
}

/** Value kind "conversionUnits": the units of a conversion. */
export const CONVERSION_UNITS_KIND: ValueKindModule = {
  name: 'conversionUnits',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the units of a conversion ("How many ounces in 2 pounds of butter?") for from/to unit parameters
    out.push(...conversionUnits(p, doc));
  },
};

/** Value kind "measuredThing": the thing measured ("3 cups of flour"). */
export const MEASURED_THING_KIND: ValueKindModule = {
  name: 'measuredThing',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the thing measured ("2 pounds of butter", "3 cups of flour") for an item or ingredient
    out.push(...measuredThing(p, doc));
  },
};

/**
 * The units of a conversion for parameters named from_unit / to_unit (or unit_from, source_unit,
 * target_unit…): the unit written after an amount, or after "from", is the one converted from;
 * the one after "how many" or "to"/"into" is the one converted to ("How many ounces in 2 pounds
 * of butter?", "convert 3 cups to milliliters"). Sent in the singular, lower case. Only where
 * the request writes exactly one unit of each role.
 */
function conversionUnits(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !p.parts.includes('unit')) return [];
  const role = p.parts.some((x) => /^(from|source|original|input|initial)$/.test(x))
    ? 'from'
    : p.parts.some((x) => /^(to|target|destination|output|desired|into)$/.test(x))
      ? 'to'
      : undefined;
  if (role === undefined) return [];
  const found: { unit: string; role: 'from' | 'to'; start: number; end: number }[] = [];
  for (const t of doc.tokens) {
    const unit = MEASURE_UNITS[t.lower];
    if (unit === undefined) continue;
    const prev = doc.tokens[t.index - 1];
    const prev2 = doc.tokens[t.index - 2];
    const afterAmount =
      prev !== undefined &&
      (/^\d+(?:[.,]\d+)?$/.test(prev.text) || NUMBER_WORDS[prev.lower] !== undefined || ['a', 'an', 'one'].includes(prev.lower));
    if (afterAmount || prev?.lower === 'from') found.push({ unit, role: 'from', start: t.start, end: t.end });
    else if (['to', 'into'].includes(prev?.lower ?? '') || (prev?.lower === 'many' && prev2?.lower === 'how'))
      found.push({ unit, role: 'to', start: t.start, end: t.end });
  }
  const mine = found.filter((f) => f.role === role);
  const other = found.filter((f) => f.role !== role);
  if (mine.length !== 1 || other.length !== 1) return [];
  // (units of one kind only: cups to calories is no conversion)
  if (!MEASURE_KINDS.some((k) => k.has(mine[0].unit) && k.has(other[0].unit))) return [];
  return [
    {
      param: p,
      value: mine[0].unit,
      score: UNIT_SCORES.conversionUnitOfRole.v,
      ranges: [[mine[0].start, mine[0].end]],
      kind: 'conversion-unit',
    },
  ];
}

/** Name parts of a parameter for the thing an amount measures. */
const MEASURED_PARTS = new Set(['item', 'ingredient', 'food', 'substance', 'material', 'product', 'commodity']);

/**
 * The thing an amount of a unit measures, for a string parameter named for an item, ingredient,
 * food or substance: "2 pounds of butter" → "butter", "three cups of whole milk" → "whole milk"
 * (one or two words after "of", up to a function word or punctuation). Only where one such thing
 * is written.
 */
function measuredThing(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !p.parts.some((x) => MEASURED_PARTS.has(x))) return [];
  const found: Cand[] = [];
  for (const t of doc.tokens) {
    if (MEASURE_UNITS[t.lower] === undefined && !MEASURE_WORDS.has(t.lower)) continue;
    const prev = doc.tokens[t.index - 1];
    if (!prev || !(/^\d+(?:[.,]\d+)?$/.test(prev.text) || NUMBER_WORDS[prev.lower] !== undefined || ['a', 'an'].includes(prev.lower)))
      continue;
    if (doc.tokens[t.index + 1]?.lower !== 'of') continue;
    let words: Token[] = [];
    for (let k = t.index + 2; k < doc.tokens.length && words.length < 4; k++) {
      const w = doc.tokens[k];
      if (STOP_WORDS.has(w.lower) || !/^\s+$/.test(doc.text.slice(doc.tokens[k - 1].end, w.start))) break;
      words.push(w);
    }
    // (how it is prepared is no part of the thing: "chopped fresh basil" → "basil")
    while (words.length > 1 && (/^[a-z]+ed$/.test(words[0].text) || ['fresh', 'raw', 'frozen', 'ground'].includes(words[0].lower)))
      words = words.slice(1);
    if (words.length === 0) continue;
    const start = words[0].start;
    const end = words[words.length - 1].end;
    found.push({
      param: p,
      value: doc.text.slice(start, end),
      score: UNIT_SCORES.thingAfterUnitOf.v,
      ranges: [[start, end]],
      kind: 'measured',
    });
  }
  return found.length === 1 ? found : [];
}

/** A unit after a number makes it a size of one item ("a 12 inch pizza", "20 piece nuggets"), not a count. */
export const SIZE_UNITS = /^(inch|inches|in|piece|pieces|pc|pcs|oz|ounce|ounces|cm|mm|gb|tb|ml|inch-|foot|feet|ft|litre|liter)$/i;
