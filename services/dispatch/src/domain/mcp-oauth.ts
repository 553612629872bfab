import { globMatch, principalKey, type PrincipalRef } from '@toolsurface/core';
import { mcpPathOf, principalOfPath } from './mcp';

/**
 * OAuth 2.1 resource-server mode of the MCP endpoint, the pure parts: the protected-resource
 * metadata (RFC 9728), the `WWW-Authenticate` challenge, and which principals a token's claim
 * admits. Verification itself (jose, the issuer's JWKS) is in `../mcp/oauth.ts`.
 */

/** The well-known path of the protected-resource metadata (RFC 9728 section 3). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * A metadata request's path: `{}` for the root document, `{ principal }` for the path-suffixed form
 * of a principal's URL (`/.well-known/oauth-protected-resource/mcp/agent/<id>`); undefined otherwise.
 */
export function metadataRoute(pathname: string): { principal?: PrincipalRef } | undefined {
  if (pathname === PROTECTED_RESOURCE_PATH || pathname === `${PROTECTED_RESOURCE_PATH}/`) return {};
  if (!pathname.startsWith(`${PROTECTED_RESOURCE_PATH}/`)) return undefined;
  const principal = principalOfPath(pathname.slice(PROTECTED_RESOURCE_PATH.length));
  return principal ? { principal } : undefined;
}

/** The public URL without a trailing slash. */
function base(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** The resource a principal's URL is (its public URL), or the endpoint's public URL. */
export function resourceOf(publicUrl: string, principal?: PrincipalRef): string {
  return principal ? `${base(publicUrl)}${mcpPathOf(principal)}` : base(publicUrl);
}

/** Where the metadata of a principal's URL (or of the endpoint) is served. */
export function metadataUrlOf(publicUrl: string, principal?: PrincipalRef): string {
  return `${base(publicUrl)}${PROTECTED_RESOURCE_PATH}${principal ? mcpPathOf(principal) : ''}`;
}

/** The protected-resource metadata document (RFC 9728 section 2). */
export function protectedResourceMetadata(publicUrl: string, issuer: string, principal?: PrincipalRef): Record<string, unknown> {
  return {
    resource: resourceOf(publicUrl, principal),
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: principal ? `Toolsurface tools of ${principalKey(principal)}` : 'Toolsurface MCP endpoint',
  };
}

/**
 * The `WWW-Authenticate` value of a 401 (RFC 9728 section 5.1, RFC 6750 section 3):
 * `error="invalid_token"` only where a token was sent.
 */
export function bearerChallenge(metadataUrl: string, tokenSent: boolean): string {
  return `Bearer resource_metadata="${metadataUrl}"${tokenSent ? ', error="invalid_token"' : ''}`;
}

/**
 * The principals a token's principal claim names, as globs over `kind:id` like an MCP key's
 * `principals`: an array of strings or one space-separated string; an entry without a `:` is an
 * agent's ID (so `sub: researcher` names `agent:researcher`). Undefined when the claim is absent or
 * not strings.
 */
export function principalsOfClaim(value: unknown): string[] | undefined {
  const entries = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : undefined;
  if (!entries || !entries.every((e) => typeof e === 'string')) return undefined;
  const names = (entries as string[]).filter(Boolean).map((e) => (e.includes(':') ? e : `agent:${e}`));
  return names.length > 0 ? names : undefined;
}

/** Whether a token whose principal claim is `claim` opens the URL of `principal`. */
export function claimAdmits(claim: unknown, principal: PrincipalRef): boolean {
  const key = principalKey(principal);
  return (principalsOfClaim(claim) ?? []).some((g) => globMatch(g, key));
}

/** The bearer value of an Authorization header, undefined without one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^Bearer ([\x21-\x7e]{1,16384})$/i.exec(authorization ?? '');
  return m?.[1];
}
