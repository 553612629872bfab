// The head reranker's quick reading of a tool's required parameters: which ones a request gives
// no value for (the requiredUnmet and noRequired features).
import {
  enumValueOffered,
  isObj,
  letterDigitRuns,
  paramsOf,
  prepare,
  requiredParams,
  type Doc,
  type ParamInfo,
  type RequiredParam,
  type Semantic,
  type SpanKind,
} from '@toolsurface/analysis';

/**
 * Span kinds (extract.ts) that can hold the value of a string parameter of each semantic
 * (schema.ts); a quoted span holds any. A semantic not listed (a name, free text, a generic
 * string) takes the request's own words, so it is never counted as unmet.
 */
const VALUE_KINDS: Partial<Record<Semantic, readonly SpanKind[]>> = {
  date: ['date'],
  datetime: ['date', 'time'],
  time: ['time', 'date'],
  email: ['email'],
  url: ['url'],
  path: ['path', 'url'],
  place: ['place'],
  origin: ['place'],
  destination: ['place'],
  id: ['id', 'number', 'email', 'url'],
};

/**
 * What a request offers as values: the kinds of its spans (extract.ts), its lower-case words
 * (runs of letters and digits) as a set and as one space-separated text with a space at each end,
 * and the mapper's analysis it was read from (`prepare`'s doc; undefined where that failed), which
 * the enums' tests read.
 */
export interface RequestValues {
  kinds: ReadonlySet<SpanKind>;
  words: ReadonlySet<string>;
  wordText: string;
  doc?: Doc;
}

/** A required parameter's test of a request: does it hold a value the parameter can take? */
type RequiredNeed = (request: RequestValues) => boolean;

/** A tool's required parameters as requiredUnmet reads them: the tests, and how many were read (defaults included). */
export interface RequiredReading {
  needs: RequiredNeed[];
  count: number;
}

/** Most required parameters of a tool that requiredUnmet reads (a tool's first ones in its `required` list). */
const MAX_REQUIRED_READ = 32;
/** Most values of an enum requiredUnmet reads, and the longest value it reads (in characters). */
const MAX_ENUM_READ = 256;
const MAX_ENUM_VALUE_CHARS = 100;
/**
 * Most enum values of one tool requiredUnmet reads as the mapper does (its first required enums
 * that fit; the rest by enumNeed). The mapper scores each value against the request, about 11 µs
 * a value where its words are partly written, more where nothing matches: 32 required enums of
 * 256 such values make a search with the tool in the head 3.1 ms at a budget of 256, against
 * 0.27 ms without the mapper's reading (hostile-search.bench.ts). 4 tools of the eval corpus have
 * more (166-207, League of Legends champions and items). Within every bound here, a tool still
 * costs up to about 0.6 ms more a search with it in the head (64 values of four 3-letter words; 8
 * numeric enums with 500-character descriptions; hostile-search.bench.ts).
 */
const MAX_MAPPER_ENUM_VALUES = 64;
/**
 * Most required enums of one tool read as the mapper does (each is one pass of the mapper's
 * candidates, a few µs before its values). With this cap, a tool of 32 required enums of 2 values
 * makes a search with it in the head 0.9 ms, against 0.3 ms without this reading
 * (hostile-search.bench.ts); without the cap, about 1.6 times the capped cost. No tool
 * of the eval corpus has more than 4.
 */
const MAX_MAPPER_ENUMS = 8;
/**
 * More bounds on what the mapper's enum reading takes, each above the eval corpus's largest (in
 * brackets) so that no corpus tool is read otherwise: the characters of a tool's enum values read
 * that way (756), the words of one value (6), a parameter's description (449 characters) and name
 * (28). The mapper reads a parameter's enum words and code list once (enumWords and codeMeanings
 * in arguments.ts), so long values and long descriptions cost once per parameter; these bounds
 * are a second guard on what a search reads (64 values of 20 words each, or numeric enums with
 * descriptions of 10,000 characters, are within the other limits alone).
 */
const MAX_MAPPER_ENUM_CHARS = 1_024;
const MAX_MAPPER_VALUE_WORDS = 8;
const MAX_MAPPER_PARAM_DESCRIPTION_CHARS = 500;
const MAX_MAPPER_PARAM_NAME_CHARS = 64;
/**
 * Most top-level properties of a schema whose required enums requiredUnmet reads as the mapper
 * does (enumValueOffered needs the parameter as paramsOf reads it, and paramsOf reads every
 * property); a larger schema's enums are read by enumNeed alone.
 */
const MAX_MAPPER_SCHEMA_PROPS = 200;
/** How many top-level properties a schema has (0 for one that is not an object schema). */
function propertyCount(schema: unknown): number {
  const props = isObj(schema) ? schema['properties'] : undefined;
  return isObj(props) ? Object.keys(props).length : 0;
}
/** Most characters of a request requestValues reads: the mapper's analysis grows faster than the text with the values it holds. */
export const REQUEST_VALUES_MAX_CHARS = 300;

/**
 * The test of an enum: one of its string values written in the request as whole words (a value of
 * one letter or none is left out), or, when a value is a number, any number. Undefined when no
 * value can be tested for (booleans, nulls, objects): the parameter is never counted as unmet.
 */
function enumNeed(values: readonly unknown[]): RequiredNeed | undefined {
  const single = new Set<string>();
  const phrases: string[] = [];
  let numeric = false;
  for (const v of values.slice(0, MAX_ENUM_READ)) {
    if (typeof v === 'number') numeric = true;
    if (typeof v !== 'string' || v.length > MAX_ENUM_VALUE_CHARS) continue;
    const words = letterDigitRuns(v.toLowerCase());
    if (words.join('').length < 2) continue;
    if (words.length === 1) single.add(words[0]);
    else phrases.push(` ${words.join(' ')} `);
  }
  if (!numeric && single.size === 0 && phrases.length === 0) return undefined;
  const singles = [...single];
  return (r) => (numeric && r.kinds.has('number')) || singles.some((w) => r.words.has(w)) || phrases.some((p) => r.wordText.includes(p));
}

/**
 * The tests of a tool's required top-level parameters that have no default (schema.ts
 * requiredParams, the first MAX_REQUIRED_READ; a parameter any words can fill has none): an enum,
 * the mapper's reading of it (arguments.ts enumValueOffered: a value, a synonym or another form of
 * one written, "remove" for "delete", "London time" for "Europe/London") where the enum's values
 * are at most MAX_ENUM_VALUE_CHARS characters long, the tool's required enums read so far together
 * with it have at most MAX_MAPPER_ENUM_VALUES values and number at most MAX_MAPPER_ENUMS (and the
 * other MAX_MAPPER_* bounds hold), and the schema at most
 * MAX_MAPPER_SCHEMA_PROPS properties, else enumNeed's whole words (an enum enumNeed cannot test,
 * booleans or values of one letter, has no test; under the mapper's reading a value meaning no
 * preference, "all", "none", or a "true"/"false" string, does not count when written); a number or
 * integer, a number; a string of a semantic in VALUE_KINDS, a span of one of its kinds or a quoted
 * one.
 */
export function requiredNeeds(inputSchema: unknown): RequiredReading {
  const params = requiredParams(inputSchema, MAX_REQUIRED_READ);
  const needs: RequiredNeed[] = [];
  let info: Map<string, ParamInfo> | undefined;
  let budget = MAX_MAPPER_ENUM_VALUES;
  let charBudget = MAX_MAPPER_ENUM_CHARS;
  let enumsRead = 0;
  // The parameter as the mapper reads it, where its enum fits what is left of the tool's
  // MAX_MAPPER_* bounds (it then takes its share of them); undefined otherwise. The mapper scores
  // every value against each request, so the values are looked at only when few enough.
  const mapperReadable = (p: RequiredParam, values: readonly unknown[]): ParamInfo | undefined => {
    if (values.length > budget || enumsRead >= MAX_MAPPER_ENUMS || p.name.length > MAX_MAPPER_PARAM_NAME_CHARS) return undefined;
    const strings = values.filter((v): v is string => typeof v === 'string');
    const chars = strings.reduce((n, v) => n + v.length, 0);
    if (
      chars > charBudget ||
      !strings.every((v) => v.length <= MAX_ENUM_VALUE_CHARS && letterDigitRuns(v).length <= MAX_MAPPER_VALUE_WORDS)
    )
      return undefined;
    info ??= propertyCount(inputSchema) <= MAX_MAPPER_SCHEMA_PROPS ? new Map(paramsOf(inputSchema).map((q) => [q.name, q])) : new Map();
    const full = info.get(p.name);
    if (full === undefined || full.description.length > MAX_MAPPER_PARAM_DESCRIPTION_CHARS) return undefined;
    budget -= values.length;
    charBudget -= chars;
    enumsRead++;
    return full;
  };
  for (const p of params) {
    if (p.hasDefault) continue;
    if (p.enumValues !== undefined && p.enumValues.length > 0) {
      const need = enumNeed(p.enumValues);
      if (need === undefined) continue;
      const full = mapperReadable(p, p.enumValues);
      // (without a doc, or where the mapper's reading fails, the words alone)
      needs.push(
        full === undefined
          ? need
          : (r) => {
              if (r.doc === undefined) return need(r);
              try {
                return enumValueOffered(full, r.doc);
              } catch {
                return need(r);
              }
            },
      );
    } else if (p.type === 'number' || p.type === 'integer') {
      needs.push((r) => r.kinds.has('number'));
    } else if (p.type === 'string') {
      const kinds = VALUE_KINDS[p.semantic];
      if (kinds !== undefined) needs.push((r) => r.kinds.has('quoted') || kinds.some((k) => r.kinds.has(k)));
    }
  }
  return { needs, count: params.length };
}

/**
 * How many of a tool's required parameters a request holds no value for, at most 3: a quick
 * reading (the kinds of the request's spans and its words; of the mapper, only its enum reading)
 * that agrees with the mapper's missing arguments on 68% of the dev split's head tools and 89% of
 * the relevant ones among them (both counted up to 3; 67% and 86% with enums read as whole words
 * alone, which counts 184 relevant head tools unmet where the mapper fills a required enum,
 * against 80 with the mapper's enum reading).
 */
export function unmetRequired(needs: readonly RequiredNeed[], request: RequestValues): number {
  let unmet = 0;
  for (let i = 0; i < needs.length && unmet < 3; i++) if (!needs[i](request)) unmet++;
  return unmet;
}

/**
 * The values a request offers (RequestValues) in its first REQUEST_VALUES_MAX_CHARS characters,
 * read by the mapper's analysis; only its words when that cannot read it.
 */
export function requestValues(request: string): RequestValues {
  const text = String(request).slice(0, REQUEST_VALUES_MAX_CHARS);
  const words = letterDigitRuns(text.toLowerCase());
  const base = { words: new Set(words), wordText: ` ${words.join(' ')} ` };
  try {
    const { doc } = prepare(text);
    return { ...base, kinds: new Set(doc.spans.map((s) => s.kind)), doc };
  } catch {
    return { ...base, kinds: new Set() };
  }
}
