import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { openBucket } from '@toolsurface/platform';
import { newSession, sessionIdOf, type Session, type SessionStore } from './sessions';

/** The portal's sessions bucket: one record per signed-in person, removed by NATS at the session TTL. */
export const PORTAL_SESSIONS_BUCKET = 'toolsurface_portal_sessions';

/** What a record holds, sealed. */
interface SessionRecord {
  token: string;
  csrf: string;
  expiresAtMs: number;
}

/** The record's key: a digest of the session ID, so a reader of the bucket learns no cookie. */
function keyOf(id: string): string {
  return `session.${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}

/** AES-256-GCM key of one session, derived from its ID, which only the browser and the request carry. */
function sealKey(id: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(id, 'hex'), Buffer.alloc(0), 'toolsurface portal session v1', 32));
}

function seal(id: string, r: SessionRecord): Uint8Array {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', sealKey(id), iv);
  const data = Buffer.concat([c.update(JSON.stringify(r), 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), data]);
}

function unseal(id: string, sealed: Uint8Array): SessionRecord | undefined {
  const b = Buffer.from(sealed);
  if (b.length < 29) return undefined;
  try {
    const d = createDecipheriv('aes-256-gcm', sealKey(id), b.subarray(0, 12));
    d.setAuthTag(b.subarray(12, 28));
    return JSON.parse(Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8')) as SessionRecord;
  } catch {
    // Tampered with, or written under another ID: no session.
    return undefined;
  }
}

/**
 * Sessions in a NATS key-value bucket, so every portal replica behind a load balancer knows each
 * sign-in, a sign-out on one ends it on all, and a restart keeps them. The bucket holds neither
 * session IDs nor admin tokens in the clear: the key is the ID's SHA-256, the value is sealed
 * with a key derived from the ID. Each request reads the record (no cache), so a sign-out counts at once.
 */
export class NatsSessionStore implements SessionStore {
  private constructor(
    private readonly kv: KV,
    private readonly ttlMs: number,
  ) {}

  /** Opens the bucket (creating it with max age `ttlMs` and `replicas` copies where missing). */
  static async open(nc: NatsConnection, ttlMs: number, replicas: number): Promise<NatsSessionStore> {
    return new NatsSessionStore(await openBucket(nc, PORTAL_SESSIONS_BUCKET, { ttlMs, replicas }), ttlMs);
  }

  async create(token: string): Promise<Session> {
    const s = newSession(token, this.ttlMs);
    await this.kv.put(keyOf(s.id), seal(s.id, { token: s.token, csrf: s.csrf, expiresAtMs: s.expiresAtMs }));
    return s;
  }

  async fromCookie(cookieHeader: string | undefined): Promise<Session | undefined> {
    const id = sessionIdOf(cookieHeader);
    if (!id) return undefined;
    const e = await this.kv.get(keyOf(id));
    if (!e || e.operation !== 'PUT') return undefined;
    const r = unseal(id, e.value);
    // The record's own expiry counts: a bucket another portal created may keep records longer.
    if (!r || r.expiresAtMs <= Date.now()) return undefined;
    return { id, ...r };
  }

  async delete(id: string): Promise<void> {
    await this.kv.delete(keyOf(id));
  }
}
