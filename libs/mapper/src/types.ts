import type { MapperTool } from '@toolsurface/analysis';
import type { ModelFailureKind } from './openai/protocol.js';

export type { MapperTool };

/** One hit of the search index, best first. */
export interface RetrievedCandidate {
  name: string;
  score: number;
}

/** The search index as a function: top `limit` tools for `query`, best first. */
export type Retriever = (query: string, limit: number) => RetrievedCandidate[];

/** What `unified_tool` received from the model. */
export interface MapInput {
  request: string;
  context?: Record<string, unknown> | string;
  preferredTools?: string[];
}

/** One considered tool with its mapped arguments and calibrated confidence. */
export interface CandidateResult {
  name: string;
  confidence: number;
  arguments: Record<string, unknown>;
  missingArguments: string[];
}

/** What the gateway should do with the mapping. */
export type MapDecision = 'execute' | 'low_confidence' | 'missing_arguments';

/** The mapper's answer for one request. */
export interface MapResult {
  decision: MapDecision;
  tool: string | null;
  confidence: number;
  arguments: Record<string, unknown>;
  missingArguments: string[];
  /** best first, up to 5 */
  candidates: CandidateResult[];
  /** one sentence for the model: what was chosen or what is needed */
  explanation: string;
  /** who answered: set by a model mapper (OpenAIMapper); absent means the rule engine */
  answeredBy?: 'model' | 'rules';
  /** why the rule engine answered in place of the model (OpenAIMapper's failure kind) */
  modelFailure?: ModelFailureKind;
}
