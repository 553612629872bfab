// Public API of @toolsurface/search: tool retrieval for discover_tools, and the ranking features
// the mapper's selection shares with the second stage.
export type { SearchableTool, SearchHit } from './types.js';
export { ToolIndex, SELECTION_RETRIEVAL_OPTIONS, MAX_OPTION_WEIGHT, MAX_STAGE_DEPTH } from './tool-index.js';
export type { ToolIndexOptions, ToolField, HeadReranker, IndexTermStats } from './tool-index.js';
export { tokenize } from './tokenize.js';
export { DEFAULT_SYNONYMS } from './synonyms.js';
// The static semantic encoder of ToolIndex's semantic stage (ToolIndexOptions.semantic).
export { StaticEncoder, SemanticDataError, sharedEncoder, DEFAULT_SEMANTIC_DATA } from './semantic.js';
// The cosine of two unit vectors (their dot product): two encodings, or two word vectors.
export { dot } from './semantic.js';
// GloVe word vectors (word-vectors.ts): what single words mean, for the head reranker's word-meaning feature.
export { WordVectors, WordVectorDataError, sharedWordVectors, DEFAULT_WORD_VECTORS, MAX_WORD_LENGTH } from './word-vectors.js';
// The learned second stage of discover_tools' ranking over the first hits (lexical features, fitted weights).
export { LexicalHeadReranker, HEAD_FEATURE_NAMES } from './head-rerank.js';
export type { HeadHit, HeadTermStats, HeadRerankWeights } from './head-rerank.js';
// Tool profiles and request-tool features, shared by the head reranker and the mapper's selection.
export {
  actionGroups,
  BASE_FEATURE_NAMES,
  bigramsOf,
  buildProfile,
  contentTokens,
  features,
  FEATURE_NAMES,
  hashLike,
  nameOperation,
  nameWordStats,
  textStems,
} from './tool-features.js';
export type { FeatureInput, Features, NameWordStats, ToolProfile } from './tool-features.js';
// The listwise scorer (linear, or one hidden layer) the head reranker and the mapper's selection are fitted as.
export { listwiseProblem, listwiseScorer } from './listwise.js';
export type { HiddenLayer } from './listwise.js';
