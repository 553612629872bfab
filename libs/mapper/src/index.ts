/** Public API of @toolsurface/mapper: tool selection, argument mapping and calibrated confidence for `unified_tool`. */
export type { MapperTool, RetrievedCandidate, Retriever, MapInput, CandidateResult, MapDecision, MapResult } from './types.js';
export { UnifiedMapper, PreferredToolNotInSnapshotError } from './mapper.js';
export type { UnifiedMapperOptions, RankedCandidate } from './mapper.js';
export { mapArguments } from './arguments.js';
export type { MapArgumentsOptions } from './arguments.js';
export { scoreArguments } from './checker.js';
