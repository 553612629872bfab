import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { GatewayClient } from '@toolsurface/client';
import { isAppError, ReasonCode, tokenDigest } from '@toolsurface/core';
import { channelCredentials, errorInfoOf, modeFromProto } from '@toolsurface/platform';
import { PresentationServiceClient, SetPresentationRequest, type PresentationMode } from '@toolsurface/proto';
import { ensureNats, findFreePort, REPO_ROOT, writeTestCertificates, type NatsHandle, type TestCertificates } from '@toolsurface/devkit';
import { createPortal, loadPortalConfig, type Portal } from '@toolsurface/portal';
import { serviceEntry } from '@toolsurface/stack';
import { portalRequest } from './support';

// The portal against real surface-resolver processes (as deployed, two replicas on one
// nats-server): its calls over TLS and mutual TLS, configured by the same GRPC_TLS_* variables the
// services read, with a throwaway CA (openssl); and saves whose expected mode surface-resolver
// checks as it writes (compare-and-set), so that of two saves from different replicas one wins.

const CLI = join(REPO_ROOT, 'apps', 'cli', 'bin', 'toolsurface.js');
const ADMIN = 'portal-tls-admin-token-0123456789';
let dir: string;
let certs: TestCertificates;
let nats: NatsHandle;
const resolvers: ChildProcess[] = [];
/** Portals run as processes (so that nothing in this process orders their saves). */
const children: ChildProcess[] = [];
const portals: Portal[] = [];
let tlsAddr = '';
let mtlsAddr = '';

/** surface-resolver as a process on a free port with `tls` (GRPC_TLS_* variables); resolves its address. */
async function startResolver(name: string, tls: Record<string, string>): Promise<string> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', serviceEntry('surface-resolver')], {
    env: {
      ...process.env,
      NATS_URL: nats.url,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      TOOLSURFACE_CONFIG: join(dir, 'config.yaml'),
      LOG_LEVEL: 'info',
      OTEL_SDK_DISABLED: 'true',
      ...tls,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  resolvers.push(child);
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const addr = `127.0.0.1:${port}`;
  // Ready once a portal (verifying it against the CA, with a client certificate) can sign in through it.
  const probe = await portal(addr, {
    GRPC_TLS_CA_FILE: certs.caFile,
    GRPC_TLS_CERT_FILE: certs.certFile,
    GRPC_TLS_KEY_FILE: certs.keyFile,
  });
  for (const deadline = Date.now() + 120_000; (await signIn(probe)).status !== 200;) {
    if (child.exitCode !== null) throw new Error(`surface-resolver ${name} exited: ${log.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`surface-resolver ${name} not ready: ${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return addr;
}

/** A portal on a free port calling surface-resolver at `resolver`, with the given GRPC_TLS_* variables. */
async function portal(resolver: string, env: Record<string, string>): Promise<Portal> {
  // NATS_URL: the suite's own nats-server (sessions and recent activity), never one on 4222.
  const p = createPortal({
    ...loadPortalConfig({ ...env, PORTAL_PORT: '0', TOOLSURFACE_RESOLVER: resolver, NATS_URL: nats.url }),
    webDist: dir,
  });
  await p.start();
  portals.push(p);
  return p;
}

const signIn = (p: Portal) => portalRequest(p, 'POST', '/api/session', { body: { token: ADMIN } });

/** Signs in and lists the principals: the ids, or the refusal. */
async function listPrincipals(p: Portal): Promise<{ status: number; ids?: string[]; error?: string }> {
  const s = await signIn(p);
  if (s.status !== 200) return { status: s.status, error: (JSON.parse(s.text) as { error: string }).error };
  const cookie = s.setCookie.map((c) => c.split(';')[0]).join('; ');
  const r = await portalRequest(p, 'GET', '/api/principals', { cookie });
  const j = JSON.parse(r.text) as { principals?: Array<{ id: string }>; error?: string };
  return { status: r.status, ids: j.principals?.map((x) => x.id), error: j.error };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-tls-'));
  certs = writeTestCertificates(join(dir, 'certs'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(
    join(dir, 'config.yaml'),
    `capabilities: {}
orchestrators:
  - { id: ops, token_sha256: "${tokenDigest(ADMIN)}", principals: ["*"], admin: true }
principals:
  - { kind: agent, id: tls-agent, mode: unified, capabilities: [] }
  - { kind: agent, id: cas-agent, mode: unified, capabilities: [] }
  - { kind: agent, id: race-agent, mode: unified, capabilities: [] }
`,
  );
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });
  const server = { GRPC_TLS_CERT_FILE: certs.certFile, GRPC_TLS_KEY_FILE: certs.keyFile };
  [tlsAddr, mtlsAddr] = await Promise.all([
    startResolver('tls', server),
    startResolver('mtls', { ...server, GRPC_TLS_CLIENT_CA_FILE: certs.caFile }),
  ]);
}, 180_000);

afterAll(async () => {
  for (const p of portals) await p.stop();
  for (const c of [...resolvers, ...children]) c.kill('SIGTERM');
  await Promise.all([...resolvers, ...children].map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the portal towards surface-resolver over TLS', { timeout: 60_000 }, () => {
  it('lists the principals over TLS, verifying surface-resolver against GRPC_TLS_CA_FILE', async () => {
    expect(await listPrincipals(await portal(tlsAddr, { GRPC_TLS_CA_FILE: certs.caFile }))).toEqual({
      status: 200,
      ids: ['cas-agent', 'race-agent', 'tls-agent'],
      error: undefined,
    });
  });

  it('refuses a surface-resolver whose certificate another CA signed, saying so', async () => {
    const r = await listPrincipals(await portal(tlsAddr, { GRPC_TLS_CA_FILE: certs.rogueCaFile }));
    expect(r.status).toBe(502);
    expect(r.error).toMatch(/surface-resolver at 127\.0\.0\.1:\d+ .*certificate.*GRPC_TLS_CA_FILE/);
  });

  it('lists the principals over mutual TLS, presenting GRPC_TLS_CERT_FILE', async () => {
    const env = { GRPC_TLS_CA_FILE: certs.caFile, GRPC_TLS_CERT_FILE: certs.otherCertFile, GRPC_TLS_KEY_FILE: certs.otherKeyFile };
    expect((await listPrincipals(await portal(mtlsAddr, env))).ids).toEqual(['cas-agent', 'race-agent', 'tls-agent']);
  });

  it('is refused by a mutual-TLS surface-resolver without a client certificate, with one another CA signed, and in plaintext, saying so', async () => {
    const noCert = await listPrincipals(await portal(mtlsAddr, { GRPC_TLS_CA_FILE: certs.caFile }));
    expect(noCert.status).toBe(502);
    expect(noCert.error).toMatch(/requires a client certificate .*set GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE/);
    const rogue = { GRPC_TLS_CA_FILE: certs.caFile, GRPC_TLS_CERT_FILE: certs.rogueCertFile, GRPC_TLS_KEY_FILE: certs.rogueKeyFile };
    const refused = await listPrincipals(await portal(mtlsAddr, rogue));
    expect(refused.status).toBe(502);
    expect(refused.error).toMatch(/cannot be reached .*client CA must have signed GRPC_TLS_CERT_FILE \(.*rogue\.pem\)/);
    const plain = await listPrincipals(await portal(mtlsAddr, {}));
    expect(plain.status).toBe(502);
    expect(plain.error).toMatch(/cannot be reached .*set GRPC_TLS_CA_FILE/);
  });
});

const CLIENT_TLS = () => ({ caFile: certs.caFile, certFile: certs.certFile, keyFile: certs.keyFile });

/** The portal's main as a process on a free port, calling surface-resolver at `resolver` with a client certificate. */
async function portalProcess(resolver: string): Promise<Pick<Portal, 'port' | 'url'>> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'apps', 'portal', 'src', 'main.ts')], {
    env: {
      ...process.env,
      PORTAL_PORT: String(port),
      PORTAL_WEB_DIST: dir,
      TOOLSURFACE_RESOLVER: resolver,
      NATS_URL: nats.url,
      GRPC_TLS_CA_FILE: certs.caFile,
      GRPC_TLS_CERT_FILE: certs.certFile,
      GRPC_TLS_KEY_FILE: certs.keyFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (const deadline = Date.now() + 120_000; !out.includes('Toolsurface portal:');) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`portal process did not start: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port: () => port, url: () => `http://127.0.0.1:${port}` };
}

/** Signs in on `p`: the cookie and CSRF token a save needs. */
async function session(p: Pick<Portal, 'port' | 'url'>): Promise<{ cookie: string; csrf: string }> {
  const s = await portalRequest(p, 'POST', '/api/session', { body: { token: ADMIN } });
  expect(s.status, s.text).toBe(200);
  return { cookie: s.setCookie.map((c) => c.split(';')[0]).join('; '), csrf: (JSON.parse(s.text) as { csrf: string }).csrf };
}

describe('SetPresentation with an expected mode (compare-and-set)', { timeout: 120_000 }, () => {
  it('refuses an expectation that no longer holds with FAILED_PRECONDITION and ErrorInfo PRESENTATION_CHANGED, changing nothing, from the client and the CLI', async () => {
    const c = new GatewayClient({ resolver: tlsAddr, dispatch: tlsAddr }, { controlMs: 30_000 }, ADMIN, CLIENT_TLS());
    try {
      const p = { kind: 'agent' as const, id: 'cas-agent' };
      expect(modeFromProto((await c.setPresentation(p, 'discovery', undefined, { mode: 'unified' })).mode)).toBe('discovery');
      const e = await c.setPresentation(p, 'direct', undefined, { mode: 'unified' }).catch((err: unknown) => err);
      expect(isAppError(e, ReasonCode.PRESENTATION_CHANGED), String(e)).toBe(true);
      const cause = (e as Error).cause as ServiceError;
      expect(cause.code).toBe(status.FAILED_PRECONDITION);
      expect(errorInfoOf(cause.metadata)).toMatchObject({ reason: 'PRESENTATION_CHANGED', domain: 'toolsurface' });
      expect(modeFromProto((await c.getPresentation(p)).mode)).toBe('discovery');
      // The CLI carries the expectation too (mode set --expect-mode), over mutual TLS.
      const cli = (...args: string[]) =>
        new Promise<{ code: number | null; err: string }>((resolve) => {
          const tls = ['--tls-ca', certs.caFile, '--tls-cert', certs.certFile, '--tls-key', certs.keyFile];
          const child = spawn(process.execPath, [CLI, '--resolver', mtlsAddr, '--token', ADMIN, ...tls, ...args], { cwd: REPO_ROOT });
          let err = '';
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code) => resolve({ code, err }));
        });
      const stale = await cli('mode', 'set', 'agent:cas-agent', 'direct', '--expect-mode', 'unified');
      expect(stale).toMatchObject({ code: 1, err: expect.stringContaining('PRESENTATION_CHANGED') as unknown });
      expect((await cli('mode', 'set', 'agent:cas-agent', 'unified', '--expect-mode', 'discovery')).code).toBe(0);
      expect(modeFromProto((await c.getPresentation(p)).mode)).toBe('unified');
      // An expectation that is no mode at all is a bad request naming the field.
      const raw = new PresentationServiceClient(tlsAddr, channelCredentials(CLIENT_TLS()));
      const md = new Metadata();
      md.set('authorization', `Bearer ${ADMIN}`);
      const bad = await new Promise<ServiceError | null>((resolve) =>
        raw.setPresentation(
          SetPresentationRequest.fromPartial({ principal: { kind: 1, id: 'cas-agent' }, mode: 1, expectedMode: 9 as PresentationMode }),
          md,
          { deadline: Date.now() + 30_000 },
          (err) => resolve(err),
        ),
      );
      raw.close();
      expect(bad?.code).toBe(status.INVALID_ARGUMENT);
      expect(bad?.details).toContain('expected_mode: unknown presentation mode 9');
      // Without an expectation the write is unconditional, as before.
      expect(modeFromProto((await c.setPresentation(p, 'direct')).mode)).toBe('direct');
    } finally {
      c.close();
    }
  });

  it('of two saves with one expectation through two surface-resolver replicas at once, lets exactly one win, each time', async () => {
    const a = new GatewayClient({ resolver: tlsAddr, dispatch: tlsAddr }, { controlMs: 30_000 }, ADMIN, CLIENT_TLS());
    const b = new GatewayClient({ resolver: mtlsAddr, dispatch: mtlsAddr }, { controlMs: 30_000 }, ADMIN, CLIENT_TLS());
    const p = { kind: 'agent' as const, id: 'race-agent' };
    try {
      for (let round = 0; round < 20; round++) {
        const from = round % 2 === 0 ? 'unified' : 'direct';
        const results = await Promise.allSettled([
          a.setPresentation(p, 'discovery', undefined, { mode: from }),
          b.setPresentation(p, round % 2 === 0 ? 'direct' : 'unified', undefined, { mode: from }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won, `round ${round}: ${results.map((r) => r.status).join(', ')}`).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected')!;
        expect(isAppError(lost.reason, ReasonCode.PRESENTATION_CHANGED), String(lost.reason)).toBe(true);
        // Back to the start of the next round, unconditionally.
        await a.setPresentation(p, round % 2 === 0 ? 'direct' : 'unified');
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('of two saves of one form through two portal processes at once, saves one and answers 409 to the other', async () => {
    const [one, two] = await Promise.all([portalProcess(tlsAddr), portalProcess(mtlsAddr)]);
    const [s1, s2] = await Promise.all([session(one), session(two)]);
    const path = '/api/principals/agent/tls-agent/presentation';
    for (let round = 0; round < 4; round++) {
      const from = round % 2 === 0 ? 'unified' : 'direct';
      const [m1, m2] = round % 2 === 0 ? ['discovery', 'direct'] : ['discovery', 'unified'];
      const answers = await Promise.all([
        portalRequest(one, 'PUT', path, { ...s1, body: { mode: m1, expectedMode: from } }),
        portalRequest(two, 'PUT', path, { ...s2, body: { mode: m2, expectedMode: from } }),
      ]);
      expect(answers.map((r) => r.status).sort(), `round ${round}: ${answers.map((r) => r.text).join(' | ')}`).toEqual([200, 409]);
      const winner = answers[0]!.status === 200 ? m1 : m2;
      const now = await portalRequest(one, 'GET', '/api/principals/agent/tls-agent', { cookie: s1.cookie });
      expect((JSON.parse(now.text) as { configuredMode: string }).configuredMode).toBe(winner);
      // Back to the start of the next round (the form reloaded with what won).
      const next = round % 2 === 0 ? 'direct' : 'unified';
      const reset = await portalRequest(one, 'PUT', path, { ...s1, body: { mode: next, expectedMode: winner } });
      expect(reset.status, reset.text).toBe(200);
    }
  });
});
