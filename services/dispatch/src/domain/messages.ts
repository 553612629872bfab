import { CONFIDENCE_THRESHOLD, confidenceText, UNIFIED_NO_CLOSE_TOOL_PREFIX, type ResolvedMode, type Via } from '@toolsurface/core';
import type { ArgumentProblem } from './validators';

// One sentence per refusal the model can recover from (docs/DESIGN.md "Errors"): what happened and what to do next.

const NEXT_STEP: Record<ResolvedMode, string> = {
  direct: 'call one of the tools listed on this surface',
  discovery: 'call discover_tools to find the right tool, then execute_tool',
  unified: 'describe what you want done with unified_tool',
};

export const Messages = {
  toolNotFound: (name: string, mode: ResolvedMode) => `There is no tool named "${name}" on this surface; ${NEXT_STEP[mode]}.`,

  notDirectlyCallable: (name: string, mode: ResolvedMode) =>
    mode === 'unified'
      ? `"${name}" cannot be called directly on this surface; use unified_tool.`
      : `"${name}" cannot be called directly on this surface; call discover_tools first, then execute_tool.`,

  shownAs: (name: string, presented: string[]) =>
    `"${name}" is published by more than one capability and is shown on this surface as ${presented.map((p) => `"${p}"`).join(' and ')}; call one of those.`,

  notInSnapshot: (name: string, mode: ResolvedMode) =>
    mode === 'direct'
      ? `"${name}" was not available when this surface opened; call one of the tools listed on this surface.`
      : mode === 'unified'
        ? `"${name}" is not among the tools of this surface; describe what you want done with unified_tool.`
        : `"${name}" is not among the tools of this surface; call discover_tools to find a tool that is.`,

  systemToolBehindMetaTool: (name: string, via: Via) =>
    `"${name}" is a system tool and cannot be run through ${via}; call it directly by its own name.`,

  metaToolBehindMetaTool: (name: string, via: Via) =>
    `"${name}" cannot be run through ${via}; call discover_tools to find a tool, then execute_tool with that tool's name.`,

  invalidArguments: (name: string, problems: ArgumentProblem[], mode: ResolvedMode) =>
    `The arguments for "${name}" do not match its input schema (${problems
      .map((p) => `${p.pointer || '/'} ${p.message}`)
      .join(
        '; ',
      )}); ${mode === 'discovery' ? 'call get_tool_schema for its schema, fix them and try again' : 'fix them and call it again'}.`,

  blankQuery: () => 'The query of discover_tools is blank; say in a few words what you want to do.',

  argumentsNotJson: (detail: string) => `The arguments are not valid JSON (${detail}); send them as one JSON object.`,

  argumentsNotObject: (kind: string) => `The arguments must be a JSON object, not ${kind}; send them as one JSON object.`,

  argumentsTooDeep: (max: number) => `The arguments nest objects or arrays more than ${max} levels deep; send flatter arguments.`,
  contextTooDeep: (max: number) => `The context nests objects or arrays more than ${max} levels deep; send a flatter context.`,
  argumentsTooLarge: (bytes: number, max: number) =>
    `The arguments are ${bytes} bytes, over the limit of ${max} bytes; send smaller arguments.`,

  rateLimited: (name: string, retryAfterMs: number) =>
    `Too many calls to "${name}" for now; wait ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s before calling it again, or do something else meanwhile.`,

  resultTooLarge: (name: string, bytes: number, max: number) =>
    `"${name}" ran but its result is ${bytes} bytes, over the limit of ${max} bytes, so it is withheld; ask for less (a narrower query, a smaller range) and call it again.`,

  permissionDenied: (name: string) => `You are not permitted to call "${name}"; use another tool or ask the user for help.`,

  toolError: (name: string, detail: string) =>
    detail
      ? `"${name}" returned an error (${detail}); check the arguments or try another tool.`
      : `"${name}" returned an error; check the arguments or try another tool.`,

  noTimeLeft: (name: string) => `Too little time was left to run "${name}", so it did not run; call it again.`,

  toolTimeout: (name: string, ms: number) => `"${name}" did not finish within ${ms} ms; try again later or with a smaller request.`,

  capabilityUnavailable: (name: string) => `The server behind "${name}" is unavailable right now; try again later or use another tool.`,

  /**
   * `needs`: the tool the mapper would pick and the required arguments it would still need (said
   * first: a request that names its tool but not its values is refused for them); `preferred`:
   * the request already named tools in preferred_tools (so that is not suggested again).
   */
  lowConfidence: (
    candidates: Array<{ name: string; confidence: number }>,
    heldBack = '',
    needs: { tool: string; missing: readonly string[] } = { tool: '', missing: [] },
    preferred = false,
  ) => {
    const missing = needs.tool === '' ? [] : needs.missing;
    if (heldBack !== '') {
      // the mapper held back a confident call (a partial call, a destructive clash): its reason is the message
      return `${heldBack} (confidence ${confidenceText(candidates[0]?.confidence ?? 0)}, below ${CONFIDENCE_THRESHOLD}.)`;
    }
    if (candidates.length === 0)
      return `No tool fits this request with confidence ${CONFIDENCE_THRESHOLD} or more; rephrase the request with more detail.`;
    const best = `best: ${candidates
      .slice(0, 3)
      .map((c) => `${c.name} ${confidenceText(c.confidence)}`)
      .join(', ')}`;
    const lacking =
      missing.length > 0
        ? ` ${needs.tool} would also need ${missing.map((m) => `"${m}"`).join(', ')}, which the request does not give;`
        : '';
    const next =
      missing.length > 0
        ? `give ${missing.length === 1 ? 'that value' : 'those values'} in the request or context${preferred ? '' : ', and name the tool in preferred_tools if it is the one meant'}`
        : preferred
          ? 'give the values the tool takes explicitly (name: value), or rephrase the request with more detail'
          : 'rephrase the request with more detail, or name a tool in preferred_tools';
    return `No tool fits this request with confidence ${CONFIDENCE_THRESHOLD} or more (${best});${lacking} ${next}.`;
  },

  /**
   * No candidate is close to the request (unified-mapper's explanation begins with
   * UNIFIED_NO_CLOSE_TOOL_PREFIX): the answer says so and lists the closest, and asks for no
   * argument of a tool that does something else.
   */
  noCloseTool: (candidates: Array<{ name: string; confidence: number }>) =>
    `${UNIFIED_NO_CLOSE_TOOL_PREFIX} (closest: ${
      candidates
        .slice(0, 3)
        .map((c) => `${c.name} ${confidenceText(c.confidence)}`)
        .join(', ') || 'none'
    }); rephrase the request if one of this surface's tools was meant, or tell the user this surface has no tool for it.`,

  missingArguments: (tool: string, missing: string[]) =>
    `"${tool}" needs ${missing.map((m) => `"${m}"`).join(', ')}; call unified_tool again with those values in the request or context.`,

  proposal: (tool: string, confidence: number) =>
    `Proposed call: "${tool}" (confidence ${confidenceText(confidence)}); nothing ran, confirm the call before it runs.`,
} as const;

/** A tool's error text cut to fit in one sentence. */
export function errorDetail(content: unknown[], max = 200): string {
  for (const c of content) {
    if (c && typeof c === 'object' && (c as { type?: unknown }).type === 'text') {
      // Collapse runs of whitespace (newlines, tabs) so the detail reads as part of one sentence.
      const t = String((c as { text?: unknown }).text ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      if (t) return t.length > max ? `${t.slice(0, max - 1)}…` : t;
    }
  }
  return '';
}
