// @toolsurface/eval-kit: what the evals, the fitting scripts and the ranking tests share. Reads the
// public eval data, scores rankings and argument mappings, and runs the plain BM25 peer. Never
// imported by product code.
export { readJsonl, fnv1a, corpusAsTools, sliceName, evaluate, DEFAULT_EVAL_DIR } from './eval-data.js';
export type { CorpusRecord, QueryRecord, QueryRecord as RetrievalQueryRecord, Searcher, SliceMetrics } from './eval-data.js';
export { recallAtK, ndcgAtK, mrrAtK } from './metrics.js';
export { Bm25Baseline } from './bm25-baseline.js';
export { argumentProblems, scoreArguments, standardizeString } from './checker.js';
