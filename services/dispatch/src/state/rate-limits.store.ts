import { createHash } from 'node:crypto';
import { JetStreamApiError } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AppError,
  rateBucketKey,
  ReasonCode,
  type AdmissionLimit,
  type PrincipalRef,
  type RateLimits,
  type RateRefusal,
} from '@toolsurface/core';
import { grantTokens, leaseTerms, parseSharedBucket, type Rate, type SharedBucket } from '../domain/rate-lease';

/** The key-value bucket of rate-limit state: one key per token bucket. */
export const RATE_LIMITS_BUCKET = 'toolsurface_rate_limits';
/**
 * Max age of its keys, ms: the longest window a limit can have (per_seconds at most 86,400). A key
 * untouched that long belongs to a bucket that has refilled completely, so losing it changes nothing.
 */
export const RATE_LIMITS_MAX_AGE_MS = 86_400_000;

/** Compare-and-set attempts on one key before the call is refused as UNAVAILABLE. */
const MAX_CAS_ATTEMPTS = 20;
/** Rounds of acquiring leases for one call (other calls of this replica may spend a lease first). */
const MAX_ROUNDS = 20;

interface Lease {
  tokens: number;
  expiresAt: number;
}

interface Known {
  bucket: SharedBucket | undefined;
  /** KV revision of `bucket`; 0 when the key did not exist. */
  revision: number;
}

/**
 * Admission's rate limits with their buckets in a NATS key-value bucket (`toolsurface_rate_limits`),
 * so N dispatch replicas share one budget and a restart resets no window. Each replica takes tokens
 * from the shared bucket by compare-and-set on the key's revision, in leases (see leaseTerms: 1% of
 * the limit, spent within 1% of its window, at most 1 s), and spends a lease locally with no round
 * trip. Calls of this replica waiting on one key share one request. NATS unreachable: the call gets
 * UNAVAILABLE (nothing runs without its limit checked).
 */
export class KvRateLimits implements RateLimits {
  private readonly leases = new Map<string, Lease>();
  /** The last revision this replica read or wrote, per key: the next compare-and-set starts from it. */
  private readonly known = new Map<string, Known>();
  private readonly pending = new Map<string, { promise: Promise<RateRefusal | undefined>; waiting: number }>();

  constructor(
    private readonly kv: KV,
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async take(
    limits: readonly AdmissionLimit[],
    principal: PrincipalRef,
    capability: string,
    tool: string,
    now: number,
  ): Promise<RateRefusal | undefined> {
    const rated = limits.filter((l) => l.rate);
    if (rated.length === 0) return undefined;
    const keys = rated.map((l) => rateBucketKey(l, principal, capability, tool));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Leases are judged at the call's arrival, not after its wait: a lease granted while the call
      // waited is one it may spend, however short the lease (a window of 50 ms gives 0.5 ms).
      const missing = rated.map((l, i) => [l, keys[i]] as const).filter(([, k]) => !usable(this.leases.get(k), now));
      if (missing.length === 0) {
        // Every lease holds a token: spend one of each, all in this synchronous step.
        for (const k of keys) this.leases.get(k)!.tokens -= 1;
        return undefined;
      }
      const refusals = await Promise.all(missing.map(([l, k]) => this.acquire(l, k, now)));
      const refused = refusals.find((r) => r !== undefined);
      if (refused) return refused;
    }
    throw new AppError(ReasonCode.UNAVAILABLE, 'rate-limit state is too contended right now; retry');
  }

  /** Number of leases held (for tests). */
  get size(): number {
    return this.leases.size;
  }

  // One request per key at a time; callers arriving meanwhile wait for it and ask for their share.
  private acquire(limit: AdmissionLimit, key: string, now: number): Promise<RateRefusal | undefined> {
    const inFlight = this.pending.get(key);
    if (inFlight) {
      inFlight.waiting++;
      return inFlight.promise;
    }
    const entry = { waiting: 1, promise: Promise.resolve<RateRefusal | undefined>(undefined) };
    entry.promise = this.lease(limit, key, now, () => entry.waiting).finally(() => this.pending.delete(key));
    this.pending.set(key, entry);
    return entry.promise;
  }

  private async lease(limit: AdmissionLimit, key: string, now: number, waiting: () => number): Promise<RateRefusal | undefined> {
    const rate: Rate = { calls: limit.rate!.calls, perMs: limit.rate!.perSeconds * 1000 };
    const terms = leaseTerms(rate);
    const kvKey = storeKey(key);
    // One turn of the event loop first, so calls that arrive together (each its own gRPC event)
    // wait on this request and are counted in what it asks for, rather than each asking in turn.
    await new Promise((resolve) => setImmediate(resolve));
    let known = this.known.get(key);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      known ??= await this.read(kvKey);
      const at = attempt === 0 ? now : this.clock();
      const held = this.leases.get(key);
      // Tokens of a lease still held count towards what is asked; an expired one is dropped.
      const have = usable(held, at) ? held!.tokens : 0;
      const want = Math.max(terms.size, waiting()) - Math.floor(have);
      const grant = grantTokens(known.bucket, rate, Math.max(1, want), at);
      if ('retryAfterMs' in grant) {
        this.remember(key, known);
        return { limit, retryAfterMs: grant.retryAfterMs };
      }
      let revision: number;
      try {
        const value = JSON.stringify(grant.next);
        revision = known.revision === 0 ? await this.kv.create(kvKey, value) : await this.kv.update(kvKey, value, known.revision);
      } catch (e) {
        if (isConflict(e)) {
          // Another replica wrote first: read its value and try again.
          known = undefined;
          continue;
        }
        throw unavailable(e);
      }
      this.remember(key, { bucket: grant.next, revision });
      const spendable = usable(held, at) ? held!.tokens : 0;
      // The lease runs from when it was granted, so every call that waited for it (all arrived
      // before) may spend it; the shift past the bucket's time is the round trip plus ttlMs.
      this.leases.set(key, { tokens: spendable + grant.granted, expiresAt: Math.max(at, this.clock()) + terms.ttlMs });
      return undefined;
    }
    throw new AppError(ReasonCode.UNAVAILABLE, 'rate-limit state is too contended right now; retry');
  }

  private async read(kvKey: string): Promise<Known> {
    try {
      const e = await this.kv.get(kvKey);
      if (!e || e.operation !== 'PUT') return { bucket: undefined, revision: e?.revision ?? 0 };
      let v: unknown;
      try {
        v = e.json();
      } catch {
        v = undefined;
      }
      return { bucket: parseSharedBucket(v), revision: e.revision };
    } catch (e) {
      throw unavailable(e);
    }
  }

  // Bounded memory: past maxKeys, the oldest entries go (a forgotten key is read again; a lease is lost, never gained).
  private remember(key: string, known: Known): void {
    this.known.delete(key);
    this.known.set(key, known);
    if (this.known.size > this.maxKeys) this.known.delete(this.known.keys().next().value!);
    if (this.leases.size > this.maxKeys) this.leases.delete(this.leases.keys().next().value!);
  }
}

function usable(lease: Lease | undefined, now: number): boolean {
  return lease !== undefined && lease.tokens >= 1 && lease.expiresAt > now;
}

/** A KV key for a bucket key (which holds NULs and any characters of IDs and names): its SHA-256, base64url. */
function storeKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** A compare-and-set that lost: the key's revision is not the one expected. */
function isConflict(e: unknown): boolean {
  // 10071: wrong last sequence; 10164: wrong last sequence, unknown (JetStreamApiCodes).
  return e instanceof JetStreamApiError && (e.code === 10071 || e.code === 10164);
}

function unavailable(e: unknown): AppError {
  return new AppError(ReasonCode.UNAVAILABLE, 'rate-limit state in NATS is unreachable; retry', { cause: e });
}

/**
 * Opens (creating where missing) the rate-limit bucket: history 1, keys kept one day at most,
 * `replicas` copies (JETSTREAM_REPLICAS).
 */
export async function openRateLimitsBucket(nc: NatsConnection, replicas: number): Promise<KV> {
  const kvm = new Kvm(nc);
  for (let attempt = 0; ; attempt++) {
    try {
      return await kvm.create(RATE_LIMITS_BUCKET, { history: 1, ttl: RATE_LIMITS_MAX_AGE_MS, replicas });
    } catch (e) {
      // Replicas starting together race to create it; the loser opens it on the next try.
      if (attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
    }
  }
}
