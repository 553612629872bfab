import type { ReasonCode } from '@toolsurface/core';
import type { CallResult, ToolResult, UnifiedInfo } from './domain/ports';

export function textContent(text: string): string {
  return JSON.stringify([{ type: 'text', text }]);
}

/** A tool result's content and structured content as the response carries them ("" when there is none). */
export interface ResultJson {
  contentJson: string;
  structuredContentJson: string;
}

export function resultJson(result: ToolResult): ResultJson {
  return {
    contentJson: JSON.stringify(result.content ?? []),
    structuredContentJson: result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent),
  };
}

/** A successful result; `json` is the result already serialised, when it was (see resultJson). */
export function success(
  result: ToolResult,
  toolName: string,
  via: string,
  durationMs: number,
  json: ResultJson = resultJson(result),
): CallResult {
  return {
    contentJson: json.contentJson,
    structuredContentJson: json.structuredContentJson,
    isError: false,
    reason: '',
    message: '',
    toolName,
    via,
    unified: undefined,
    durationMs,
  };
}

/** A model-facing error: a tool result with is_error, a reason code and one sentence (docs/DESIGN.md "Errors"). */
export function modelError(
  reason: ReasonCode,
  message: string,
  fields: { toolName?: string; via?: string; unified?: UnifiedInfo; content?: unknown[]; durationMs?: number } = {},
): CallResult {
  return {
    contentJson: fields.content && fields.content.length > 0 ? JSON.stringify(fields.content) : textContent(message),
    structuredContentJson: '',
    isError: true,
    reason,
    message,
    toolName: fields.toolName ?? '',
    via: fields.via ?? '',
    unified: fields.unified,
    durationMs: fields.durationMs ?? 0,
  };
}
