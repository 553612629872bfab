/** Public API of @toolsurface/mapper: tool selection, argument mapping and calibrated confidence for `unified_tool`. */

/** Shapes of tools, retriever hits, requests and results. */
export type { MapperTool, RetrievedCandidate, Retriever, MapInput, CandidateResult, MapDecision, MapResult } from './types.js';
/** The mapper and the error it throws for preferred tools outside the snapshot. */
export { UnifiedMapper, PreferredToolNotInSnapshotError } from './mapper.js';
/** Mapper options (reference date, retrieval depth), per-call options, and the ranked candidates `rank` exposes. */
export type { UnifiedMapperOptions, MapCallOptions, RankedCandidate } from './mapper.js';
/** The async Mapper interface unified-mapper serves, and the rule engine as one (the default). */
export type { Mapper } from './port.js';
export { ruleMapper } from './port.js';
/** The model mapper for deployments with an OpenAI-compatible chat-completions endpoint (off by default). */
export { OpenAIMapper } from './openai/openai-mapper.js';
export type { OpenAIMapperOptions } from './openai/openai-mapper.js';
export { ModelAnswerError } from './openai/protocol.js';
/** The pause of a model endpoint after failures in a row, one per endpoint. */
export { EndpointPause } from './openai/pause.js';
export type { ModelFailureKind } from './openai/protocol.js';
