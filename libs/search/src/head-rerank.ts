/**
 * A learned second stage for discover_tools: re-orders the first places of a search's ranking by
 * a small model (linear weights plus one hidden layer of tanh units) over the unified mapper's
 * lexical selection features (tool-features.ts), a word-meaning cosine and a script mismatch: how much of
 * the request the tool's name, description and parameters cover, how much of the tool the request
 * covers, echoed word pairs, action verbs, numbers against numeric parameters, and the search's
 * own score and rank, and a quick reading of the tool's required parameters the request gives no
 * value for (requiredUnmet, noRequired). The features that need mapped arguments are left out:
 * mapping the 15 head tools takes about 2.2 ms, against discover_tools' 2 ms budget (docs/DESIGN.md,
 * "Performance budget").
 *
 * Per-tool profiles are built lazily (about 0.15 ms each) and kept, so a snapshot's first search
 * pays only for the tools in its head; `warm` builds the rest in slices, off the request path.
 * Word weights come from the search index's own document frequencies (the same Porter stems), so
 * no pass over the whole snapshot is needed. Weights: head-rerank-weights.ts, fitted by
 * `npx tsx tools/search/fit-head-rerank.ts` (listwise softmax, three models from different
 * random starts averaged into one layer, 5-fold cross-validated by query; its figures are in that
 * file and in libs/search/README.md).
 */
import {
  enumValueOffered,
  isObj,
  letterDigitRuns,
  paramsOf,
  prepare,
  requiredParams,
  splitIdentifier,
  STOP_WORDS,
  tokenize,
  type DetailedMapping,
  type Doc,
  type MapperTool,
  type ParamInfo,
  type RequiredParam,
  type Semantic,
  type SpanKind,
} from '@toolsurface/analysis';
import {
  buildProfile,
  bigramsOf,
  contentTokens,
  features,
  FEATURE_NAMES,
  hashLike,
  nameWordStats,
  textStems,
  type NameWordStats,
  type ToolProfile,
} from './tool-features.js';
import { dot } from './semantic.js';
import { sharedWordVectors, type WordVectors } from './word-vectors.js';
import { HEAD_RERANK } from './head-rerank-weights.js';
import { listwiseProblem, listwiseScorer, type HiddenLayer } from './listwise.js';

/** Base features that need mapped arguments (or a caller's preferred tools / context): not used here. */
const MAPPING_FEATURES = new Set([
  'fill',
  'evidence',
  'salientUsed',
  'missingReq',
  'preferred',
  'contextKeys',
  'optionalFilled',
  'mentionedUnfilled',
  'paramsFilled',
  'requiredAllFilled',
  'datesAsWritten',
]);

/** Indices into FEATURE_NAMES of the lexical features (products included when both factors are lexical). */
const LEXICAL_INDEX: readonly number[] = FEATURE_NAMES.map((n, i) => [n, i] as const)
  .filter(([n]) => !n.split('*').some((p) => MAPPING_FEATURES.has(p)))
  .map(([, i]) => i);

/**
 * Names of the head reranker's features, in vector order: the lexical ones, then `wordMeaning`,
 * the cosine between the mean GloVe vector of the request's words (weighted by idf) and that of
 * the tool's words (its name, title, description and parameter names): a meaning the words share without
 * sharing spellings ("the UV index in Toronto" and "the latest weather information"); then
 * `scriptMismatch`, |cjkShare(request) − cjkShare(the tool's title and description)|: the
 * lexical features read Latin words only, so without it a tool described in Chinese looks like one
 * that covers nothing of an English request, and the stage pushes get-bbc-news from first to 7th
 * for "Find today's top LLM-related news" (docs/decisions/search-cjk-length-and-script-mismatch.md).
 * Then `requiredUnmet`, min(3, the tool's required parameters the request holds no value for, by
 * unmetRequired), and `noRequired`, 1 for a tool with no required parameter: a tool that asks
 * for a date, a URL or a number the request does not give is seldom the one meant
 * (docs/decisions/search-head-required-unmet.md). They are read from the schema, not from the
 * mapper's own missing arguments, which rank lower on LiveMCPBench and cost about 2.2 ms a
 * request for 15 head tools (mapPrepared on each).
 */
export const HEAD_FEATURE_NAMES: readonly string[] = [
  ...LEXICAL_INDEX.map((i) => FEATURE_NAMES[i]),
  'wordMeaning',
  'scriptMismatch',
  'requiredUnmet',
  'noRequired',
];

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
interface RequiredReading {
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
function requiredNeeds(inputSchema: unknown): RequiredReading {
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

/** One CJK character (Han, kana, Hangul), as the search's analyzer reads them. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** One Latin letter (the words the lexical features read). */
const LATIN_LETTER = /[A-Za-z]/g;

/** Share of a text's letters (Latin and CJK) that are CJK characters, over its first 2,000 characters; 0 when it has no letters. */
export function cjkShare(text: string): number {
  const t = text.slice(0, 2000);
  const cjk = t.match(CJK_CHAR)?.length ?? 0;
  const latin = t.match(LATIN_LETTER)?.length ?? 0;
  return cjk + latin === 0 ? 0 : cjk / (cjk + latin);
}

/** Most words of a text the word-meaning feature reads (a tool's text or a request). */
const MEANING_MAX_WORDS = 200;

/** A word without its accents ("résumé" → "resume", "café" → "cafe"), as the table spells words. */
function unaccented(w: string): string {
  return /[^\x00-\x7f]/.test(w) ? w.normalize('NFD').replace(/\p{M}/gu, '') : w;
}

/** A lower-case word the word-meaning feature reads: letters a-z only, 3 or more, no stop word. */
function meaningWord(w: string): boolean {
  return w.length >= 3 && /^[a-z]+$/.test(w) && !STOP_WORDS.has(w);
}

/**
 * Distinct lower-case words of a tool's texts (identifiers split, accents dropped, hash-like
 * chunks such as a name's "7e30dad4" skipped), each a meaningWord; at most MEANING_MAX_WORDS.
 */
function meaningWords(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const chunk of unaccented(text.slice(0, 4000)).match(/[A-Za-z0-9]+/g) ?? []) {
      if (hashLike(chunk.toLowerCase())) continue;
      for (const part of splitIdentifier(chunk)) {
        const w = part.toLowerCase();
        if (meaningWord(w)) out.add(w);
        if (out.size >= MEANING_MAX_WORDS) return [...out];
      }
    }
  }
  return [...out];
}

/**
 * Most characters of a request the features read (the search itself keeps 64 query terms): the
 * features' cost grows with the request's words times the head's hits, and 3 of the 1,475 dev
 * requests are longer.
 */
export const HEAD_QUERY_MAX_CHARS = 1000;

/** A mapping with nothing mapped: the neutral input for the features that read one. */
const NO_MAPPING: DetailedMapping = Object.freeze({
  arguments: {},
  missingArguments: [],
  filledRatio: 0,
  evidence: {},
  unusedSalient: 0,
  unusedValues: [],
  coordinated: [],
  salient: 0,
  requiredCount: 0,
  covered: [],
  mentionedUnfilled: 0,
  weakKinds: 0,
  paramCount: 0,
  datesAsWritten: 0,
}) as DetailedMapping;

/** One hit of the head: a tool name of the snapshot and its search score (higher is better). */
export interface HeadHit {
  name: string;
  score: number;
}

/** Term statistics of the search index the head came from. */
export interface HeadTermStats {
  /** tools in the snapshot */
  size: number;
  /** tools whose indexed text holds the (stemmed, lower-case) term; 0 when none does */
  docFreq(term: string): number;
}

/**
 * Fitted weights of the head reranker, with the features they were fitted for: a tool's score is
 * Σ weights[f] × x_f, plus the hidden layer's output when there is one.
 */
export interface HeadRerankWeights {
  featureNames: readonly string[];
  weights: readonly number[];
  hidden?: HiddenLayer;
}

/** Fitted weights as a scoring function of a feature vector (HEAD_FEATURE_NAMES order; higher is better). */
export function headScorer(fitted: HeadRerankWeights): (x: readonly number[]) => number {
  return listwiseScorer(fitted.weights, fitted.hidden);
}

/** Why fitted weights cannot be used, or undefined when they can. */
function staleOrMalformed(fitted: HeadRerankWeights): string | undefined {
  const dim = HEAD_FEATURE_NAMES.length;
  if (fitted.featureNames.length !== dim || fitted.featureNames.some((n, i) => n !== HEAD_FEATURE_NAMES[i]))
    return 'were fitted for other features';
  return listwiseProblem(dim, fitted.weights, fitted.hidden);
}

/** A snapshot's lexical head reranker (one per snapshot; profiles kept for its lifetime). */
export class LexicalHeadReranker {
  private readonly byName = new Map<string, MapperTool>();
  /** names that more than one tool of the snapshot has: no profile can stand for them */
  private readonly repeated = new Set<string>();
  private readonly profiles = new Map<string, ToolProfile>();
  /** per profiled tool: the mean vector of its words (null: none of them has a vector) */
  private readonly meanings = new Map<string, Float32Array | null>();
  /** per profiled tool: cjkShare of its title and description (the scriptMismatch feature) */
  private readonly scripts = new Map<string, number>();
  /** per profiled tool: its required parameters' tests and how many required parameters it has */
  private readonly required = new Map<string, RequiredReading>();
  private readonly vectors: WordVectors | undefined;
  private readonly names: NameWordStats;
  /** the fitted model's score of a feature vector */
  private readonly score: (x: readonly number[]) => number;
  /** tools whose profile `warm` has not built yet, in snapshot order */
  private pending: MapperTool[];

  /**
   * @param tools the snapshot's tools (MCP `Tool` shape: name, title, description, inputSchema)
   * @param fitted weights and the feature names they were fitted for (default: the shipped fit)
   * @param vectors word vectors of the wordMeaning feature (default: @toolsurface/search's shipped
   *   table); `false`, or a table that cannot be read, makes that feature 0 for every tool
   * @throws Error when `fitted` was fitted for other features than HEAD_FEATURE_NAMES (a stale
   *   fit), or its weights or hidden layer have the wrong sizes or a value that is not finite
   */
  constructor(
    tools: readonly MapperTool[],
    fitted: HeadRerankWeights = HEAD_RERANK,
    vectors: WordVectors | false | undefined = sharedWordVectors(),
  ) {
    const why = staleOrMalformed(fitted);
    if (why !== undefined) throw new Error(`head reranker weights ${why}: rerun tools/search/fit-head-rerank.ts`);
    this.score = headScorer(fitted);
    this.vectors = vectors || undefined;
    for (const raw of tools) {
      if (raw === null || typeof raw !== 'object' || raw.name === undefined || raw.name === null) continue;
      // (names as the search index keys them; buildProfile reads a description or title that is not a string as no text)
      const t = { ...raw, name: String(raw.name) };
      if (this.byName.has(t.name)) this.repeated.add(t.name);
      else this.byName.set(t.name, t);
    }
    this.names = nameWordStats([...this.byName.values()]);
    this.pending = [...this.byName.values()];
  }

  /** Profiles built so far (lazily by `features`/`rerank`, or by `warm`). */
  get profilesBuilt(): number {
    return this.profiles.size;
  }

  /**
   * Builds profiles of tools not yet seen for up to `budgetMs` milliseconds.
   * @returns true when every tool of the snapshot has its profile
   */
  warm(budgetMs: number): boolean {
    const end = performance.now() + Math.max(0, budgetMs);
    while (this.pending.length > 0 && performance.now() < end) this.profileOf(this.pending.shift()!.name);
    return this.pending.length === 0;
  }

  /** The profile of a tool of the snapshot, built on first use; undefined for a name outside it or one that cannot be profiled. */
  private profileOf(name: string): ToolProfile | undefined {
    let p = this.profiles.get(name);
    if (p === undefined) {
      const tool = this.byName.get(name);
      if (tool === undefined || this.repeated.has(name)) return undefined;
      let meaning: Float32Array | undefined;
      let required: RequiredReading;
      try {
        p = buildProfile(tool, this.names);
        required = requiredNeeds(tool.inputSchema);
        if (this.vectors) {
          // (the name, the description and the top-level parameter names; the title when there is one)
          const schema: unknown = tool.inputSchema;
          const properties: unknown = isObj(schema) ? schema['properties'] : undefined;
          const params = isObj(properties) ? Object.keys(properties).slice(0, MEANING_MAX_WORDS) : [];
          const texts = [tool.name, ...[tool.title, tool.description].filter((x): x is string => typeof x === 'string'), ...params];
          meaning = this.vectors.phrase(meaningWords(texts));
        }
      } catch {
        // a schema no profile can read: the tool keeps its search place (see rerank)
        this.byName.delete(name);
        return undefined;
      }
      this.profiles.set(name, p);
      this.meanings.set(name, meaning ?? null);
      this.required.set(name, required);
      this.scripts.set(name, cjkShare([tool.title, tool.description].filter((x): x is string => typeof x === 'string').join(' ')));
    }
    return p;
  }

  /**
   * Feature vectors (HEAD_FEATURE_NAMES order) of the head's hits, best first as the search
   * ranked them; undefined for a name that is not in the snapshot. Used by `rerank` and by the
   * fit script, so both see the same inputs.
   */
  features(request: string, head: readonly HeadHit[], stats: HeadTermStats): (number[] | undefined)[] {
    const query = String(request).slice(0, HEAD_QUERY_MAX_CHARS);
    const queryStems = textStems(query);
    const queryBigrams = [...new Set(bigramsOf(queryStems))];
    const tokens = tokenize(query);
    const queryTokens = contentTokens(tokens);
    // plain numbers written in the request ("3", "2.5")
    const numberCount = tokens.filter((t) => /^\d+(?:\.\d+)?$/.test(t.lower)).length;
    const n = Math.max(1, stats.size);
    // the index's document frequencies, each term looked up once a request (the head's tools share many)
    const seen = new Map<string, number | undefined>();
    const idf = {
      get(term: string): number | undefined {
        if (seen.has(term)) return seen.get(term);
        const df = stats.docFreq(term);
        const w = df > 0 ? Math.log(1 + n / df) : undefined;
        seen.set(term, w);
        return w;
      },
    };
    const shared = {};
    const topScore = head[0]?.score ?? 0;
    // the request's words weigh by idf (a word no tool has, as rare as one in half a tool)
    const maxIdf = Math.log(1 + 2 * n);
    const meaning = this.vectors ? this.requestMeaning(tokens, (st) => idf.get(st) ?? maxIdf) : undefined;
    const requestScript = cjkShare(query);
    // (read once, and only when a head tool has a required parameter to test)
    let values: RequestValues | undefined;
    return head.map((h, rank) => {
      const profile = this.profileOf(h.name);
      if (profile === undefined) return undefined;
      const f = features({
        profile,
        idf,
        queryStems,
        rank,
        score: h.score,
        topScore,
        mapping: NO_MAPPING,
        preferred: false,
        contextKeys: [],
        queryTokens,
        numberCount,
        queryBigrams,
        snapshotSize: n,
        shared,
      });
      const toolMeaning = this.meanings.get(h.name);
      const out = LEXICAL_INDEX.map((i) => f[i]);
      out.push(meaning && toolMeaning ? dot(meaning, toolMeaning) : 0);
      out.push(Math.abs(requestScript - (this.scripts.get(h.name) ?? 0)));
      const required = this.required.get(h.name)!;
      if (required.needs.length > 0) values ??= requestValues(query);
      out.push(values === undefined ? 0 : unmetRequired(required.needs, values), required.count === 0 ? 1 : 0);
      return out;
    });
  }

  /**
   * The unit mean vector of a request's words (its tokens as the lexical features read them: the
   * lower-case words of 3 letters or more that are no stop word, each once, at most
   * MEANING_MAX_WORDS), each weighted by `weight` of its stem; undefined when none has a vector.
   */
  private requestMeaning(tokens: readonly { lower: string; stem: string }[], weight: (stem: string) => number): Float32Array | undefined {
    // word → its stem, in request order
    const stems = new Map<string, string>();
    for (const t of tokens) {
      const w = unaccented(t.lower);
      if (stems.size >= MEANING_MAX_WORDS || stems.has(w) || !meaningWord(w)) continue;
      stems.set(w, t.stem);
    }
    return this.vectors!.phrase([...stems.keys()], (w) => weight(stems.get(w)!));
  }

  /**
   * Scores of the head's hits under the fitted model (higher is better), in the order given; the
   * caller re-orders the head by them. Undefined (leave the search's order) when a hit has no
   * profile: a name outside the snapshot, one that several tools share, or a tool whose schema
   * could not be read.
   */
  rerank(query: string, head: readonly HeadHit[], stats: HeadTermStats): number[] | undefined {
    const feats = this.features(query, head, stats);
    if (feats.some((f) => f === undefined)) return undefined;
    return (feats as number[][]).map((f) => this.score(f));
  }
}
