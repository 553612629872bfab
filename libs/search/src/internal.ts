// Internal entry of @toolsurface/search, for the fitting and probe scripts in tools/ only: the
// parts of the head reranker they fit or measure. Product code imports the public entry.
export { headScorer, requestValues, unmetRequired, cjkShare, HEAD_QUERY_MAX_CHARS, REQUEST_VALUES_MAX_CHARS } from './head-rerank.js';
export type { RequestValues } from './head-rerank.js';
export { HEAD_RERANK } from './head-rerank-weights.js';
export { CJK_TERMS, DEFAULT_RELATED } from './synonyms.js';
export { serializeStaticEmbeddings, toolSemanticText } from './semantic.js';
// The vector tables' file format (a JSON header, int8 rows with a scale each), for the scripts that write them.
export { encodeInt8Table, decodeInt8Table, readInt8Table } from './int8-table.js';
export type { Int8TableHeader } from './int8-table.js';
