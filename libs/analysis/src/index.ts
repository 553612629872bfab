// Public API of @toolsurface/analysis: how Toolsurface reads a request and a tool's JSON Schema.
// Search (the head reranker's required-values feature) and the mapper (argument mapping) read
// both alike through it.

/** The tool shape analysis and mapping read (MCP `Tool`: name, title, description, inputSchema). */
export type { MapperTool } from './types.js';
/** A tool name's own part and qualifiers ("server:tool"), and the last dotted segment ("math.factorial"). */
export { splitQualifiedName, lastSegment } from './names.js';
/** Porter stemming with a bounded memo, and a string copy that shares no storage with a longer one. */
export { stem, detached } from './stem.js';
/** Words, stems and identifiers of a text. */
export { STOP_WORDS, splitIdentifier, wordsOf, letterDigitRuns, tokenize, contentStems, nameParts, squash, editDistance } from './text.js';
export type { Token } from './text.js';
/** Frozen lookup tables of the request analysis (months, number words, places). */
export { lookupTable } from './lexicon.js';
/** Request analysis: the values a request writes (dates, numbers, places, quoted spans, paths…). */
export { analyze, tokenAt, parseListLiteral, NUMBER_AND_UNIT, MAX_SPANS } from './extract.js';
export type { Doc, Span, SpanKind, DateValue, TimeValue } from './extract.js';
/** Parameters of a tool's JSON Schema as the mapper reads them. */
export { isObj, resolveType, propertiesOf, requiredOf, paramsOf, requiredParams } from './schema.js';
export type { ParamInfo, ParamType, RequiredParam, Semantic } from './schema.js';
/** Argument mapping: a request's values onto one tool's parameters. */
export { mapArguments, prepare, mapPrepared, enumValueOffered, valueKindNames, MAX_SEARCHED_PARAMS } from './arguments.js';
/** Whether JSON carries a value as it is (no number past Number.MAX_VALUE at any depth). */
export { carriedByJson } from './arguments.js';
export type { ArgChoice, ArgEvidence, ArgTrace, DetailedMapping, MapArgumentsOptions } from './arguments.js';
/** The mapper's scores as named data (`group.key`), and the ablation and fitting scripts' way to move them. */
export { allScores, setScores, resetScores } from './arguments.js';
/** The mapper's cue-word tables (`module.table`), and the entry ablation's way to leave entries out. */
export { cueTables, dropCueEntries, restoreCueEntries } from './arguments.js';
export type { Score } from './arguments.js';
