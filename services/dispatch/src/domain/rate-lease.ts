import { refilledTokens, retryAfterMs } from '@toolsurface/core';

/** One rate-limit bucket as the shared store holds it: tokens left at `atMs` (ms since the epoch). */
export interface SharedBucket {
  tokens: number;
  atMs: number;
}

/** A limit's rate: `calls` per `perMs` milliseconds. */
export interface Rate {
  calls: number;
  perMs: number;
}

/**
 * Share of a limit one replica takes from the shared bucket at a time, and share of its window a
 * lease may be spent in. A lease is taken off the shared bucket when it is granted, so leases never
 * let replicas admit more than the bucket holds; a lease spent later than it was taken shifts its
 * calls by at most `LEASE_FRACTION` of the window, which bounds the overshoot in any window to 1%
 * of the limit (plus one call for rounding). Tokens of a lease that expires unspent are lost: a
 * principal may be refused up to one lease per replica early.
 */
export const LEASE_FRACTION = 0.01;
/** Longest a lease may be spent, ms, whatever the window. */
export const MAX_LEASE_MS = 1000;

/** How many tokens one lease takes (at least 1) and how long it may be spent, ms. */
export function leaseTerms(rate: Rate): { size: number; ttlMs: number } {
  return { size: Math.max(1, Math.floor(rate.calls * LEASE_FRACTION)), ttlMs: Math.min(MAX_LEASE_MS, rate.perMs * LEASE_FRACTION) };
}

/**
 * Grants up to `want` tokens (at least 1 asked) from a shared bucket at `now`: the tokens granted and
 * the bucket to write back, or, when under one token is left, how long until one is, ms. A missing
 * bucket is full. The bucket's time never goes back, so a replica whose clock is behind refills
 * nothing rather than refilling twice.
 */
export function grantTokens(
  stored: SharedBucket | undefined,
  rate: Rate,
  want: number,
  now: number,
): { granted: number; next: SharedBucket } | { retryAfterMs: number } {
  const at = stored ? Math.max(stored.atMs, now) : now;
  const tokens = stored ? refilledTokens(stored.tokens, stored.atMs, rate.calls, rate.perMs, now) : rate.calls;
  if (tokens < 1) return { retryAfterMs: retryAfterMs(tokens, rate.calls, rate.perMs) };
  const granted = Math.min(Math.floor(tokens), Math.max(1, want));
  return { granted, next: { tokens: tokens - granted, atMs: at } };
}

/** A stored bucket read back; undefined when it is not one (then the bucket is treated as full). */
export function parseSharedBucket(v: unknown): SharedBucket | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const { tokens, atMs } = v as Record<string, unknown>;
  return typeof tokens === 'number' && Number.isFinite(tokens) && typeof atMs === 'number' && Number.isFinite(atMs)
    ? { tokens, atMs }
    : undefined;
}
