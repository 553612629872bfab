/**
 * candidatesFor: the scored candidate values of one parameter, from the value-kind modules in a
 * fixed order. Each module says which parameters it serves; the type modules (enums, untyped,
 * numbers, flags, arrays, objects) end the walk, the string modules all run in turn.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { anchorHits } from './anchors.js';
import { ARRAYS_KIND } from './arrays.js';
import { CODES_KIND, CURRENCY_KIND, MUSIC_KEY_KIND } from './codes.js';
import { MATH_KIND } from './commands.js';
import { END_FROM_DURATION_KIND } from './dates.js';
import { COLOUR_KIND, DESCRIBED_VALUE_KIND, ENUMS_KIND } from './enums.js';
import { FLAGS_KIND } from './flags.js';
import { NUMBERS_KIND } from './numbers.js';
import { PHRASES_KIND } from './phrases.js';
import { AREA_KIND } from './places.js';
import { SPANS_KIND } from './spans.js';
import { SEARCH_PHRASE_KIND, WHOLE_REQUEST_KIND } from './text.js';
import { type Cand, type MapArgumentsOptions, type ParamContext, REQUIRED_MIN_SCORE, type ValueKindModule } from './types.js';
import { CONVERSION_UNITS_KIND, MEASURED_THING_KIND, unitStemsOf } from './units.js';

/**
 * Whether a prepared request offers a value of an enum parameter as candidatesFor reads it: a
 * candidate it could fill the parameter with when required (score at least REQUIRED_MIN_SCORE).
 * That is enumScore's rules (the value's words or stems, a squashed form, one edit away, the
 * first six letters, an abbreviation, a language or time-zone name, part of a multi-word value),
 * a synonym, a numeral as a number, or a distinctive word of one value, so it can count a value
 * the request does not write ("table" in "cable"). Values meaning no preference ("all", "none",
 * "auto", DONTCARE) and boolean-like string enums ("true"/"false") are not counted when written,
 * though the mapper fills some of them elsewhere. The head reranker's requiredUnmet reads it
 * (head-rerank.ts).
 */
export function enumValueOffered(p: ParamInfo, doc: Doc): boolean {
  return candidatesFor(p, doc).some((c) => c.score >= REQUIRED_MIN_SCORE.v);
}

/** How one prepared request is mapped: traced, and with which modules left out. */
export interface RunOptions {
  trace: boolean;
  skip: ReadonlySet<string>;
}

/**
 * The run options of prepared requests that set any (prepare): kept beside the Doc, which every
 * module already receives, so that neither the modules nor mapObject's callers take a new
 * argument; a request mapped with neither option is not in it.
 */
const RUNS = new WeakMap<Doc, RunOptions>();

/** Records a prepared request's trace and skipModules options (nothing when neither is set). */
export function setRunOptions(doc: Doc, options: MapArgumentsOptions): void {
  if (options.trace || (options.skipModules?.length ?? 0) > 0)
    RUNS.set(doc, { trace: options.trace === true, skip: new Set(options.skipModules ?? []) });
}

/** A prepared request's run options, if it set any. */
export function runOptionsOf(doc: Doc): RunOptions | undefined {
  return RUNS.get(doc);
}

/** Marks the candidates a module appended from index `from` on with its name, unless an inner walk did (untyped, arrays). */
function tag(out: Cand[], from: number, name: string): void {
  for (let i = from; i < out.length; i++) out[i].module ??= name;
}

/**
 * Consults the modules in order for one parameter. A skipped module proposes nothing but still
 * ends the walk where it would have: leaving out the numbers module does not hand a number
 * parameter to the string modules.
 */
function proposeAll(kinds: readonly ValueKindModule[], p: ParamInfo, doc: Doc, run: RunOptions | undefined): Cand[] {
  const ctx: ParamContext = { type: p.type === 'any' ? 'string' : p.type, hits: anchorHits(p, doc), units: unitStemsOf(p) };
  const out: Cand[] = [];
  for (const k of kinds) {
    if (!k.serves(p, ctx)) continue;
    const skipped = run !== undefined && run.skip.has(k.name);
    if (k.ends === 'alone') {
      const own: Cand[] = [];
      if (!skipped) k.propose(p, doc, ctx, own);
      if (run?.trace) tag(own, 0, k.name);
      return own;
    }
    const from = out.length;
    if (!skipped) k.propose(p, doc, ctx, out);
    if (run?.trace) tag(out, from, k.name);
    if (k.ends === 'last') return out;
  }
  return out;
}

/** The names of the value-kind modules, in the order they are consulted. */
export function valueKindNames(): string[] {
  return valueKinds().map((k) => k.name);
}

/** Every parameter. */
export function every(): boolean {
  return true;
}

/** A parameter with enum values (an array's enum is its items'). */
export function enumParam(p: ParamInfo, ctx: ParamContext): boolean {
  return p.enumValues !== undefined && p.enumValues.length > 0 && ctx.type !== 'array';
}

/** A parameter of no declared type. */
function untypedParam(p: ParamInfo): boolean {
  return p.type === 'any';
}

/** An integer or number parameter. */
export function numericParam(_p: ParamInfo, ctx: ParamContext): boolean {
  return ctx.type === 'integer' || ctx.type === 'number';
}

/** A boolean parameter. */
export function booleanParam(_p: ParamInfo, ctx: ParamContext): boolean {
  return ctx.type === 'boolean';
}

/** An array parameter. */
export function arrayParam(_p: ParamInfo, ctx: ParamContext): boolean {
  return ctx.type === 'array';
}

/** An object parameter. */
function objectParam(_p: ParamInfo, ctx: ParamContext): boolean {
  return ctx.type === 'object';
}

/** A string parameter. */
export function stringParam(_p: ParamInfo, ctx: ParamContext): boolean {
  return ctx.type === 'string';
}

/** Value kind "untyped": a parameter of no type: numbers as numbers, anything else as text; ends the walk. */
const UNTYPED_KIND: ValueKindModule = {
  name: 'untyped',
  serves: untypedParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    // untyped parameters: numbers stay numbers, everything else is a string
    out.push(...candidatesFor({ ...p, type: 'number' }, doc));
    out.push(...candidatesFor({ ...p, type: 'string' }, doc).filter((c) => c.kind !== 'number'));
  },
};

/** Value kind "objects": nothing for an object parameter (mapObject maps its fields). */
const OBJECTS_KIND: ValueKindModule = {
  name: 'objects',
  serves: objectParam,
  ends: 'alone',
  propose() {
    // (an object is mapped field by field: mapObject)
  },
};

/** Candidate values for one parameter: the value-kind modules in order (see VALUE_KINDS). */
export function candidatesFor(p: ParamInfo, doc: Doc): Cand[] {
  return proposeAll(valueKinds(), p, doc, RUNS.get(doc));
}

/** valueKinds' list, built on first use. */
let VALUE_KINDS: readonly ValueKindModule[] | undefined;

/**
 * The value-kind modules in the order they are consulted (the order breaks score ties: mapObject
 * sorts stably). Built on first use: the modules import this one, so a list built as this file
 * loads could read a module that has not loaded yet.
 */
function valueKinds(): readonly ValueKindModule[] {
  return (VALUE_KINDS ??= [
    CODES_KIND,
    ENUMS_KIND,
    UNTYPED_KIND,
    NUMBERS_KIND,
    FLAGS_KIND,
    ARRAYS_KIND,
    OBJECTS_KIND,
    DESCRIBED_VALUE_KIND,
    MUSIC_KEY_KIND,
    COLOUR_KIND,
    CURRENCY_KIND,
    SPANS_KIND,
    PHRASES_KIND,
    WHOLE_REQUEST_KIND,
    AREA_KIND,
    MATH_KIND,
    END_FROM_DURATION_KIND,
    CONVERSION_UNITS_KIND,
    MEASURED_THING_KIND,
    SEARCH_PHRASE_KIND,
  ]);
}
