import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@toolsurface/devkit';
import { STREAM, Subjects } from '@toolsurface/platform';
import { createPortal, type Portal } from '@toolsurface/portal';
import { PresentationChanged } from '@toolsurface/proto';
import { portalRequest, startGateway, type GatewayFixture } from '../support';

// Two portal replicas on one nats-server share sign-ins (bucket toolsurface_portal_sessions), and
// every change is recorded on presentation.changed with who made it: a change through the portal
// and one through the CLI (the `toolsurface` command, a real process), each read back from the
// TOOLSURFACE stream.

const OPS = 'ops-token-0123456789';
const CLI = join(REPO_ROOT, 'apps', 'cli', 'bin', 'toolsurface.js');

let g: GatewayFixture;
let dir: string;
const portals: Portal[] = [];

function newPortal(): Portal {
  return createPortal({
    host: '127.0.0.1',
    port: 0,
    resolver: g.stack.addresses.resolver,
    allowedHosts: [],
    mcpPublicUrl: '',
    sessionTtlSeconds: 3600,
    webDist: join(dir, 'web'),
    nats: { url: g.nats.url, auth: {}, replicas: 1 },
  });
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string | undefined;
}

/** A request to a portal as its own page sends it, its body parsed. */
async function call(
  p: Portal,
  method: string,
  path: string,
  opts: { cookie?: string; csrf?: string; body?: unknown } = {},
): Promise<Answer> {
  const r = await portalRequest(p, method, path, opts);
  return { status: r.status, body: JSON.parse(r.text) as Record<string, unknown>, setCookie: r.setCookie[0] };
}

/** Signs in on `p`: the cookie (name=value) and the session's CSRF token. */
async function signIn(p: Portal): Promise<{ cookie: string; csrf: string }> {
  const r = await call(p, 'POST', '/api/session', { body: { token: OPS } });
  expect(r.status).toBe(200);
  return { cookie: r.setCookie!.split(';')[0]!, csrf: r.body.csrf as string };
}

/** The last presentation.changed event stored in the stream, and its sequence number there. */
async function lastChange(): Promise<{ seq: number; event: PresentationChanged }> {
  const m = await (await jetstreamManager(g.nc)).streams.getMessage(STREAM, { last_by_subj: Subjects.presentationChanged });
  if (!m) throw new Error('no presentation.changed in the stream');
  return { seq: m.seq, event: PresentationChanged.decode(m.data) };
}

beforeAll(async () => {
  g = await startGateway(join(import.meta.dirname, '..', 'fixtures', 'portal.yaml'), ['everything', 'filesystem', 'memory']);
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-sessions-'));
  // One after the other: the first builds the web app the second serves.
  for (let i = 0; i < 2; i++) {
    const p = newPortal();
    await p.start();
    portals.push(p);
  }
}, 240_000);

afterAll(async () => {
  for (const p of portals) await p.stop();
  await g?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('portal sessions in NATS', () => {
  it('a sign-in on one replica works on the other, and a restart keeps it', async () => {
    const [a, b] = portals as [Portal, Portal];
    const s = await signIn(a);
    expect(await call(b, 'GET', '/api/session', { cookie: s.cookie })).toMatchObject({
      status: 200,
      body: { signedIn: true, csrf: s.csrf },
    });
    expect((await call(b, 'GET', '/api/principals', { cookie: s.cookie })).status).toBe(200);
    // A reader of the bucket learns neither the cookie nor the admin token.
    const kv = await new Kvm(g.nc).open('toolsurface_portal_sessions');
    const stored: string[] = [];
    for await (const k of await kv.keys()) stored.push(k, (await kv.get(k))!.string());
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.join('\n')).not.toContain(OPS);
    expect(stored.join('\n')).not.toContain(s.cookie.split('=')[1]);
    await a.stop();
    const restarted = newPortal();
    portals[0] = restarted;
    await restarted.start();
    expect((await call(restarted, 'GET', '/api/session', { cookie: s.cookie })).body).toEqual({ signedIn: true, csrf: s.csrf });
  });

  it("refuses a change with another session's CSRF token on either replica, and changes nothing", async () => {
    const [a, b] = portals as [Portal, Portal];
    const one = await signIn(a);
    const other = await signIn(b);
    const before = await lastChange().catch(() => undefined);
    const r = await call(b, 'PUT', '/api/principals/agent/notetaker/presentation', {
      cookie: one.cookie,
      csrf: other.csrf,
      body: { mode: 'unified' },
    });
    expect(r.status).toBe(403);
    expect((await lastChange().catch(() => undefined))?.seq).toBe(before?.seq);
  });

  it('a sign-out on one replica ends the session on both', async () => {
    const [a, b] = portals as [Portal, Portal];
    const s = await signIn(a);
    expect((await call(b, 'DELETE', '/api/session', { cookie: s.cookie, csrf: s.csrf })).status).toBe(200);
    expect((await call(a, 'GET', '/api/session', { cookie: s.cookie })).body).toEqual({ signedIn: false });
    const r = await call(a, 'PUT', '/api/principals/agent/notetaker/presentation', {
      cookie: s.cookie,
      csrf: s.csrf,
      body: { mode: 'unified' },
    });
    expect(r.status).toBe(401);
  });
});

describe('presentation.changed names who made each change', () => {
  it('a change through the portal: "portal:" and the orchestrator the person signed in as', async () => {
    const [a, b] = portals as [Portal, Portal];
    const s = await signIn(a);
    // In the request body an actor counts for nothing: surface-resolver names the person from their token.
    const r = await call(b, 'PUT', '/api/principals/agent/notetaker/presentation', {
      cookie: s.cookie,
      csrf: s.csrf,
      body: { mode: 'direct', actor: 'someone-else' },
    });
    expect(r.status).toBe(200);
    const { event } = await lastChange();
    expect(event).toMatchObject({ principal: { id: 'notetaker' }, actor: 'portal:ops' });
  });

  it('a change through the CLI: the orchestrator of its token', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, '--resolver', g.stack.addresses.resolver, '--token', OPS, 'mode', 'set', 'agent:notetaker', 'discovery'],
      { cwd: REPO_ROOT, timeout: 60_000 },
    );
    expect(stdout).toMatch(/discovery/);
    const { event } = await lastChange();
    expect(event).toMatchObject({ principal: { id: 'notetaker' }, actor: 'ops', capabilities: ['memory'] });
  });
});
