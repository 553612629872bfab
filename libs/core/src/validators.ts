import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';

/** Ajv's pattern engine (code.regExp): a RegExp factory, named by `code` for standalone output. */
type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/** One argument problem: where (a JSON pointer into the arguments) and what. */
export interface ArgumentProblem {
  pointer: string;
  message: string;
}

/** Checks an arguments object; returns the problems, or null when it is valid. */
export type ArgumentValidator = (args: unknown) => ArgumentProblem[] | null;

/** The most problems reported for one call; more only make the message longer, not clearer. */
export const MAX_REPORTED_PROBLEMS = 10;

/**
 * A schema's `pattern` (and `patternProperties`) runs on RE2 (re2js), whose matching time grows
 * linearly with the value: a tool's pattern such as "^(a+)+$" held a backtracking RegExp for 15 s
 * on a 30-character value, and validation runs on dispatch's and unified-mapper's one thread. A
 * pattern RE2 cannot express (lookaround, backreferences) keeps the native RegExp.
 */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, u: string): { test(s: string): boolean } => {
    try {
      return RE2JS.compile(pattern);
    } catch {
      return new RegExp(pattern, u);
    }
  },
  // (only read when Ajv writes standalone code, which is never done here)
  { code: 'linearRegExp' },
);

const AJV_OPTIONS: Options = {
  // Tool schemas carry vendor keywords (x-bfcl-type, optional) that strict mode would refuse.
  strict: false,
  code: { regExp: linearRegExp },
  allErrors: true,
  // Many tools share an $id or none; registering them would make the second compile throw.
  addUsedSchema: false,
  // A required "constructor" or "toString" is present only when the arguments hold it, not
  // because every object inherits one.
  ownProperties: true,
  logger: false,
};

const acceptAll: ArgumentValidator = () => null;

// draft-03/04 meta-schema URIs, e.g. "http://json-schema.org/draft-04/schema#".
const DRAFT_04 = /draft-0[34]\b/;
// draft-06/07 meta-schema URIs, e.g. "http://json-schema.org/draft-07/schema#".
const DRAFT_07 = /draft-0[67]\b/;

/** How a schema was compiled; reported once per schema through `onCompileProblem`. */
export type CompileProblem = { schemaKey: string; error: string };

/**
 * Compiled argument validators, one per snapshot and tool, compiled once and then shared: a
 * schema text already compiled for another snapshot is not compiled again. `$schema` 2020-12 (or
 * none) compiles with Ajv2020; draft-06/07 with Ajv's draft-07 class; draft-04/03 is rewritten to
 * draft-07 (boolean exclusiveMinimum/Maximum, `id`). A schema no draft accepts validates nothing
 * (the server still validates its own input) and is reported once.
 */
export class ValidatorCache {
  private readonly bySnapshotTool = new Map<string, ArgumentValidator>();
  private readonly bySchemaText = new Map<string, ArgumentValidator>();
  private readonly ajv2020 = new Ajv2020(AJV_OPTIONS);
  private readonly ajv07 = new Ajv(AJV_OPTIONS);
  /** Schemas compiled so far (for tests and metrics). */
  compiled = 0;

  constructor(
    private readonly maxEntries = 20_000,
    private readonly onCompileProblem: (p: CompileProblem) => void = () => undefined,
  ) {
    addFormats(this.ajv2020);
    addFormats(this.ajv07);
  }

  /** The validator of `toolName` in `snapshotId`; `schema` is only read on the first call. */
  forTool(snapshotId: string, toolName: string, schema: Record<string, unknown>): ArgumentValidator {
    const key = `${snapshotId}\u0000${toolName}`;
    let v = this.bySnapshotTool.get(key);
    if (v === undefined) {
      v = this.forSchema(schema);
      remember(this.bySnapshotTool, key, v, this.maxEntries);
    }
    return v;
  }

  /** The validator of a schema, shared by every snapshot that carries the same schema text. */
  forSchema(schema: Record<string, unknown>): ArgumentValidator {
    const text = JSON.stringify(schema);
    let v = this.bySchemaText.get(text);
    if (v === undefined) {
      v = this.compile(schema, text);
      remember(this.bySchemaText, text, v, this.maxEntries);
    }
    return v;
  }

  private compile(schema: Record<string, unknown>, text: string): ArgumentValidator {
    const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
    const attempts: Array<() => ValidateFunction> = [];
    if (DRAFT_04.test(declared)) {
      attempts.push(() => compileOnce(this.ajv07, fromDraft04(withoutSchemaUri(schema))));
    } else if (DRAFT_07.test(declared)) {
      attempts.push(() => compileOnce(this.ajv07, withoutSchemaUri(schema)));
      attempts.push(() => compileOnce(this.ajv07, fromDraft04(withoutSchemaUri(schema))));
    } else {
      attempts.push(() => compileOnce(this.ajv2020, withoutSchemaUri(schema)));
      // Servers often omit $schema on draft-07 schemas (tuple `items`, `dependencies`).
      attempts.push(() => compileOnce(this.ajv07, withoutSchemaUri(schema)));
      attempts.push(() => compileOnce(this.ajv07, fromDraft04(withoutSchemaUri(schema))));
    }
    let firstError: unknown;
    for (const attempt of attempts) {
      try {
        const fn = attempt();
        this.compiled++;
        return (args) => (fn(args) ? null : toProblems(fn.errors));
      } catch (e) {
        firstError ??= e;
      }
    }
    this.onCompileProblem({ schemaKey: text.slice(0, 200), error: String((firstError as Error)?.message ?? firstError) });
    return acceptAll;
  }
}

function compileOnce(ajv: Ajv | Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    // Ajv keeps every compiled schema object in its own cache; ours is the bounded one.
    ajv.removeSchema(schema);
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  // Oldest-first eviction keeps memory bounded as snapshots come and go.
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

function withoutSchemaUri(schema: Record<string, unknown>): Record<string, unknown> {
  // The meta-schema URI picks the class above; left in, Ajv would look it up and fail on unknown ones.
  // A root $id only names the schema: tools repeat ids and use ones Ajv cannot parse ("urn:x").
  if (!('$schema' in schema) && !('$id' in schema)) return schema;
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'];
const SUBSCHEMA_ONE = [
  'additionalProperties',
  'additionalItems',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'items', 'prefixItems'];

/** Rewrites draft-04 idioms Ajv's draft-07 class refuses, recursively over subschemas. */
export function fromDraft04(schema: unknown): Record<string, unknown> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  if (typeof out.id === 'string') delete out.id;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else if (typeof out[flag] === 'boolean') {
      delete out[flag];
    }
  }
  for (const k of SUBSCHEMA_MAPS) {
    const m = out[k];
    if (m && typeof m === 'object' && !Array.isArray(m)) {
      out[k] = Object.fromEntries(Object.entries(m).map(([name, sub]) => [name, Array.isArray(sub) ? sub : fromDraft04(sub)]));
    }
  }
  for (const k of SUBSCHEMA_ONE) {
    if (out[k] && typeof out[k] === 'object' && !Array.isArray(out[k])) out[k] = fromDraft04(out[k]);
  }
  for (const k of SUBSCHEMA_LISTS) {
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(fromDraft04);
  }
  return out;
}

function escapePointerToken(token: string): string {
  // JSON pointer escaping (RFC 6901): "~" first, then "/".
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Ajv errors as pointer + message, deduplicated, at most MAX_REPORTED_PROBLEMS. */
export function toProblems(errors: ErrorObject[] | null | undefined): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      pointer = `${e.instancePath}/${escapePointerToken(String((e.params as { missingProperty: string }).missingProperty))}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      pointer = `${e.instancePath}/${escapePointerToken(String((e.params as { additionalProperty: string }).additionalProperty))}`;
      message = 'is not allowed';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    }
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message });
    if (out.length >= MAX_REPORTED_PROBLEMS) break;
  }
  return out.length > 0 ? out : [{ pointer: '', message: 'does not match the input schema' }];
}
