import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { PrincipalRef } from '@toolsurface/core';
import type { McpOAuthConfig } from '../config';
import { claimAdmits, resourceOf } from '../domain/mcp-oauth';

/** A token refused: 401 with error="invalid_token". */
export class InvalidTokenError extends Error {}

/** The issuer's JWKS could not be had (its server down or slow): 503, not the client's fault. */
export class KeysUnavailableError extends Error {}

const CLOCK_TOLERANCE_S = 30;
const JWKS_TIMEOUT_MS = 5000;

/**
 * Checks JWT access tokens with jose against the issuer's JWKS (fetched on first use and cached by
 * createRemoteJWKSet: kept 10 minutes, fetched again at most every 30 s for an unknown `kid`):
 * signature, algorithm, `iss`, `exp` and `nbf` (30 s of clock skew), `aud` (the principal's URL or
 * the configured audience), and the principal claim admitting the URL's principal.
 */
export class OAuthVerifier {
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(
    private readonly config: McpOAuthConfig,
    private readonly fetchJson: (url: string) => Promise<unknown> = defaultFetchJson,
  ) {}

  /** Verifies `token` for `principal`; resolves with its subject. Throws InvalidTokenError or KeysUnavailableError. */
  async verify(token: string, principal: PrincipalRef): Promise<string> {
    const keys = await this.jwks();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.config.issuer,
        audience: [resourceOf(this.config.publicUrl, principal), this.config.audience],
        algorithms: this.config.algorithms,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      if (e instanceof errors.JWKSTimeout || !(e instanceof errors.JOSEError)) {
        throw new KeysUnavailableError(`the issuer's keys could not be fetched: ${(e as Error).message}`);
      }
      throw new InvalidTokenError(`the access token was refused: ${e.message}`);
    }
    if (!claimAdmits(payload[this.config.principalClaim], principal)) {
      throw new InvalidTokenError(`the access token's ${this.config.principalClaim} claim does not name this principal`);
    }
    return typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : 'unknown';
  }

  private jwks(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.jwksUrl().then(
      (url) => createRemoteJWKSet(new URL(url), { timeoutDuration: JWKS_TIMEOUT_MS }),
      (e: unknown) => {
        this.keys = undefined;
        throw new KeysUnavailableError(`the issuer's metadata could not be read: ${(e as Error).message}`);
      },
    );
    return this.keys;
  }

  /** The configured JWKS URL, else `jwks_uri` of the issuer's metadata (RFC 8414, then OpenID), else `<issuer>/.well-known/jwks.json`. */
  private async jwksUrl(): Promise<string> {
    if (this.config.jwksUrl) return this.config.jwksUrl;
    const issuer = new URL(this.config.issuer);
    const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/+$/, '');
    const candidates = [
      `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
      `${issuer.origin}${path}/.well-known/openid-configuration`,
    ];
    for (const url of candidates) {
      const doc = await this.fetchJson(url).catch(() => undefined);
      const jwks = (doc as { jwks_uri?: unknown } | undefined)?.jwks_uri;
      if (typeof jwks === 'string' && jwks !== '') return jwks;
    }
    return `${issuer.origin}${path}/.well-known/jwks.json`;
  }
}

async function defaultFetchJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS), headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}
