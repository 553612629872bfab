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
import { isObj, tokenize, type DetailedMapping, type MapperTool } from '@toolsurface/analysis';
import {
  buildProfile,
  bigramsOf,
  contentTokens,
  features,
  FEATURE_NAMES,
  nameWordStats,
  textStems,
  type NameWordStats,
  type ToolProfile,
} from './tool-features.js';
import { dot } from './semantic.js';
import { sharedWordVectors, type WordVectors } from './word-vectors.js';
import { HEAD_RERANK } from './head-rerank-weights.js';
import { listwiseProblem, listwiseScorer, type HiddenLayer } from './listwise.js';
import { cjkShare, MEANING_MAX_WORDS, unaccented, meaningWord, meaningWords } from './head-text.js';
import { type RequestValues, type RequiredReading, requiredNeeds, unmetRequired, requestValues } from './required-values.js';
export type { RequestValues } from './required-values.js';
export { requestValues, unmetRequired, REQUEST_VALUES_MAX_CHARS } from './required-values.js';
export { cjkShare } from './head-text.js';

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
