import type { Autonomy, McpTool, PresentationMode, PrincipalKind, PrincipalRef, ResolvedMode } from '@toolsurface/core';

/** Stored presentation setting of a principal (config bucket, key `presentation.<kind>.<id>`). */
export interface PresentationRecord {
  mode: PresentationMode;
  autonomy: Autonomy;
}
/** Stored bindings of a principal (config bucket, key `bindings.<kind>.<id>`). */
export interface BindingsRecord {
  capabilities: string[];
}
/** What one capability publishes (catalog bucket, key = capability name). Written by dispatch. */
export interface CatalogRecord {
  capability: string;
  status: 'ok' | 'unavailable';
  tools: McpTool[];
  error?: string;
  listedAtMs: number;
}
/** A collision resolved by the capability-prefix rule (docs/DESIGN.md product rule 9). */
export interface CollisionRecord {
  originalName: string;
  presentedNames: string[];
  rule: string;
}
/** One surface (surfaces bucket, key = surface_id). */
export interface SurfaceRecord {
  surfaceId: string;
  principal: PrincipalRef;
  configuredMode: PresentationMode;
  resolvedMode: ResolvedMode;
  snapshotId: string;
  autonomy: Autonomy;
  boundToolCount: number;
  presentedTokens: number;
  collisions: CollisionRecord[];
  openedAtMs: number;
  expiresAtMs: number;
  closedAtMs?: number;
}

/** Config-bucket key of a principal's presentation setting. */
export function presentationKey(kind: PrincipalKind, id: string): string {
  return `presentation.${kind}.${id}`;
}
/** Config-bucket key of a principal's bindings. */
export function bindingsKey(kind: PrincipalKind, id: string): string {
  return `bindings.${kind}.${id}`;
}
/** Config-bucket key of a capability's spec. */
export function capabilityKey(name: string): string {
  return `capability.${name}`;
}
/** Config-bucket key of the orchestrators (OrchestratorConfig[]); absent or empty: authentication off. */
export const ORCHESTRATORS_KEY = 'orchestrators';
/** Config-bucket key of the MCP endpoint's API keys (McpKeyConfig[]); absent or empty: no keys (loopback only). */
export const MCP_KEYS_KEY = 'mcp_keys';
/** Config-bucket key of the admission policy. */
export const ADMISSION_KEY = 'admission';
/** Config-bucket key of the hash of the config file last applied. */
export const CONFIG_HASH_KEY = 'meta.config_hash';
