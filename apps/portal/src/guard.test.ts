import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequest, defaultAllowedHosts } from './guard';
import { csrfMatches, MemorySessionStore, readCookie, sessionCookie } from './sessions';

const req = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as IncomingMessage;
const hosts = defaultAllowedHosts([], '127.0.0.1', 3200);

describe('Host and Origin checks', () => {
  it('answers its own hosts only (a rebound name arrives as its own Host)', () => {
    expect(checkRequest(req('GET', { host: '127.0.0.1:3200' }), hosts, 'http')).toBeUndefined();
    expect(checkRequest(req('GET', { host: 'localhost:3200' }), hosts, 'http')).toBeUndefined();
    expect(checkRequest(req('GET', { host: 'attacker.example:3200' }), hosts, 'http')?.status).toBe(421);
    expect(checkRequest(req('GET', {}), hosts, 'http')?.status).toBe(421);
  });

  it('takes changes only from its own origin and scheme', () => {
    const put = (origin?: string) =>
      checkRequest(req('PUT', { host: '127.0.0.1:3200', ...(origin ? { origin } : {}) }), hosts, 'http')?.status;
    expect(put('http://127.0.0.1:3200')).toBeUndefined();
    expect(put('http://localhost:3200')).toBeUndefined();
    expect(put()).toBe(403);
    expect(put('null')).toBe(403);
    expect(put('http://attacker.example')).toBe(403);
    expect(put('https://127.0.0.1:3200')).toBe(403);
    expect(put('http://127.0.0.1:3201')).toBe(403);
  });

  it('uses PORTAL_ALLOWED_HOSTS instead of the defaults when given', () => {
    const only = defaultAllowedHosts(['portal.example.com'], '0.0.0.0', 443);
    expect(checkRequest(req('GET', { host: 'portal.example.com' }), only, 'https')).toBeUndefined();
    expect(checkRequest(req('GET', { host: '127.0.0.1:443' }), only, 'https')?.status).toBe(421);
  });
});

describe('sessions', () => {
  it('finds a session by its cookie until it expires; CSRF tokens compare exactly', async () => {
    const store = new MemorySessionStore(50);
    const s = await store.create('token');
    expect((await store.fromCookie(`a=b; ts_portal_session=${s.id}`))?.token).toBe('token');
    expect(await store.fromCookie('ts_portal_session=nope')).toBeUndefined();
    expect(await store.fromCookie(`ts_portal_session=${'0'.repeat(64)}`)).toBeUndefined();
    expect(csrfMatches(s, s.csrf)).toBe(true);
    expect(csrfMatches(s, s.csrf.slice(1))).toBe(false);
    expect(csrfMatches(s, undefined)).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.fromCookie(`ts_portal_session=${s.id}`)).toBeUndefined();
  });

  it('writes the cookie HttpOnly and SameSite=Strict, Secure over TLS only', () => {
    expect(sessionCookie('x', 60, false)).toBe('ts_portal_session=x; Path=/; HttpOnly; SameSite=Strict; Max-Age=60');
    expect(sessionCookie('x', 60, true)).toMatch(/; Secure$/);
    expect(readCookie('a=1; b=2', 'b')).toBe('2');
  });
});
