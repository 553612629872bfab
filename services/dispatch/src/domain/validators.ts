// dispatch's argument validators are core's (libs/core/src/validators.ts), which the model mapper
// shares; this module keeps dispatch's imports local.
export { ValidatorCache, fromDraft04, toProblems, MAX_REPORTED_PROBLEMS } from '@toolsurface/core';
export type { ArgumentProblem, ArgumentValidator, CompileProblem } from '@toolsurface/core';
