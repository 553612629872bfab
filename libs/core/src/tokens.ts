import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { McpTool } from './types';

/**
 * Tokens the model reads for a tool list: o200k_base (GPT-4o family) over the compact JSON of the
 * tools as MCP `tools/list` would send them. An estimate for comparing modes, not a bill.
 */
export function countToolTokens(tools: readonly McpTool[]): number {
  return countO200k(JSON.stringify(tools));
}
