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
  return asObject(value);
}

/** Accepts a plain JSON object; anything else is refused with a model-facing message. */
export function asObject(value: unknown): ParsedArguments {
  if (value === undefined) return { ok: true, value: {} };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: Messages.argumentsNotObject(value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
