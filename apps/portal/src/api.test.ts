import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityOff } from './activity-feed';
import { handleApi } from './api';
import { MemorySessionStore, type SessionStore } from './sessions';

// The API over a real HTTP server whose session store is out of reach (NATS down): every request
// gets a 503 to retry, and no sign-in is made or ended.

const unreachable: SessionStore = {
  create: () => Promise.reject(new Error('TIMEOUT')),
  fromCookie: () => Promise.reject(new Error('TIMEOUT')),
  delete: () => Promise.reject(new Error('TIMEOUT')),
};
let server: Server;
let base: string;

beforeAll(async () => {
  const ctx = {
    sessions: unreachable,
    resolver: '127.0.0.1:1',
    secure: false,
    sessionTtlSeconds: 60,
    mcpPublicUrl: '',
    activity: activityOff(),
  };
  server = createServer((req, res) => void handleApi(ctx, req, res, new URL(req.url ?? '/', 'http://portal').pathname));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the API while the session store is out of reach', () => {
  it('answers 503 with a message to retry, for a session check and a change alike', async () => {
    const cookie = `ts_portal_session=${'a'.repeat(64)}`;
    const check = await fetch(`${base}/api/session`, { headers: { cookie } });
    expect(check.status).toBe(503);
    expect(((await check.json()) as { error: string }).error).toMatch(/sign-ins cannot be read or stored right now \(TIMEOUT\); try again/);
    const change = await fetch(`${base}/api/principals/agent/a/presentation`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': 'x' },
      body: JSON.stringify({ mode: 'direct' }),
    });
    expect(change.status).toBe(503);
  });
});

describe('the API with a session, before any call to the gateway', () => {
  let signedIn: Server;
  let url: string;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    const sessions = new MemorySessionStore(60_000);
    const s = await sessions.create('token');
    cookie = `ts_portal_session=${s.id}`;
    csrf = s.csrf;
    // No gateway answers at 127.0.0.1:1: whatever is refused here is refused before calling it.
    const ctx = { sessions, resolver: '127.0.0.1:1', secure: false, sessionTtlSeconds: 60, mcpPublicUrl: '', activity: activityOff() };
    signedIn = createServer((req, res) => void handleApi(ctx, req, res, new URL(req.url ?? '/', 'http://portal').pathname));
    await new Promise<void>((resolve) => signedIn.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(signedIn.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => signedIn.close(() => resolve())));

  it('answers a principal path with bad %-encoding with 400, not an internal error', async () => {
    for (const path of ['/api/principals/agent/%E0%A4%A', '/api/principals/%ZZ/x/preview']) {
      const r = await fetch(`${url}${path}`, { headers: { cookie } });
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: string }).error).toMatch(/malformed/);
    }
    const put = await fetch(`${url}/api/principals/agent/%E0/presentation`, {
      method: 'PUT',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'direct' }),
    });
    expect(put.status).toBe(400);
  });

  it('refuses a sign-in token no gateway token can be, without an internal error or echoing it', async () => {
    for (const token of ['opś-tökén', 'ops\r\nx-injected: 1', 'a\u0000b']) {
      const r = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const body = (await r.json()) as { error: string };
      expect(r.status, JSON.stringify(token)).toBe(400);
      expect(body.error).toMatch(/that is not an admin token: a token has printable ASCII characters only/);
      expect(body.error).not.toContain(token.slice(0, 3));
      expect(r.headers.get('set-cookie')).toBeNull();
    }
  });
});
