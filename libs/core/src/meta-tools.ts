import type { McpTool } from './types';

/** Names of the meta-tools (docs/DESIGN.md "Words"). */
export const META_TOOL_NAMES = ['discover_tools', 'get_tool_schema', 'execute_tool', 'unified_tool'] as const;
/** One meta-tool name. */
export type MetaToolName = (typeof META_TOOL_NAMES)[number];

/** Largest `limit` discover_tools accepts; default 10. */
export const DISCOVER_LIMIT_MAX = 50;
/** discover_tools limit when none is given. */
export const DISCOVER_LIMIT_DEFAULT = 10;
/** Longest query or request text accepted, in characters (the eval data holds real requests of 18,700). */
export const QUERY_MAX_CHARS = 32_000;

/** The three tools of discovery mode (docs/DESIGN.md product rule 3), in presentation order. */
export const DISCOVERY_META_TOOLS: readonly McpTool[] = [
  {
    name: 'discover_tools',
    title: 'Discover tools',
    description:
      'Search the tools available to you by what you want to do. Returns ranked {name, description, score} hits without schemas; then call get_tool_schema and execute_tool.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: QUERY_MAX_CHARS, description: 'What you want to do, or a tool name.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: DISCOVER_LIMIT_MAX,
          description: `How many hits (default ${DISCOVER_LIMIT_DEFAULT}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_tool_schema',
    title: 'Get tool schema',
    description: "Return one tool's full definition, including its input schema, by the name discover_tools gave.",
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 256, description: 'Tool name from discover_tools.' } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'execute_tool',
    title: 'Execute tool',
    description: 'Run one tool found with discover_tools, with arguments that match its input schema.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 256, description: 'Tool name from discover_tools.' },
        arguments: { type: 'object', description: "The tool's arguments, matching its input schema." },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
];

/** The one tool of unified mode (docs/DESIGN.md product rule 4). */
export const UNIFIED_META_TOOL: McpTool = {
  name: 'unified_tool',
  title: 'Do it with the right tool',
  description:
    'Describe in plain language what you want done. The gateway picks a tool, fills its arguments and runs it when confident (>= 0.7); otherwise it lists the best candidates or the arguments it needs.',
  inputSchema: {
    type: 'object',
    properties: {
      request: { type: 'string', minLength: 1, maxLength: QUERY_MAX_CHARS, description: 'What you want done, with the values to use.' },
      context: {
        anyOf: [{ type: 'object' }, { type: 'string' }],
        description: 'Extra values by argument name (object) or extra text (string).',
      },
      preferred_tools: {
        type: 'array',
        items: { type: 'string', maxLength: 256 },
        maxItems: 20,
        description: 'Tool names to prefer, if they fit the request.',
      },
    },
    required: ['request'],
    additionalProperties: false,
  },
};
