import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '@toolsurface/core';
import { ensureNats, findFreePort, writeTestCertificates, type NatsHandle, type TestCertificates } from '@toolsurface/devkit';
import { createPortal, loadPortalConfig, type Portal } from '@toolsurface/portal';
import { serviceEntry } from '@toolsurface/stack';
import { portalRequest } from './support';

// The portal's calls to a real surface-resolver (a process, as deployed) over TLS and mutual TLS,
// configured by the same GRPC_TLS_* variables the services read, with a throwaway CA (openssl).

const ADMIN = 'portal-tls-admin-token-0123456789';
let dir: string;
let certs: TestCertificates;
let nats: NatsHandle;
const resolvers: ChildProcess[] = [];
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
  const p = createPortal({ ...loadPortalConfig({ ...env, PORTAL_PORT: '0', TOOLSURFACE_RESOLVER: resolver }), webDist: dir });
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
  for (const c of resolvers) c.kill('SIGTERM');
  await Promise.all(resolvers.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the portal towards surface-resolver over TLS', { timeout: 60_000 }, () => {
  it('lists the principals over TLS, verifying surface-resolver against GRPC_TLS_CA_FILE', async () => {
    expect(await listPrincipals(await portal(tlsAddr, { GRPC_TLS_CA_FILE: certs.caFile }))).toEqual({
      status: 200,
      ids: ['tls-agent'],
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
    expect((await listPrincipals(await portal(mtlsAddr, env))).ids).toEqual(['tls-agent']);
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
