import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, ReasonCode } from './errors';
import { globMatch } from './glob';
import { principalKey, type PrincipalRef } from './types';

/** An orchestrator allowed to call the gateway: its bearer token (as a SHA-256 hex digest) and what it may do. */
export interface OrchestratorConfig {
  id: string;
  /** Lowercase hex SHA-256 of the bearer token; the token itself is never stored. */
  tokenSha256: string;
  /** Globs over "kind:id" of the principals it may open surfaces and call tools for. */
  principals: string[];
  /** May change presentation settings, bindings and the config (PresentationService). */
  admin: boolean;
}

/** Who is calling, once authenticated. */
export interface Caller {
  orchestrator: string;
  principals: readonly string[];
  admin: boolean;
}

/** The caller when no orchestrator is configured: authentication is off and everything is allowed. */
export const UNAUTHENTICATED_CALLER: Caller = Object.freeze({ orchestrator: 'anonymous', principals: ['*'], admin: true });

/** Lowercase hex SHA-256 of a token, as `token_sha256` in the config holds it. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Reads the stored `orchestrators` record, failing closed: undefined (refuse every caller) when it
 * is present but malformed, or when `required` and no orchestrator is configured. An absent record
 * is an empty list (authentication off) only when not `required`.
 */
export function readOrchestrators(raw: unknown, required: boolean): OrchestratorConfig[] | undefined {
  if (raw === undefined || raw === null) return required ? undefined : [];
  if (!Array.isArray(raw)) return undefined;
  for (const o of raw as Array<Record<string, unknown>>) {
    const ok =
      o !== null &&
      typeof o === 'object' &&
      typeof o.id === 'string' &&
      typeof o.tokenSha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(o.tokenSha256) &&
      Array.isArray(o.principals) &&
      o.principals.every((p) => typeof p === 'string') &&
      typeof o.admin === 'boolean';
    if (!ok) return undefined;
  }
  if (raw.length === 0 && required) return undefined;
  return raw as OrchestratorConfig[];
}

/**
 * Authenticates a call from its `authorization` metadata value ("Bearer <token>"). With no
 * orchestrators configured, authentication is off and every call is UNAUTHENTICATED_CALLER;
 * `undefined` (see readOrchestrators) refuses every call. Throws AppError UNAUTHENTICATED for a
 * missing, malformed or unknown token (digests compared in constant time).
 */
export function authenticate(authorization: string | undefined, orchestrators: readonly OrchestratorConfig[] | undefined): Caller {
  if (orchestrators === undefined) {
    throw new AppError(
      ReasonCode.UNAUTHENTICATED,
      'caller authentication is required but no valid orchestrators are configured; every call is refused',
    );
  }
  if (orchestrators.length === 0) return UNAUTHENTICATED_CALLER;
  // "Bearer" and the token, as RFC 6750 section 2.1 writes the header.
  const m = /^Bearer ([\x21-\x7e]{1,4096})$/.exec(authorization ?? '');
  if (!m) throw new AppError(ReasonCode.UNAUTHENTICATED, 'a bearer token is required: send the metadata "authorization: Bearer <token>"');
  const digest = Buffer.from(tokenDigest(m[1]), 'hex');
  let found: OrchestratorConfig | undefined;
  for (const o of orchestrators) {
    const expected = Buffer.from(o.tokenSha256, 'hex');
    if (expected.length === digest.length && timingSafeEqual(expected, digest)) found = o;
  }
  if (!found) throw new AppError(ReasonCode.UNAUTHENTICATED, 'the bearer token is not valid');
  return { orchestrator: found.id, principals: found.principals, admin: found.admin };
}

/** Whether the caller may open surfaces and call tools for this principal. */
export function mayActFor(caller: Caller, principal: PrincipalRef): boolean {
  const key = principalKey(principal);
  return caller.principals.some((g) => globMatch(g, key));
}

/** Throws AppError PERMISSION_DENIED unless the caller may act for this principal. */
export function requirePrincipal(caller: Caller, principal: PrincipalRef): void {
  if (!mayActFor(caller, principal)) {
    throw new AppError(ReasonCode.PERMISSION_DENIED, `orchestrator "${caller.orchestrator}" may not act for ${principalKey(principal)}`);
  }
}

/** Throws AppError PERMISSION_DENIED unless the caller is an admin orchestrator. */
export function requireAdmin(caller: Caller): void {
  if (!caller.admin)
    throw new AppError(
      ReasonCode.PERMISSION_DENIED,
      `orchestrator "${caller.orchestrator}" may not change settings, bindings or the config`,
    );
}

/** An API key of the MCP endpoint (config `mcp_keys`): its SHA-256 digest and the principals whose URLs it opens. */
export interface McpKeyConfig {
  id: string;
  /** Lowercase hex SHA-256 of the key; the key itself is never stored. */
  keySha256: string;
  /** Globs over "kind:id" of the principals this key may connect as. */
  principals: string[];
}

/**
 * Reads the stored `mcp_keys` record, failing closed: absent is an empty list (no keys), anything
 * malformed is undefined (refuse every request).
 */
export function readMcpKeys(raw: unknown): McpKeyConfig[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return undefined;
  for (const k of raw as Array<Record<string, unknown>>) {
    const ok =
      k !== null &&
      typeof k === 'object' &&
      typeof k.id === 'string' &&
      typeof k.keySha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(k.keySha256) &&
      Array.isArray(k.principals) &&
      k.principals.every((p) => typeof p === 'string');
    if (!ok) return undefined;
  }
  return raw as McpKeyConfig[];
}

/**
 * The MCP key an `Authorization: Bearer <key>` header carries, when it is one of `keys` and admits
 * `principal`; undefined for a missing, malformed or unknown key, or another principal's key
 * (digests compared in constant time).
 */
export function mcpKeyFor(
  authorization: string | undefined,
  keys: readonly McpKeyConfig[],
  principal: PrincipalRef,
): McpKeyConfig | undefined {
  const m = /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(authorization ?? '');
  if (!m) return undefined;
  const digest = Buffer.from(tokenDigest(m[1]), 'hex');
  let found: McpKeyConfig | undefined;
  for (const k of keys) {
    const expected = Buffer.from(k.keySha256, 'hex');
    if (expected.length === digest.length && timingSafeEqual(expected, digest)) found = k;
  }
  if (!found) return undefined;
  const key = principalKey(principal);
  return found.principals.some((g) => globMatch(g, key)) ? found : undefined;
}

/**
 * gRPC metadata key a front end sets to say that a person made the change through it. Its only
 * value is "portal". It names the channel, never the person: who made the change is always the
 * orchestrator the bearer token authenticates, so a caller that sets it can mislabel only its own changes.
 */
export const ACTOR_VIA_METADATA = 'toolsurface-via';
/** The value of ACTOR_VIA_METADATA the portal sends. */
export const VIA_PORTAL = 'portal';
/** The actor of the changes surface-resolver makes when it applies its config file. */
export const CONFIG_FILE_ACTOR = 'config-file';

/**
 * Who made a change, as `presentation.changed` records it: the caller's orchestrator
 * ("anonymous" with authentication off), prefixed "portal:" when made through the portal.
 * Throws AppError INVALID_REQUEST for another `via`.
 */
export function actorOf(caller: Caller, via: string | undefined): string {
  if (via === undefined || via === '') return caller.orchestrator;
  if (via !== VIA_PORTAL)
    throw new AppError(ReasonCode.INVALID_REQUEST, `metadata ${ACTOR_VIA_METADATA} may only be "${VIA_PORTAL}", not "${via.slice(0, 40)}"`);
  return `${VIA_PORTAL}:${caller.orchestrator}`;
}
