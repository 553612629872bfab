import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, type Portal } from './server';

// The portal's HTTP server as a browser or an attacker reaches it, before any sign-in: no
// gateway behind it (nothing here needs one), a one-file web build.

let portal: Portal;
let dir: string;

/** A raw request (fetch cannot set Host or send a malformed path). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: portal.port(), method, path, headers: { host: `127.0.0.1:${portal.port()}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-server-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  portal = createPortal({
    host: '127.0.0.1',
    port: 0,
    resolver: '127.0.0.1:1',
    allowedHosts: [],
    mcpPublicUrl: '',
    sessionTtlSeconds: 60,
    webDist: dir,
  });
  await portal.start();
});

afterAll(async () => {
  await portal.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the portal server under malformed requests', () => {
  it('answers a path with bad %-encoding with 400 and keeps serving (one image URL must not stop it)', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/assets/%C0']) {
      const r = await raw('GET', path);
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.body)).toEqual({ error: 'the request URL is malformed' });
    }
    expect((await raw('GET', '/')).status).toBe(200);
  });
});

describe('headers of every kind of answer', () => {
  it('marks API answers and refusals nosniff, unframeable and not to be cached, as it does pages', async () => {
    const answers = {
      page: await raw('GET', '/'),
      api: await raw('GET', '/api/session'),
      'api refusal': await raw('GET', '/api/principals'),
      'foreign Host': await raw('GET', '/api/session', { host: 'attacker.example' }),
      'foreign Origin': await raw('PUT', '/api/session', { origin: 'http://attacker.example' }),
      'method not allowed': await raw('POST', '/', { origin: `http://127.0.0.1:${portal.port()}` }),
    };
    for (const [what, r] of Object.entries(answers)) {
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
      expect(r.headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
      expect(r.headers['x-frame-options'], what).toBe('DENY');
      expect(r.headers['cache-control'], what).toMatch(what === 'page' ? /no-cache/ : /no-store/);
    }
  });
});
