/**
 * Maps a request (and its context) onto a tool's JSON Schema: finds typed spans in the text,
 * scores every (parameter, span) pair by type fit and by how close the parameter's name (or a
 * unit it asks for) is written to the value, and assigns greedily, best pair first. Never
 * invents a value: a required parameter with no evidence is reported missing.
 */
export { mapArguments, prepare, mapPrepared, carriedByJson } from './arguments/map.js';
export { enumValueOffered, valueKindNames } from './arguments/dispatch.js';
export { MAX_SEARCHED_PARAMS } from './arguments/map-object.js';
export { allScores, setScores, resetScores, type Score } from './arguments/scores.js';
export { cueTables, dropCueEntries, restoreCueEntries } from './arguments/cue-tables.js';
export { type ArgChoice, type ArgEvidence, type ArgTrace, type DetailedMapping, type MapArgumentsOptions } from './arguments/types.js';
export { contentStems } from './text.js';
