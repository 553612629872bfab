import { randomBytes, timingSafeEqual } from 'node:crypto';

/** One signed-in person: the admin token the portal calls the gateway with, and the CSRF token of the session. */
export interface Session {
  id: string;
  token: string;
  csrf: string;
  expiresAtMs: number;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'ts_portal_session';

/**
 * Where sessions live: the token never reaches the browser, which holds only a random session ID
 * (an HttpOnly cookie). NatsSessionStore (session-kv.ts) shares them between replicas and
 * restarts; MemorySessionStore serves a portal started without NATS_URL.
 */
export interface SessionStore {
  /** A new session for `token`, with a fresh ID and CSRF token (32 random bytes each, hex). */
  create(token: string): Promise<Session>;
  /** The live session of a Cookie header, or undefined. */
  fromCookie(cookieHeader: string | undefined): Promise<Session | undefined>;
  /** Ends a session (sign-out), on every replica. */
  delete(id: string): Promise<void>;
}

/** A new session's ID, CSRF token and expiry. */
export function newSession(token: string, ttlMs: number): Session {
  return { id: randomBytes(32).toString('hex'), token, csrf: randomBytes(32).toString('hex'), expiresAtMs: Date.now() + ttlMs };
}

/** The session ID of a Cookie header, when it has the shape newSession gives one (64 hex digits). */
export function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  const id = readCookie(cookieHeader, SESSION_COOKIE);
  return id && /^[0-9a-f]{64}$/.test(id) ? id : undefined;
}

/** Sessions in this process only: a restart signs everyone out, and a second replica does not know them. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly ttlMs: number) {}

  create(token: string): Promise<Session> {
    this.sweep();
    const s = newSession(token, this.ttlMs);
    this.sessions.set(s.id, s);
    return Promise.resolve(s);
  }

  fromCookie(cookieHeader: string | undefined): Promise<Session | undefined> {
    const id = sessionIdOf(cookieHeader);
    const s = id ? this.sessions.get(id) : undefined;
    if (!s) return Promise.resolve(undefined);
    if (s.expiresAtMs <= Date.now()) {
      this.sessions.delete(s.id);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(s);
  }

  delete(id: string): Promise<void> {
    this.sessions.delete(id);
    return Promise.resolve();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) if (s.expiresAtMs <= now) this.sessions.delete(id);
  }
}

/** Whether `given` is the session's CSRF token (compared in constant time). */
export function csrfMatches(session: Session, given: string | undefined): boolean {
  if (typeof given !== 'string' || given.length !== session.csrf.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(session.csrf));
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Set-Cookie value of a session (or of its removal with maxAgeSeconds 0): HttpOnly, SameSite=Strict, Secure over TLS. */
export function sessionCookie(id: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}
