/** A tool as discovery sees it: the MCP `Tool` shape (name unique within one snapshot). */
export interface SearchableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** One ranked result: the tool's name and its score (finite, >= 0, higher is better; comparable only within one search). */
export interface SearchHit {
  name: string;
  score: number;
}
