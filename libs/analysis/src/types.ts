/**
 * A tool as request analysis and argument mapping see it (MCP `Tool` shape). Its `inputSchema` is
 * read once per object and the reading is kept while the object lives (a snapshot's schemas never
 * change): to change a schema, pass a new object rather than editing one already mapped onto.
 */
export interface MapperTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}
