/**
 * A tool's inputSchema as dispatch checks it (libs/core ValidatorCache: Ajv, strict mode off,
 * draft detection, a schema no draft compiles accepts anything), so a mapper never proposes a
 * call that dispatch would refuse as INVALID_ARGUMENTS.
 */
import { ValidatorCache } from '@toolsurface/core';
import { isObj } from '@toolsurface/analysis';

const validators = new ValidatorCache(1000);

/** The validator of a schema (an object, else `{}`), shared by schema text. */
export function argumentValidator(inputSchema: unknown): ReturnType<ValidatorCache['forSchema']> {
  return validators.forSchema(isObj(inputSchema) ? inputSchema : {});
}
