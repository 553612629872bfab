/**
 * OpenAIMapper: a Mapper for deployments that have a model. The rule engine ranks the snapshot as
 * always; an OpenAI-compatible chat-completions endpoint picks one of its top candidates (or none)
 * and fills the arguments; we check the answer (the tool was offered, the arguments pass the
 * tool's schema, every value is backed: grounding.ts) and decide at the same 0.7 threshold, with
 * the same MISSING_ARGUMENTS answer when a required value is missing. An unusable answer (endpoint
 * down, timeout, HTTP error, non-JSON, schema-violating output, a tool not offered, arguments the
 * schema refuses) is reported through `onFailure` and the rule engine answers instead.
 */
import { CONFIDENCE_THRESHOLD, UNIFIED_HELD_BACK_PREFIX } from '@toolsurface/core';
import { requiredOf } from '@toolsurface/analysis';
import { PreferredToolNotInSnapshotError, type MapCallOptions, type RankedCandidate, type UnifiedMapper } from '../mapper.js';
import type { Mapper } from '../port.js';
import type { CandidateResult, MapInput, MapperTool, MapResult } from '../types.js';
import { checkLeaves, evidenceOf, groundedConfidence } from './grounding.js';
import { EndpointPause } from './pause.js';
import { argumentValidator } from '../schema-check.js';
import {
  ENDPOINT_FAILURES,
  chatRequestBody,
  ModelAnswerError,
  postChat,
  readAnswer,
  type ModelAnswer,
  type ModelFailureKind,
} from './protocol.js';

/** Settings of the model mapper (unified-mapper's MAPPER_OPENAI_* variables). */
export interface OpenAIMapperOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1; requests go to {baseUrl}/chat/completions */
  baseUrl: string;
  model: string;
  /** sent as a bearer token; never logged */
  apiKey?: string;
  /** per request, whole ms from 1 (the constructor throws a RangeError otherwise) */
  timeoutMs: number;
  /** how many of the rule engine's top candidates the model sees (preferred tools are always added) */
  candidates: number;
  /** the endpoint's pause after failures in a row, shared by the mappers of every snapshot (default: 5 failures, 30 s, own to this mapper) */
  pause?: EndpointPause;
  /** called once per unusable answer, and per request skipped while paused (kind `paused`), before the rule engine answers */
  onFailure?: (failure: { kind: ModelFailureKind; message: string }) => void;
  /** called once per usable answer */
  onAnswer?: () => void;
  fetch?: typeof fetch;
}

/** How many candidates a result lists (as the rule engine). */
const CANDIDATES_SHOWN = 5;
/** Just under the threshold: the ceiling of every candidate listed when nothing runs. */
const BELOW_THRESHOLD = Math.round((CONFIDENCE_THRESHOLD - 0.001) * 1000) / 1000;

/** The answer's fields when nothing is proposed (new objects each time: callers may change them). */
const noCall = () =>
  ({ decision: 'low_confidence', tool: null, confidence: 0, arguments: {}, missingArguments: [] }) satisfies Partial<MapResult>;

/** Rounds a probability for output. */
function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The model-backed Mapper. */
export class OpenAIMapper implements Mapper {
  private readonly byName = new Map<string, MapperTool>();
  private readonly pause: EndpointPause;

  constructor(
    tools: readonly MapperTool[],
    private readonly engine: UnifiedMapper,
    private readonly options: OpenAIMapperOptions,
  ) {
    // (AbortSignal.timeout throws from every map() on what is not whole ms, and past 2^31 - 1 ms
    // Node's timers fire after 1 ms instead)
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1 || options.timeoutMs > 2 ** 31 - 1)
      throw new RangeError(`OpenAIMapper: timeoutMs must be a whole number of milliseconds from 1, got ${options.timeoutMs}`);
    for (const t of tools) if (t && typeof t.name === 'string' && !this.byName.has(t.name)) this.byName.set(t.name, t);
    this.pause = options.pause ?? new EndpointPause(5, 30_000);
  }

  /** Maps a request; rejects only with PreferredToolNotInSnapshotError. */
  async map(input: MapInput, options: MapCallOptions = {}): Promise<MapResult> {
    let ranked: RankedCandidate[];
    try {
      ranked = this.engine.rank(input, undefined, options);
    } catch (e) {
      if (e instanceof PreferredToolNotInSnapshotError) throw e;
      return this.engine.map(input, options);
    }
    const offered = this.offered(ranked, input.preferredTools ?? []);
    if (offered.length === 0) return this.engine.decide(ranked);
    if (this.pause.paused()) {
      this.options.onFailure?.({ kind: 'paused', message: 'the model is paused after endpoint failures in a row' });
      return { ...this.engine.decide(ranked), answeredBy: 'rules', modelFailure: 'paused' };
    }
    let answer: ModelAnswer;
    let chosen: Record<string, unknown> = {};
    let missing: string[] = [];
    try {
      const body = chatRequestBody(this.options.model, offered, input.request, input.context, options.now ?? new Date());
      const content = await postChat(this.options, body);
      this.pause.answered();
      answer = readAnswer(content, new Set(offered.map((t) => t.name)));
      if (answer.tool !== null) ({ args: chosen, missing } = this.checkArguments(answer));
    } catch (e) {
      if (!(e instanceof ModelAnswerError)) throw e;
      const pausing = ENDPOINT_FAILURES.has(e.kind) && this.pause.failed();
      const pauseNote = pausing ? `; the model is skipped for ${this.pause.ms} ms after ${this.pause.after} such failures in a row` : '';
      this.options.onFailure?.({ kind: e.kind, message: `${e.message}${pauseNote}` });
      return { ...this.engine.decide(ranked), answeredBy: 'rules', modelFailure: e.kind };
    }
    this.options.onAnswer?.();
    return { ...this.decide(answer, chosen, missing, ranked, input), answeredBy: 'model' };
  }

  /** The tools the model sees: the rule engine's first `candidates`, then any preferred tool not among them. */
  private offered(ranked: readonly RankedCandidate[], preferred: readonly string[]): MapperTool[] {
    const names = ranked.slice(0, Math.max(1, this.options.candidates)).map((r) => r.name);
    for (const p of preferred) if (!names.includes(p) && this.byName.has(p)) names.push(p);
    return names.map((n) => this.byName.get(n)).filter((t): t is MapperTool => t !== undefined);
  }

  /**
   * The arguments without "not given" values (null, or an empty string for a required one), the
   * required ones missing, and ModelAnswerError when the rest breaks the tool's schema.
   */
  private checkArguments(answer: ModelAnswer): { args: Record<string, unknown>; missing: string[] } {
    const schema = this.byName.get(answer.tool as string)?.inputSchema;
    const required = requiredOf(schema);
    const args = Object.fromEntries(
      Object.entries(answer.arguments).filter(
        ([k, v]) => v !== null && !(required.includes(k) && typeof v === 'string' && v.trim() === ''),
      ),
    );
    const missing = required.filter((k) => !Object.hasOwn(args, k));
    const problems = (argumentValidator(schema)(args) ?? []).filter(
      (p) => !(p.message === 'is required' && missing.some((k) => p.pointer === `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)),
    );
    if (problems.length > 0)
      throw new ModelAnswerError(
        'invalid_arguments',
        `the arguments break ${answer.tool}'s schema: ${problems.map((p) => `${p.pointer || '/'} ${p.message}`).join('; ')}`,
      );
    return { args, missing };
  }

  /** The decision on a usable answer. */
  private decide(
    answer: ModelAnswer,
    args: Record<string, unknown>,
    missing: string[],
    ranked: RankedCandidate[],
    input: MapInput,
  ): MapResult {
    const rules = this.engine.decide(ranked);
    const capped = (cs: CandidateResult[], cap: number): CandidateResult[] =>
      cs.map((c) => ({ ...c, confidence: Math.min(c.confidence, cap) }));
    if (answer.tool === null) {
      return {
        ...noCall(),
        candidates: capped(rules.candidates, BELOW_THRESHOLD),
        explanation: 'No tool of this surface seems to serve the request; rephrase it or name the tool to use in preferred_tools.',
      };
    }
    const tool = answer.tool;
    const rank = ranked.findIndex((r) => r.name === tool);
    const mine = ranked[rank];
    const leaves = checkLeaves(args, this.byName.get(tool)?.inputSchema, evidenceOf(input.request, input.context), mine?.mapping.arguments);
    const g = groundedConfidence(leaves, rank, answer.selfConfidence);
    const conf = round3(g.confidence);
    const first: CandidateResult = { name: tool, confidence: conf, arguments: args, missingArguments: missing };
    const others = capped(
      rules.candidates.filter((c) => c.name !== tool),
      conf,
    );
    const result = (decision: MapResult['decision'], explanation: string, cap = 1): MapResult => ({
      decision,
      tool,
      confidence: Math.min(conf, cap),
      arguments: args,
      missingArguments: missing,
      candidates: capped([first, ...others].slice(0, CANDIDATES_SHOWN), cap),
      explanation,
    });
    const unbacked = leaves.filter((l) => l.backing === 'invented').map((l) => l.pointer.slice(1) || '/');
    const lowWhy =
      unbacked.length > 0
        ? `the request and context do not give the value of ${unbacked.join(', ')}; give ${unbacked.length === 1 ? 'it' : 'them'} explicitly`
        : 'name the tool in preferred_tools or give the values explicitly';
    if (g.confidence < CONFIDENCE_THRESHOLD)
      return result('low_confidence', `Not confident enough to run a tool (best guess ${tool}, confidence ${conf}); ${lowWhy}.`);
    if (missing.length > 0)
      return result(
        'missing_arguments',
        `Tool ${tool} fits, but the request does not give ${missing.join(', ')}; call again with ${missing.length === 1 ? 'that value' : 'those values'} in the request or context.`,
      );
    // the rule engine's guard holds for any mapper: a destructive action on one side only never runs
    if (mine?.clash)
      return result(
        'low_confidence',
        `${UNIFIED_HELD_BACK_PREFIX} the request asks to ${mine.clash.asked}, and ${tool} is named for ${mine.clash.does}; name the tool in preferred_tools if it is the one meant.`,
        BELOW_THRESHOLD,
      );
    return result(
      'execute',
      `Running ${tool} with ${Object.keys(args).length === 0 ? 'no arguments' : `arguments ${Object.keys(args).join(', ')}`} (confidence ${conf}).`,
    );
  }
}
