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
 * Sessions in memory: the token never reaches the browser, which holds only a random session ID
 * (an HttpOnly cookie). A restart signs everyone out, which a single-replica admin page can afford.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly ttlMs: number) {}

  /** A new session for `token`, with a fresh ID and CSRF token (32 random bytes each, hex). */
  create(token: string): Session {
    this.sweep();
    const s: Session = {
      id: randomBytes(32).toString('hex'),
      token,
      csrf: randomBytes(32).toString('hex'),
      expiresAtMs: Date.now() + this.ttlMs,
    };
    this.sessions.set(s.id, s);
    return s;
  }

  /** The live session of a Cookie header, or undefined. */
  fromCookie(cookieHeader: string | undefined): Session | undefined {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.expiresAtMs <= Date.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return s;
  }

  delete(id: string): void {
    this.sessions.delete(id);
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
