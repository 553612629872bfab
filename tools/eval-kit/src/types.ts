// The shapes the eval scores, structurally the same as @toolsurface/search's, so the kit stays
// below the search library that its ranking tests import it into.

/** A tool of the corpus: the MCP `Tool` shape. */
export interface SearchableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** One ranked result: the tool's name and its score. */
export interface SearchHit {
  name: string;
  score: number;
}
