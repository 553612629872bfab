/**
 * Shapes of argument mapping: the public result (DetailedMapping), a candidate value (Cand), and the
 * interface every value-kind module implements (ValueKindModule), with the score thresholds they share.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo, type ParamType } from '../schema.js';
import { THRESHOLD_SCORES } from './data/scores/thresholds.js';
import { type Score } from './scores.js';

/** How one argument was found (feeds the confidence). */
export interface ArgEvidence {
  score: number;
  kind: string;
}

/** Full mapping result with per-argument evidence. */
export interface DetailedMapping {
  arguments: Record<string, unknown>;
  missingArguments: string[];
  filledRatio: number;
  evidence: Record<string, ArgEvidence>;
  /** salient spans (numbers, quoted, urls, e-mails, paths, dates) no parameter took */
  unusedSalient: number;
  /** the text of those spans that some parameter could take (a number where one is numeric…), in request order, at most MAX_UNUSED_SHOWN; none when the call leaves out nothing it could have used */
  unusedValues: string[];
  /**
   * Parameters whose value the request joins to another one no argument took ("AAPL and MSFT"
   * for a ticker, "the entity Alice and the entity Bob" for names): the call would do half of it.
   */
  coordinated: string[];
  /** salient spans in the text */
  salient: number;
  /** required parameters of the schema */
  requiredCount: number;
  /** character ranges of the text that mapped values took */
  covered: [number, number][];
  /** optional parameters whose name is written in the request but that got no value */
  mentionedUnfilled: number;
  /** arguments found by the less reliable means (bare names, phrases, order, whole request) */
  weakKinds: number;
  /** parameters in the schema */
  paramCount: number;
  /**
   * Dates the request writes in figures ("2023-05-12", "04/07/2023") sent in the order written
   * (+1 each) or in another order (−1 each; year first or last), summed and clamped to [−1, 1];
   * 0 where the request writes no date in figures, or writes dates in both orders. Of two tools that take the same call, the one whose format is the
   * user's needs no rewriting (a selection feature).
   */
  datesAsWritten: number;
  /** per argument, which module took its value and why, and the runner-up (only with MapArgumentsOptions.trace) */
  trace?: Record<string, ArgTrace>;
}

/** One value offered for an argument, as a trace reports it. */
export interface ArgChoice {
  value: unknown;
  /** the value-kind module (ValueKindModule.name) or the mapObject step (pair, context, positional, …) that proposed it */
  module: string;
  /** the candidate's kind and the request text it read ("number \"42\"") */
  why: string;
  score: number;
}

/** The value an argument took, and the best other value offered for it (MapArgumentsOptions.trace). */
export interface ArgTrace extends ArgChoice {
  runnerUp?: ArgChoice;
}

/** Options of the argument mapper. */
export interface MapArgumentsOptions {
  /** "today" for relative dates and dates written without a year (default: the current date) */
  now?: Date;
  /** report, per argument, the module that took its value and the runner-up (DetailedMapping.trace); off by default */
  trace?: boolean;
  /** value-kind modules (ValueKindModule.name) not consulted: the module ablation (tools/mapper/ablate-modules.ts) */
  skipModules?: readonly string[];
}

/** A possible value for one parameter. */
export interface Cand {
  param: ParamInfo;
  value: unknown;
  score: number;
  ranges: [number, number][];
  kind: string;
  /** the module that proposed it (set only when tracing: MapArgumentsOptions.trace) */
  module?: string;
}

/**
 * Lowest candidate score that fills a required parameter (an optional one needs
 * mapObject.optionalMin): the Score itself, read `.v` at each use (fitting scripts move it).
 */
export const REQUIRED_MIN_SCORE: Score = THRESHOLD_SCORES.requiredMin;

/** Minimum score of a value for a parameter needed unless another is given (ParamInfo.eitherOr): read `.v` at each use. */
export const EITHER_OR_MIN_SCORE: Score = THRESHOLD_SCORES.eitherOrMin;

/** What every value-kind module reads of a parameter, computed once per parameter and request. */
export interface ParamContext {
  /** the parameter's type, 'any' read as 'string' */
  type: Exclude<ParamType, 'any'>;
  /** where the parameter's name is written in the request (anchorHits) */
  hits: { idx: number; w: number }[];
  /** unit stems the parameter asks for (unitStemsOf) */
  units: ReadonlySet<string>;
}

/**
 * One kind of value the mapper proposes for a parameter (numbers, dates, places, enum values,
 * identifiers, arrays …): which parameters it serves, and the scored candidate values it reads
 * from the prepared request.
 */
export interface ValueKindModule {
  /** short name (traces which module proposed a value) */
  readonly name: string;
  /** Whether the module proposes values for this parameter. */
  serves(p: ParamInfo, ctx: ParamContext): boolean;
  /** Appends scored candidate values to `out`, which holds what the modules before it proposed. */
  propose(p: ParamInfo, doc: Doc, ctx: ParamContext, out: Cand[]): void;
  /** 'last': no module after it is consulted; 'alone': its candidates replace the earlier ones, and none after it is consulted */
  readonly ends?: 'last' | 'alone';
}
