import type { McpTool } from './types';

/** Capability name under which system tools are admitted and audited. */
export const SYSTEM_CAPABILITY = 'system';

/** Longest journal entry, in characters. */
export const JOURNAL_ENTRY_MAX_CHARS = 8000;

/**
 * The platform's own tools (docs/DESIGN.md product rule 5): appended as themselves in every mode,
 * never in the discovery corpus, never counted by adaptive. The journal is kept per principal in
 * the JetStream key-value bucket `toolsurface_journal`.
 */
export const SYSTEM_TOOLS: readonly McpTool[] = [
  {
    name: 'journal_append',
    title: 'Append to journal',
    description: 'Write a note to your own journal, kept across sessions (for plans, findings and decisions).',
    inputSchema: {
      type: 'object',
      properties: {
        entry: { type: 'string', minLength: 1, maxLength: JOURNAL_ENTRY_MAX_CHARS, description: 'The note.' },
        tags: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 10 },
      },
      required: ['entry'],
      additionalProperties: false,
    },
  },
  {
    name: 'journal_read',
    title: 'Read journal',
    description: 'Read the latest notes of your journal, newest first.',
    inputSchema: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 100, description: 'How many entries (default 10).' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
];

/** Names no bound tool may take (system tools and meta-tools). */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...SYSTEM_TOOLS.map((t) => t.name),
  'discover_tools',
  'get_tool_schema',
  'execute_tool',
  'unified_tool',
]);

/** True for a system tool's name. */
export function isSystemToolName(name: string): boolean {
  return SYSTEM_TOOLS.some((t) => t.name === name);
}
