import { AppError, QUERY_MAX_CHARS, ReasonCode } from '@toolsurface/core';

/** Largest context accepted, bytes of JSON text. */
export const CONTEXT_MAX_BYTES = 64 * 1024;
/** Most preferred tools accepted. */
export const PREFERRED_MAX = 20;

/** A checked MapRequest. */
export interface CheckedRequest {
  request: string;
  context: Record<string, unknown> | string | undefined;
  preferredTools: string[];
}

/**
 * Checks MapRequest input: request non-empty and bounded; context_json empty, a JSON object or a
 * JSON string; preferred_tools at most 20 names. Throws AppError INVALID_ARGUMENTS (the model wrote them).
 */
export function checkRequest(request: unknown, contextJson: unknown, preferred: unknown): CheckedRequest {
  if (typeof request !== 'string' || request.trim() === '')
    throw new AppError(ReasonCode.INVALID_ARGUMENTS, 'request must be a non-empty string saying what you want done');
  // Code points, as JSON Schema's maxLength counts them.
  if (request.length > QUERY_MAX_CHARS && [...request].length > QUERY_MAX_CHARS)
    throw new AppError(ReasonCode.INVALID_ARGUMENTS, `request must be at most ${QUERY_MAX_CHARS} characters`);
  let context: CheckedRequest['context'];
  if (typeof contextJson === 'string' && contextJson !== '') {
    if (Buffer.byteLength(contextJson) > CONTEXT_MAX_BYTES)
      throw new AppError(ReasonCode.INVALID_ARGUMENTS, `context must be at most ${CONTEXT_MAX_BYTES} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(contextJson);
    } catch {
      throw new AppError(ReasonCode.INVALID_ARGUMENTS, 'context is not valid JSON');
    }
    if (typeof parsed === 'string') context = parsed;
    else if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) context = parsed as Record<string, unknown>;
    else throw new AppError(ReasonCode.INVALID_ARGUMENTS, 'context must be an object or a string');
  }
  const list = preferred ?? [];
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string'))
    throw new AppError(ReasonCode.INVALID_ARGUMENTS, 'preferred_tools must be a list of tool names');
  if (list.length > PREFERRED_MAX)
    throw new AppError(ReasonCode.INVALID_ARGUMENTS, `preferred_tools may name at most ${PREFERRED_MAX} tools`);
  return { request, context, preferredTools: list as string[] };
}
