/** Public API of @toolsurface/mapper: tool selection, argument mapping and calibrated confidence for `unified_tool`. */

/** Shapes of tools, retriever hits, requests and results. */
export type { MapperTool, RetrievedCandidate, Retriever, MapInput, CandidateResult, MapDecision, MapResult } from './types.js';
/** The mapper and the error it throws for preferred tools outside the snapshot. */
export { UnifiedMapper, PreferredToolNotInSnapshotError } from './mapper.js';
/** Mapper options (reference date, retrieval depth), per-call options, and the ranked candidates `rank` exposes. */
export type { UnifiedMapperOptions, MapCallOptions, RankedCandidate } from './mapper.js';
/** Maps a request onto one tool's JSON Schema. */
export { mapArguments } from './arguments.js';
/** Options of mapArguments (reference date). */
export type { MapArgumentsOptions } from './arguments.js';
/** The eval README's argument checker. */
export { scoreArguments } from './checker.js';
/** The shipped calibration constants, with the cross-validated figures of their fit. */
export { CALIBRATION } from './calibration.js';
/** Shapes of the calibration and of its cross-validated figures. */
export type { Calibration, CvFigures } from './calibration.js';
/** The learned second stage of discover_tools' ranking (lexical features, fitted weights). */
export { LexicalHeadReranker, HEAD_FEATURE_NAMES } from './head-rerank.js';
/** Shapes of the head reranker's inputs and weights. */
export type { HeadHit, HeadTermStats, HeadRerankWeights } from './head-rerank.js';
