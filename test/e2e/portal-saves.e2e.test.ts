import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, type Portal } from '@toolsurface/portal';
import { startGateway, type GatewayFixture } from '../support';

// Saves through the portal's API against the real gateway (nats-server, surface-resolver, an MCP
// server): a form loaded before someone else changed the principal, and several saves of one form
// at once. Each must change nothing it did not see. And a second sign-in in one browser.

const OPS = 'ops-token-0123456789';
let g: GatewayFixture;
let portal: Portal;
let dir: string;
let cookie = '';
let csrf = '';

function raw(method: string, path: string, body = ''): Promise<{ status: number; body: string; setCookie: string[] }> {
  const host = `127.0.0.1:${portal.port()}`;
  const headers = { host, origin: `http://${host}`, 'content-type': 'application/json', cookie, 'x-csrf-token': csrf };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: portal.port(), method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, setCookie: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const save = (principal: string, change: Record<string, string>) =>
  raw('PUT', `/api/principals/${principal}/presentation`, JSON.stringify(change));

async function current(principal: string): Promise<{ configuredMode: string; autonomy: string }> {
  const r = await raw('GET', `/api/principals/${principal}`);
  expect(r.status, r.body).toBe(200);
  return JSON.parse(r.body) as { configuredMode: string; autonomy: string };
}

beforeAll(async () => {
  g = await startGateway(join(import.meta.dirname, '..', 'fixtures', 'portal-saves.yaml'), ['memory']);
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-saves-'));
  // No page is loaded here: a one-file web build spares the Vite build.
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  portal = createPortal({
    host: '127.0.0.1',
    port: 0,
    resolver: g.stack.addresses.resolver,
    allowedHosts: [],
    mcpPublicUrl: '',
    sessionTtlSeconds: 600,
    webDist: dir,
  });
  await portal.start();
  const s = await raw('POST', '/api/session', JSON.stringify({ token: OPS }));
  expect(s.status, s.body).toBe(200);
  cookie = s.setCookie.map((c) => c.split(';')[0]).join('; ');
  csrf = (JSON.parse(s.body) as { csrf: string }).csrf;
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await g?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('saves through the portal', { timeout: 60_000 }, () => {
  it('refuses a gateway form loaded before someone set it supervised, and keeps it supervised', async () => {
    // The form was loaded while partner was unified and autonomous; someone then made it supervised.
    expect((await save('gateway/partner', { mode: 'unified', autonomy: 'supervised', expectedMode: 'unified' })).status).toBe(200);
    const stale = await save('gateway/partner', {
      mode: 'unified',
      autonomy: 'autonomous',
      expectedMode: 'unified',
      expectedAutonomy: 'autonomous',
    });
    expect(stale.status, stale.body).toBe(409);
    expect((JSON.parse(stale.body) as { error: string }).error).toMatch(/gateway:partner was set to supervised since this page was loaded/);
    expect(await current('gateway/partner')).toMatchObject({ configuredMode: 'unified', autonomy: 'supervised' });
  });

  it('of several saves of one form at once, takes one and refuses the others', async () => {
    expect((await current('agent/writer')).configuredMode).toBe('adaptive');
    const modes = ['direct', 'discovery', 'unified', 'direct', 'discovery', 'unified'];
    const answers = await Promise.all(modes.map((mode) => save('agent/writer', { mode, expectedMode: 'adaptive' })));
    const taken = modes.filter((_, i) => answers[i].status === 200);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await current('agent/writer')).configuredMode).toBe(taken[0]);
  });
});

describe('signing in again', { timeout: 60_000 }, () => {
  it('ends the session the browser held before', async () => {
    const first = cookie;
    const again = await raw('POST', '/api/session', JSON.stringify({ token: OPS }));
    expect(again.status, again.body).toBe(200);
    cookie = again.setCookie.map((c) => c.split(';')[0]).join('; ');
    csrf = (JSON.parse(again.body) as { csrf: string }).csrf;
    expect(cookie).not.toBe(first);
    expect((await raw('GET', '/api/principals')).status).toBe(200);
    const old = cookie;
    cookie = first;
    expect((await raw('GET', '/api/principals')).status).toBe(401);
    cookie = old;
  });
});
