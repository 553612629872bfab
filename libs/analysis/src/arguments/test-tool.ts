/**
 * What the argument-mapping tests share (arguments/*.test.ts): a fixed "today" and a one-tool
 * schema builder. Not part of the package's API.
 */
import type { MapperTool } from '../types.js';

/** Fixed "today" so relative dates are deterministic. */
export const now = new Date(Date.UTC(2024, 2, 1));

/** Builds a one-tool schema. */
export function tool(properties: Record<string, unknown>, required: string[] = [], description = ''): MapperTool {
  return { name: 't', description, inputSchema: { type: 'object', properties, required } };
}
