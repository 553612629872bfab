export type { MapperTool, RetrievedCandidate, Retriever, MapInput, CandidateResult, MapDecision, MapResult } from './types.js';
export { scoreArguments } from './checker.js';
