/** Principal kinds (docs/DESIGN.md "Words"). */
export type PrincipalKind = 'agent' | 'gateway';
/** Who a surface is for. */
export interface PrincipalRef {
  kind: PrincipalKind;
  id: string;
}
/** The stored presentation setting. */
export type PresentationMode = 'direct' | 'discovery' | 'unified' | 'adaptive';
/** What a surface actually uses. */
export type ResolvedMode = 'direct' | 'discovery' | 'unified';
/** Whether unified_tool may run its pick (autonomous) or only propose it (supervised). */
export type Autonomy = 'autonomous' | 'supervised';
/** How a real call arrived at admission. */
export type Via = 'direct' | 'execute_tool' | 'unified_tool';

/** A tool as MCP's `Tool` defines it (MCP spec 2025-06-18, `Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A bound tool in a snapshot: the MCP definition under its presented name, plus where it comes from. */
export interface BoundToolDefinition extends McpTool {
  /** Capability that publishes it. */
  capability: string;
  /** The name the capability publishes (differs from `name` after the collision rule). */
  originalName: string;
}

/** Principal IDs: letters, digits, `_` and `-`, 1-128 characters (safe as a KV key part). */
// Matches 1-128 characters from [A-Za-z0-9_-].
export const PRINCIPAL_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Capability names: a lowercase letter then lowercase letters, digits and `-`, up to 64 characters. */
// Matches e.g. "everything", "fs-2"; no dots (the collision prefix uses a dot) and no underscores.
export const CAPABILITY_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/** "agent:alice" for a principal; used as a map key and in logs. */
export function principalKey(p: PrincipalRef): string {
  return `${p.kind}:${p.id}`;
}
