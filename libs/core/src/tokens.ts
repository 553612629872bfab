import { createRequire } from 'node:module';
import type { McpTool } from './types';

type Counter = (text: string) => number;
let counter: Counter | undefined;
// The o200k_base tables take about a second to load: only processes that count tokens pay for them.
function count(text: string): number {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Counter }).countTokens;
  return counter(text);
}

/**
 * Tokens the model reads for a tool list: o200k_base (GPT-4o family) over the compact JSON of the
 * tools as MCP `tools/list` would send them. An estimate for comparing modes, not a bill.
 */
export function countToolTokens(tools: readonly McpTool[]): number {
  return count(JSON.stringify(tools));
}
