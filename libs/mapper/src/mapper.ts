/**
 * UnifiedMapper: picks one tool of an immutable snapshot for a `unified_tool` request, maps the
 * request (and context) onto its arguments, and gives a calibrated confidence. Retrieval gives
 * the top-k; a fitted reranker (linear weights; listwise.ts) re-orders them using how well each tool's name,
 * description and parameters cover the request and how well the request fills its parameters.
 */
import { CONFIDENCE_THRESHOLD, UNIFIED_HELD_BACK_PREFIX, UNIFIED_NO_CLOSE_TOOL_PREFIX } from '@toolsurface/core';
import { isObj, mapPrepared, prepare, requiredOf, type DetailedMapping, type MapArgumentsOptions } from '@toolsurface/analysis';
import {
  bigramsOf,
  contentTokens,
  features,
  FEATURE_NAMES,
  listwiseProblem,
  listwiseScorer,
  textStems,
  type Features,
  type ToolProfile,
} from '@toolsurface/search';
import { arithmeticClash, buildProfiles, destructiveClash, forbidsDeletion, requestOperation } from './selection.js';
import { confidenceFeatures, toolConfidence, fullConfidence } from './confidence.js';
import { CALIBRATION } from './calibration.js';
import { argumentValidator } from './schema-check.js';
import { jsonKey } from './same-json.js';
import type { MapperTool, Retriever, MapInput, MapResult, CandidateResult, RetrievedCandidate } from './types.js';

/** Thrown when `preferredTools` names tools that are not in the snapshot. */
export class PreferredToolNotInSnapshotError extends Error {
  /** the preferred names that are not in the snapshot */
  readonly names: string[];
  constructor(names: string[]) {
    super(`preferred tools not in the snapshot: ${names.join(', ')}`);
    this.name = 'PreferredToolNotInSnapshotError';
    this.names = names;
  }
}

/** Options of the mapper. */
export interface UnifiedMapperOptions extends MapArgumentsOptions {
  /** how many retrieved tools to re-rank (default 30) */
  retrieveLimit?: number;
}

/** Per-call options of `map` (the gRPC request's reference time). */
export interface MapCallOptions {
  /** "today" for relative dates in this request (default: the mapper's option, else the clock) */
  now?: Date;
}

/** One re-ranked candidate with everything the decision and the calibration scripts need. */
export interface RankedCandidate {
  name: string;
  retrieval: RetrievedCandidate & { rank: number };
  mapping: DetailedMapping;
  features: Features;
  rerankScore: number;
  prob: number;
  confFeatures: number[];
  toolConfidence: number;
  fullConfidence: number;
  /** the request and the tool's name disagree on a destructive action or on the arithmetic (libs/search/src/tool-features.ts destructiveClash, arithmeticClash) */
  clash?: { asked: string; does: string };
  /** the tool's parameter names, sorted and joined (shapeOf): tools of one shape are versions of one call (heldBackReason) */
  shape?: string;
  /** the request names a word of the tool's namespace ("Google Calendar" for google.create_event; namespaceStems) */
  namespaceNamed?: boolean;
}

/**
 * A tool's base name: the last segment of its name after a namespace or server prefix, without a
 * version or content-hash segment, lower-cased ("github.search_issues" and
 * "gitlab/search_issues" → search_issues; "bfcl:Homes_2_FindHomeByArea:481a7ef4" →
 * homes_2_findhomebyarea). Two tools of one base name and one shape are versions of one call.
 */
export function baseName(name: string): string {
  const segments = nameSegments(name);
  return (segments[segments.length - 1] ?? name).toLowerCase();
}

/** A tool name's segments after namespace separators, without version or content-hash segments. */
function nameSegments(name: string): string[] {
  return name.split(/[.:/]|__/).filter((x) => x !== '' && !/^[0-9a-f]{6,}$/i.test(x) && !/^v?\d+(?:[._-]\d+)*$/i.test(x));
}

/** Stems of the words of a tool name's namespace, the segments before its base name ("google.create_event" → google). */
export function namespaceStems(name: string): string[] {
  return nameSegments(name)
    .slice(0, -1)
    .flatMap((seg) => textStems(seg))
    .filter((w) => w.length >= 3);
}

/** Index of the "listed in preferred_tools" selection feature. */
const PREFERRED_FEATURE = FEATURE_NAMES.indexOf('preferred');

/** A tool's shape: its parameter names, sorted and joined ('' for a tool without parameters). */
export function shapeOf(inputSchema: unknown): string {
  const props = isObj(inputSchema) && isObj(inputSchema['properties']) ? Object.keys(inputSchema['properties']) : [];
  return props.sort().join(',');
}

/** Softmax of scores. */
function softmax(xs: number[]): number[] {
  if (xs.length === 0) return [];
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** How many re-ranked tools a result lists. */
export const CANDIDATES_SHOWN = 5;

/**
 * A candidate is close to a request when its calibrated P(tool right) (toolConfidence, the
 * probability that it is the tool the request means, whatever its arguments) is at least this.
 * When none of the listed candidates is close, a refusal says that no bound tool seems to serve
 * the request instead of asking for the arguments of the least unrelated one.
 * docs/decisions/mapper-calibration-by-halves.md gives the figures it was chosen from.
 */
export const CLOSE_TOOL_CONFIDENCE = 0.2;

/**
 * The fitted reranker's score of a candidate's features (calibration.ts: linear weights, and a
 * hidden layer when the fit has one). A calibration that cannot score FEATURE_NAMES fails here, at
 * load, rather than giving NaN scores.
 */
const RERANK_SCORE = ((): ((x: readonly number[]) => number) => {
  const problem = listwiseProblem(FEATURE_NAMES.length, CALIBRATION.rerankWeights, CALIBRATION.rerankHidden);
  if (problem !== undefined) throw new Error(`calibration.ts: the reranker's weights ${problem}; rerun tools/mapper/fit-confidence.ts`);
  return listwiseScorer(CALIBRATION.rerankWeights, CALIBRATION.rerankHidden);
})();

/** The confidence a candidate is listed with: P(tool and arguments right) when complete, else P(tool right). */
export function shownConfidence(r: Pick<RankedCandidate, 'mapping' | 'toolConfidence' | 'fullConfidence'>): number {
  return r.mapping.missingArguments.length > 0 ? r.toolConfidence : r.fullConfidence;
}

/** Rounds a probability for output. */
function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Picks a tool for a request and maps its arguments, with a calibrated confidence. */
export class UnifiedMapper {
  private readonly tools: readonly MapperTool[];
  private readonly byName = new Map<string, number>();
  private readonly profiles: ToolProfile[];
  /** each tool's shape (shapeOf), by index */
  private readonly shapes: string[];
  /** each tool's namespace stems (namespaceStems), by index */
  private readonly namespaces: string[][];
  private readonly idf: Map<string, number>;
  private readonly retrieve: Retriever;
  private readonly options: UnifiedMapperOptions;

  /** Indexes the snapshot (lexical profiles); `retrieve` gives the search index's top-k. */
  constructor(tools: readonly MapperTool[], retrieve: Retriever, options: UnifiedMapperOptions = {}) {
    this.tools = Array.isArray(tools) ? tools.filter((t) => t && typeof t.name === 'string') : [];
    this.tools.forEach((t, i) => {
      if (!this.byName.has(t.name)) this.byName.set(t.name, i);
    });
    const built = buildProfiles(this.tools);
    this.profiles = built.profiles;
    this.shapes = this.tools.map((t) => shapeOf(t.inputSchema));
    this.namespaces = this.tools.map((t) => namespaceStems(t.name));
    this.idf = built.idf;
    this.retrieve = retrieve;
    this.options = options;
  }

  /** Maps a request onto one tool; never throws except PreferredToolNotInSnapshotError. `options.now` overrides "today" for this call. */
  map(input: MapInput, options: MapCallOptions = {}): MapResult {
    const preferred = this.checkPreferred(input);
    try {
      return this.decide(this.rank(input, preferred, options));
    } catch {
      return {
        decision: 'low_confidence',
        tool: null,
        confidence: 0,
        arguments: {},
        missingArguments: [],
        candidates: [],
        explanation: 'No tool could be chosen for this request; describe the task in more detail.',
      };
    }
  }

  /** Validates preferredTools; throws for names outside the snapshot. */
  private checkPreferred(input: MapInput): Set<string> {
    const pref = input && Array.isArray(input.preferredTools) ? input.preferredTools.filter((n): n is string => typeof n === 'string') : [];
    const unknown = pref.filter((n) => !this.byName.has(n));
    if (unknown.length > 0) throw new PreferredToolNotInSnapshotError(unknown);
    return new Set(pref);
  }

  /** Retrieves, maps and re-ranks the candidates of a request (best first). Exposed for the calibration scripts. */
  rank(input: MapInput, preferred: Set<string> = this.checkPreferred(input), options: MapCallOptions = {}): RankedCandidate[] {
    const request = typeof input?.request === 'string' ? input.request : String(input?.request ?? '');
    const context = typeof input?.context === 'string' || isObj(input?.context) ? input.context : undefined;
    const ctxText = typeof context === 'string' ? context : '';
    const query = `${request} ${ctxText}`.trim();
    const limit = this.options.retrieveLimit ?? 30;
    let hits: RetrievedCandidate[] = [];
    if (query !== '') {
      try {
        const raw = this.retrieve(query, limit);
        hits = Array.isArray(raw) ? raw : [];
      } catch {
        hits = [];
      }
    }
    const seen = new Set<string>();
    const list: (RetrievedCandidate & { rank: number })[] = [];
    for (const h of hits) {
      if (!h || typeof h.name !== 'string' || seen.has(h.name) || !this.byName.has(h.name)) continue;
      seen.add(h.name);
      list.push({ name: h.name, score: Number.isFinite(h.score) ? h.score : 0, rank: list.length });
      if (list.length >= limit) break;
    }
    for (const p of preferred) if (!seen.has(p)) list.push({ name: p, score: 0, rank: list.length });
    if (list.length === 0) return [];
    const topScore = Math.max(...list.map((c) => c.score), 1e-9);
    const now = options.now instanceof Date && Number.isFinite(options.now.getTime()) ? options.now : this.options.now;
    const { doc, ctx } = prepare(request, context, { now });
    const queryStems = textStems(query);
    const queryStemSet = new Set(queryStems);
    const queryBigrams = [...new Set(bigramsOf(queryStems))];
    const queryTokens = contentTokens(doc.tokens);
    const numberCount = doc.spans.filter(
      (s) => s.kind === 'number' && !s.word && !doc.spans.some((o) => o.kind === 'date' && o.start <= s.start && o.end >= s.end),
    ).length;
    const contextKeys = ctx ? Object.keys(ctx) : [];
    const shared = {};
    const noDeletion = forbidsDeletion(query);
    const askedOperation = requestOperation(query);
    const ranked = list.map((c) => {
      const profile = this.profiles[this.byName.get(c.name) as number];
      const mapping = mapPrepared(profile.tool, doc, ctx);
      const f = features({
        profile,
        idf: this.idf,
        queryStems,
        rank: c.rank,
        score: c.score,
        topScore,
        mapping,
        preferred: preferred.has(c.name),
        contextKeys,
        queryTokens,
        numberCount,
        queryBigrams,
        snapshotSize: this.tools.length,
        shared,
      });
      return {
        name: c.name,
        retrieval: c,
        mapping,
        features: f,
        rerankScore: RERANK_SCORE(f),
        clash: preferred.has(c.name)
          ? undefined
          : (destructiveClash(queryStems, profile, noDeletion) ?? arithmeticClash(askedOperation, profile.operation)),
        shape: this.shapes[this.byName.get(c.name) as number],
        namespaceNamed: this.namespaces[this.byName.get(c.name) as number].some((w) => queryStemSet.has(w)),
      };
    });
    ranked.sort((a, b) => b.rerankScore - a.rerankScore || a.retrieval.rank - b.retrieval.rank);
    const probs = softmax(ranked.map((r) => r.rerankScore));
    return ranked.map((r, i) => {
      const other = i === 0 ? ranked[1] : ranked[0];
      const margin = other ? r.rerankScore - other.rerankScore : 3;
      const g = confidenceFeatures(r.features, r.mapping, probs[i], margin, { snapshotSize: this.tools.length, ranked: ranked.length });
      return {
        ...r,
        prob: probs[i],
        confFeatures: g,
        toolConfidence: toolConfidence(g),
        fullConfidence: fullConfidence(g, this.tools.length),
      };
    });
  }

  /**
   * Turns a ranking (from `rank`) into the decision `map` returns. The tool chosen is the
   * reranker's first; each of the first `CANDIDATES_SHOWN` tools is listed in that order with its
   * calibrated confidence (P(tool and arguments right) when every required argument is filled,
   * else P(tool right)), capped at the confidence of the tool listed above it: a tool the
   * reranker puts lower is never shown as likelier (the reranker orders tools better than the
   * confidence models: 5-fold CV top-1 0.74 against 0.72 on dev). So the chosen tool is first
   * and has the highest confidence listed; capping only lowers tools that are not run.
   */
  decide(ranked: RankedCandidate[]): MapResult {
    let cap = 1;
    const head = ranked.slice(0, CANDIDATES_SHOWN).map((r) => {
      cap = Math.min(cap, shownConfidence(r));
      return { r, confidence: cap };
    });
    const candidates: CandidateResult[] = head.map(({ r, confidence }) => ({
      name: r.name,
      confidence: round3(confidence),
      arguments: r.mapping.arguments,
      missingArguments: r.mapping.missingArguments,
    }));
    const chosen = head[0];
    if (!chosen) {
      return {
        decision: 'low_confidence',
        tool: null,
        confidence: 0,
        arguments: {},
        missingArguments: [],
        candidates: [],
        explanation: 'No tool in this surface matches the request; rephrase it or name the tool to use.',
      };
    }
    const best = chosen.r;
    const conf = round3(chosen.confidence);
    const missing = best.mapping.missingArguments;
    const noneClose = noCandidateClose(ranked);
    const noneCloseExplanation = `${UNIFIED_NO_CLOSE_TOOL_PREFIX} (the closest, ${best.name}, is the tool meant with probability ${round3(best.toolConfidence)}); rephrase the request if a tool was meant, or name it in preferred_tools.`;
    if (missing.length > 0) {
      if (chosen.confidence >= CONFIDENCE_THRESHOLD) {
        return {
          decision: 'missing_arguments',
          tool: best.name,
          confidence: conf,
          arguments: best.mapping.arguments,
          missingArguments: missing,
          candidates,
          explanation: `Tool ${best.name} fits, but the request does not give ${missing.join(', ')}; call again with ${missing.length === 1 ? 'that value' : 'those values'} in the request or context.`,
        };
      }
      return {
        decision: 'low_confidence',
        tool: best.name,
        confidence: conf,
        arguments: best.mapping.arguments,
        missingArguments: missing,
        candidates,
        explanation: noneClose
          ? noneCloseExplanation
          : `Not confident enough to run a tool (best guess ${best.name}, confidence ${conf}); name the tool in preferred_tools or describe the task more precisely.`,
      };
    }
    // a destructive action on one side only, a call that does part of the request, or one whose
    // arguments the tool's schema refuses (dispatch would not run it) is never run, whatever the
    // confidence: reported just under the threshold, with why
    const held = chosen.confidence >= CONFIDENCE_THRESHOLD ? (heldBackReason(best, ranked) ?? this.schemaRefusal(best)) : undefined;
    if (held !== undefined) {
      const capped = Math.min(conf, round3(CONFIDENCE_THRESHOLD - 0.001));
      return {
        decision: 'low_confidence',
        tool: best.name,
        confidence: capped,
        arguments: best.mapping.arguments,
        missingArguments: [],
        candidates: candidates.map((c) => ({ ...c, confidence: Math.min(c.confidence, capped) })),
        explanation: `${UNIFIED_HELD_BACK_PREFIX} ${held}`,
      };
    }
    if (chosen.confidence >= CONFIDENCE_THRESHOLD) {
      return {
        decision: 'execute',
        tool: best.name,
        confidence: conf,
        arguments: best.mapping.arguments,
        missingArguments: [],
        candidates,
        explanation: `Running ${best.name} with ${Object.keys(best.mapping.arguments).length === 0 ? 'no arguments' : `arguments ${Object.keys(best.mapping.arguments).join(', ')}`} (confidence ${conf}).`,
      };
    }
    return {
      decision: 'low_confidence',
      tool: best.name,
      confidence: conf,
      arguments: best.mapping.arguments,
      missingArguments: [],
      candidates,
      explanation: noneClose
        ? noneCloseExplanation
        : `Not confident enough to run a tool (best guess ${best.name}, confidence ${conf}); name the tool in preferred_tools or give the values explicitly.`,
    };
  }

  /**
   * Why the tool's inputSchema refuses a candidate's arguments (a bound, a pattern, a required
   * property its properties do not list…), as the rest of a held-back sentence, or undefined.
   */
  private schemaRefusal(c: RankedCandidate): string | undefined {
    const i = this.byName.get(c.name);
    const problems = i === undefined ? null : argumentValidator(this.tools[i].inputSchema)(c.mapping.arguments);
    if (!problems) return undefined;
    const shown = problems
      .slice(0, 3)
      .map((p) => `${p.pointer || '/'} ${p.message}`)
      .join('; ');
    return `the values read from the request break ${c.name}'s input schema (${shown}); give values it accepts, or name the tool meant in preferred_tools.`;
  }

  /** Required parameters of a snapshot tool (empty for unknown names). */
  requiredOf(name: string): string[] {
    const i = this.byName.get(name);
    return i === undefined ? [] : requiredOf(this.tools[i].inputSchema);
  }
}

/**
 * True when no listed candidate is close to the request (CLOSE_TOOL_CONFIDENCE), and the caller
 * preferred none of them (a tool the caller named is the one meant, however far it reads).
 */
export function noCandidateClose(ranked: readonly Pick<RankedCandidate, 'toolConfidence' | 'features'>[]): boolean {
  const head = ranked.slice(0, CANDIDATES_SHOWN);
  return head.length > 0 && head.every((r) => r.toolConfidence < CLOSE_TOOL_CONFIDENCE && !(r.features[PREFERRED_FEATURE] > 0));
}

/**
 * Why `decide` never runs this candidate however confident it is, as the rest of a sentence
 * after UNIFIED_HELD_BACK_PREFIX, or undefined when nothing holds it back: a destructive action
 * on one side only (RankedCandidate.clash), request values no argument takes but one could
 * (DetailedMapping.unusedValues), a value joined by "and" to another that no argument takes
 * (DetailedMapping.coordinated), or (given the ranking it heads) another version of the same
 * call among the first CANDIDATES_SHOWN tools (baseName and shape alike, every required
 * argument filled) that reads the request into other values (one takes "False", the other
 * false): which one is meant decides whether the call is right, and nothing in the request
 * says which. fit-confidence.ts leaves such calls out of the execution cut.
 */
export function heldBackReason(c: RankedCandidate, ranked: readonly RankedCandidate[] = []): string | undefined {
  const m = c.mapping;
  if (c.clash)
    return `the request asks to ${c.clash.asked}, and ${c.name} is named for ${c.clash.does}; name the tool in preferred_tools if it is the one meant.`;
  // (not for a tool the caller prefers, nor one whose namespace the request names and the
  // other's it does not: "a Google Calendar event" is google.create_event's)
  if (c.shape && !(c.features[PREFERRED_FEATURE] > 0)) {
    const mine = jsonKey(m.arguments);
    const twin = ranked
      .slice(0, CANDIDATES_SHOWN)
      .find(
        (o) =>
          o !== c &&
          o.name !== c.name &&
          o.shape === c.shape &&
          baseName(o.name) === baseName(c.name) &&
          !(c.namespaceNamed && !o.namespaceNamed) &&
          o.mapping.missingArguments.length === 0 &&
          jsonKey(o.mapping.arguments) !== mine,
      );
    if (twin)
      return `${c.name} and ${twin.name} take the same parameters but read the request differently; name the one meant in preferred_tools.`;
  }
  const partial =
    m.unusedValues.length > 0
      ? `would leave out ${m.unusedValues.map((v) => JSON.stringify(v)).join(', ')} of the request`
      : m.coordinated.length > 0
        ? `takes one value for ${m.coordinated.join(', ')}, and the request joins another to it`
        : undefined;
  return partial === undefined ? undefined : `${c.name} ${partial}; ask for one call per value, or give the values its parameters take.`;
}
