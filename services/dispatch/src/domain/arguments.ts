import { Messages } from './messages';

/** Parsed arguments, or the model-facing reason they could not be used. */
export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** Parses `arguments_json`: "" is {}, anything but a JSON object or more than `maxBytes` UTF-8 bytes is refused. */
export function parseArguments(json: string, maxBytes: number): ParsedArguments {
  if (json === '' || json.trim() === '') return { ok: true, value: {} };
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when the text could be over the limit.
  if (json.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > maxBytes) return { ok: false, message: Messages.argumentsTooLarge(bytes, maxBytes) };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return { ok: false, message: Messages.argumentsNotJson((e as Error).message) };
  }
  if (deeperThan(value, MAX_ARGUMENT_DEPTH)) return { ok: false, message: Messages.argumentsTooDeep(MAX_ARGUMENT_DEPTH) };
  return asObject(value);
}

/** Deepest nesting of objects and arrays accepted in arguments (and in unified_tool's context). */
export const MAX_ARGUMENT_DEPTH = 64;

/** True when `value` nests objects or arrays deeper than `max`; iterative, so any depth is safe to check. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The JSON text of arguments that arrived parsed (MCP's tools/call). JSON.stringify recurses, so
 * arguments nested thousands deep would overflow the stack before the call path sees them: those
 * are written cut to MAX_ARGUMENT_DEPTH + 1 levels, still too deep, so parseArguments
 * refuses them as it refuses them from any front (INVALID_ARGUMENTS, audited).
 */
export function argumentsJson(value: Record<string, unknown> | undefined): string {
  if (value === undefined) return '{}';
  return JSON.stringify(deeperThan(value, MAX_ARGUMENT_DEPTH) ? cut(value, MAX_ARGUMENT_DEPTH + 1) : value);
}

/** `value` with its objects and arrays at depth `levels` emptied (the top is depth 1). */
function cut(value: unknown, levels: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (levels <= 1) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.map((v) => cut(v, levels - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v, levels - 1)]));
}

/** Accepts a plain JSON object; anything else is refused with a model-facing message. */
export function asObject(value: unknown): ParsedArguments {
  if (value === undefined) return { ok: true, value: {} };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      message: Messages.argumentsNotObject(value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
