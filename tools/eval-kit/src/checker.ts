/**
 * The eval README's argument checker (the BFCL convention): a value is right when it is in the
 * acceptable list; strings compare after lower-casing and removing spaces and `,./-_*^`; an
 * integer is accepted where a number is expected; a required argument may not be missing; an
 * argument whose list holds "" may be omitted; no argument outside the schema may appear.
 */

/** Normalises a string the way the checker compares strings. */
export function standardizeString(s: string): string {
  // spaces and the characters , . / - _ * ^ are dropped before comparing
  return s
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}

/** True for a plain (non-array) object. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Properties of an object schema (empty when none). */
function propsOf(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema)) return {};
  const p = schema['properties'];
  return isPlainObject(p) ? p : {};
}

/** Does `value` equal one acceptable value `expected` (recursively, with the checker's string rule)? */
function valueMatches(value: unknown, expected: unknown, schema: unknown): boolean {
  if (typeof expected === 'string') return typeof value === 'string' && standardizeString(value) === standardizeString(expected);
  if (typeof expected === 'number') return typeof value === 'number' && value === expected;
  if (typeof expected === 'boolean' || expected === null) return value === expected;
  if (Array.isArray(expected)) {
    if (!Array.isArray(value) || value.length !== expected.length) return false;
    const items = isPlainObject(schema) ? schema['items'] : undefined;
    return expected.every((e, i) => valueMatches(value[i], e, items));
  }
  if (isPlainObject(expected)) {
    // nested object: each key holds a list of acceptable values again
    if (!isPlainObject(value)) return false;
    return objectMatches(value, expected as Record<string, unknown>, schema);
  }
  return false;
}

/** Checks an object against `{key: [acceptable...]}` (nested level; no required list there beyond the lists). */
function objectMatches(value: Record<string, unknown>, expected: Record<string, unknown>, schema: unknown): boolean {
  const props = propsOf(schema);
  for (const key of Object.keys(value)) if (!(key in expected)) return false;
  for (const [key, accRaw] of Object.entries(expected)) {
    const acc = Array.isArray(accRaw) ? accRaw : [accRaw];
    if (!(key in value)) {
      if (acc.includes('')) continue;
      return false;
    }
    if (!acc.some((a) => valueMatches(value[key], a, props[key]))) return false;
  }
  return true;
}

/** True when `mapped` passes the eval README's checker against the acceptable-values map (and the schema, when given). */
export function scoreArguments(
  mapped: Record<string, unknown>,
  acceptable: Record<string, unknown[]>,
  schema?: Record<string, unknown>,
): boolean {
  return argumentProblems(mapped, acceptable, schema).length === 0;
}

/**
 * Why `mapped` fails the checker, one phrase per argument at fault ("unit: \"km\", want \"miles\"";
 * empty when it passes), so that a wrong call can be traced to the argument and the value.
 */
export function argumentProblems(
  mapped: Record<string, unknown>,
  acceptable: Record<string, unknown[]>,
  schema?: Record<string, unknown>,
): string[] {
  if (!isPlainObject(mapped) || !isPlainObject(acceptable)) return ['not an object'];
  const out: string[] = [];
  const props = propsOf(schema);
  const hasSchemaProps = schema !== undefined && isPlainObject(schema['properties']);
  for (const key of Object.keys(mapped)) {
    if (hasSchemaProps && !(key in props)) out.push(`${key}: outside the schema`);
    else if (!(key in acceptable)) out.push(`${key}: ${JSON.stringify(mapped[key])}, want it left out`);
  }
  const required = schema && Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  for (const r of required) if (typeof r === 'string' && !(r in mapped) && r in props && !(r in acceptable)) out.push(`${r}: missing`);
  for (const [key, accRaw] of Object.entries(acceptable)) {
    const acc = Array.isArray(accRaw) ? accRaw : [accRaw];
    const want = acc
      .filter((a) => a !== '')
      .map((a) => JSON.stringify(a))
      .join(' or ');
    if (!(key in mapped)) {
      if (acc.includes('') && !(required.includes(key) && key in props)) continue;
      out.push(`${key}: missing, want ${want}`);
    } else if (!acc.some((a) => valueMatches(mapped[key], a, props[key]))) out.push(`${key}: ${JSON.stringify(mapped[key])}, want ${want}`);
  }
  return out;
}
