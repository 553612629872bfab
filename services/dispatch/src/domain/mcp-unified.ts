import type { CallResult } from './ports';

/** unified_tool's decision as MCP clients read it in `structuredContent.unified`. */
export interface UnifiedStructured {
  /** The tool chosen ("" when none was). */
  tool: string;
  /** 0..1. */
  confidence: number;
  /** The arguments mapped from the request (an object; {} when none were). */
  arguments: unknown;
  /** The best candidates, each with its confidence, arguments and the required values it lacks. */
  candidates: Array<{ name: string; confidence: number; arguments: unknown; missingArguments: string[] }>;
  missingArguments: string[];
  /** Whether the chosen tool ran. */
  executed: boolean;
}

function parsed(json: string): unknown {
  try {
    return json ? (JSON.parse(json) as unknown) : {};
  } catch {
    return {};
  }
}

/**
 * The metadata of a unified_tool answer that ran or was refused (LOW_CONFIDENCE,
 * MISSING_ARGUMENTS, an admission refusal of the chosen tool), for `structuredContent.unified`
 * (issue 37: the chosen tool, its confidence, the mapped arguments and the candidates travel
 * there). Undefined for any other call, and for a supervised proposal, whose structuredContent is
 * the proposal itself.
 */
export function unifiedStructured(r: CallResult): UnifiedStructured | undefined {
  const u = r.unified;
  if (r.via !== 'unified_tool' || !u || (!r.isError && !u.executed)) return undefined;
  return {
    tool: u.tool,
    confidence: u.confidence,
    arguments: parsed(u.argumentsJson),
    candidates: u.candidates.map((c) => ({
      name: c.name,
      confidence: c.confidence,
      arguments: parsed(c.argumentsJson),
      missingArguments: c.missingArguments,
    })),
    missingArguments: u.missingArguments,
    executed: u.executed,
  };
}
