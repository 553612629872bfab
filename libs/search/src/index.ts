// Public API of @toolsurface/search: tool retrieval for discover_tools.
export type { SearchableTool, SearchHit } from './types.js';
export { ToolIndex, SELECTION_RETRIEVAL_OPTIONS, MAX_OPTION_WEIGHT, MAX_STAGE_DEPTH } from './tool-index.js';
export type { ToolIndexOptions, ToolField, HeadReranker, IndexTermStats } from './tool-index.js';
export { Bm25Baseline } from './bm25-baseline.js';
export { tokenize, stem, detached } from './tokenize.js';
export { DEFAULT_SYNONYMS } from './synonyms.js';
// The static semantic encoder of ToolIndex's semantic stage (ToolIndexOptions.semantic).
export { StaticEncoder, SemanticDataError, sharedEncoder, DEFAULT_SEMANTIC_DATA } from './semantic.js';
// The cosine of two unit vectors (their dot product): two encodings, or two word vectors.
export { dot } from './semantic.js';
// GloVe word vectors (word-vectors.ts): what single words mean, for the head reranker's word-meaning feature.
export { WordVectors, WordVectorDataError, sharedWordVectors, DEFAULT_WORD_VECTORS, MAX_WORD_LENGTH } from './word-vectors.js';
// The vector tables' file format (a JSON header, int8 rows with a scale each), shared by the semantic table and the word vectors.
export { encodeInt8Table, decodeInt8Table, readInt8Table } from './int8-table.js';
export type { Int8TableHeader } from './int8-table.js';
export { recallAtK, ndcgAtK, mrrAtK } from './metrics.js';
// Reading the public eval data (shared/eval), for the eval commands.
export { readJsonl, fnv1a, corpusAsTools, sliceName, DEFAULT_EVAL_DIR } from './eval-data.js';
export type { CorpusRecord, QueryRecord as RetrievalQueryRecord } from './eval-data.js';
