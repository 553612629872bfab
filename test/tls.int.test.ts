import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, makeGenericClientConstructor, status, type ChannelCredentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelCredentials,
  envTls,
  onTlsReload,
  startGrpcServer,
  type GrpcServerHandle,
  type TlsReloadEvent,
} from '@toolsurface/platform';
import { rawUnaryMethod } from './support/clients';
import { ca, leaf, writeTestCertificates, type TestCertificates } from '@toolsurface/devkit';

// TLS and mutual TLS of every gRPC API, on real grpc-js servers and clients.

const HealthClient = makeGenericClientConstructor(
  {
    check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      // HealthCheckRequest { service = "" } is the empty message; the response is read only for success.
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: () => ({}),
      responseSerialize: () => Buffer.alloc(0),
      responseDeserialize: (b: Buffer) => b,
    },
  },
  'Health',
);

/** Health/Check over the given credentials: 'ok' or the gRPC status code of the failure. */
async function check(port: number, creds: ChannelCredentials): Promise<'ok' | status> {
  const client = new HealthClient(`127.0.0.1:${port}`, creds) as unknown as Client & {
    check: (req: object, opts: object, cb: (err: ServiceError | null) => void) => void;
  };
  try {
    return await new Promise((resolve) => client.check({}, { deadline: Date.now() + 3000 }, (err) => resolve(err ? err.code : 'ok')));
  } finally {
    client.close();
  }
}

let dir: string;
let certs: TestCertificates;
let tlsServer: GrpcServerHandle;
let mtlsServer: GrpcServerHandle;
let peersServer: GrpcServerHandle;

// A one-method service of our own (raw bytes in and out): the health service is never restricted to peers.
const ECHO = { say: rawUnaryMethod('/test.Echo/Say') };
const EchoClient = makeGenericClientConstructor(ECHO, 'Echo');

async function say(port: number, creds: ChannelCredentials): Promise<'ok' | status> {
  const client = new EchoClient(`127.0.0.1:${port}`, creds) as unknown as Client & {
    say: (req: Buffer, opts: object, cb: (err: ServiceError | null) => void) => void;
  };
  try {
    return await new Promise((resolve) =>
      client.say(Buffer.from('hi'), { deadline: Date.now() + 3000 }, (err) => resolve(err ? err.code : 'ok')),
    );
  } finally {
    client.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-tls-'));
  certs = writeTestCertificates(dir);
  tlsServer = await startGrpcServer('127.0.0.1', 0, [], {}, { certFile: certs.certFile, keyFile: certs.keyFile });
  mtlsServer = await startGrpcServer(
    '127.0.0.1',
    0,
    [],
    {},
    { certFile: certs.certFile, keyFile: certs.keyFile, clientCaFile: certs.caFile },
  );
  const echo = {
    name: 'test.Echo',
    definition: ECHO,
    implementation: { say: (call: { request: Buffer }, cb: (e: null, r: Buffer) => void) => cb(null, call.request) },
  };
  peersServer = await startGrpcServer(
    '127.0.0.1',
    0,
    [echo],
    {},
    { certFile: certs.certFile, keyFile: certs.keyFile, clientCaFile: certs.caFile, allowedPeers: ['service'] },
  );
});

afterAll(async () => {
  await tlsServer?.stop(100);
  await mtlsServer?.stop(100);
  await peersServer?.stop(100);
  rmSync(dir, { recursive: true, force: true });
});

describe('a server with a certificate (TLS)', () => {
  it('answers a client that verifies it against the CA', async () => {
    expect(await check(tlsServer.port, channelCredentials({ caFile: certs.caFile }))).toBe('ok');
  });

  it('is unreachable in plaintext and to a client that trusts another CA', async () => {
    expect(await check(tlsServer.port, credentials.createInsecure())).toBe(status.UNAVAILABLE);
    expect(await check(tlsServer.port, channelCredentials({ caFile: certs.rogueCaFile }))).toBe(status.UNAVAILABLE);
  });
});

describe('a server with a client CA (mutual TLS)', () => {
  it('answers a client that presents a certificate the client CA signed', async () => {
    expect(
      await check(mtlsServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.certFile, keyFile: certs.keyFile })),
    ).toBe('ok');
  });

  it('refuses a client without a certificate, with one another CA signed, and in plaintext', async () => {
    expect(await check(mtlsServer.port, channelCredentials({ caFile: certs.caFile }))).toBe(status.UNAVAILABLE);
    expect(
      await check(
        mtlsServer.port,
        channelCredentials({ caFile: certs.caFile, certFile: certs.rogueCertFile, keyFile: certs.rogueKeyFile }),
      ),
    ).toBe(status.UNAVAILABLE);
    expect(await check(mtlsServer.port, credentials.createInsecure())).toBe(status.UNAVAILABLE);
  });
});

describe('a mutual-TLS server restricted to some client identities', () => {
  it('answers a client certificate that names an allowed identity, and refuses another the same CA signed', async () => {
    expect(
      await say(peersServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.certFile, keyFile: certs.keyFile })),
    ).toBe('ok');
    expect(
      await say(peersServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile })),
    ).toBe(status.UNAUTHENTICATED);
    // Its health service stays open to any certificate the CA signed (probes).
    expect(
      await check(
        peersServer.port,
        channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile }),
      ),
    ).toBe('ok');
  });
});

describe('GRPC_TLS_* variables', () => {
  it('reads the four files and refuses incomplete or unreadable settings, naming the variable', () => {
    expect(envTls({})).toEqual({});
    expect(
      envTls({
        GRPC_TLS_CERT_FILE: certs.certFile,
        GRPC_TLS_KEY_FILE: certs.keyFile,
        GRPC_TLS_CLIENT_CA_FILE: certs.caFile,
        GRPC_TLS_CA_FILE: certs.caFile,
      }),
    ).toEqual({
      certFile: certs.certFile,
      keyFile: certs.keyFile,
      clientCaFile: certs.caFile,
      caFile: certs.caFile,
    });
    expect(() => envTls({ GRPC_TLS_CERT_FILE: certs.certFile })).toThrow('GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE must be set together');
    expect(() => envTls({ GRPC_TLS_CLIENT_CA_FILE: certs.caFile })).toThrow(
      'GRPC_TLS_CLIENT_CA_FILE (mutual TLS) needs GRPC_TLS_CERT_FILE',
    );
    expect(() => envTls({ GRPC_TLS_CA_FILE: join(dir, 'missing.pem') })).toThrow(/GRPC_TLS_CA_FILE: cannot read .*missing\.pem/);
    expect(
      envTls({
        GRPC_TLS_CERT_FILE: certs.certFile,
        GRPC_TLS_KEY_FILE: certs.keyFile,
        GRPC_TLS_CLIENT_CA_FILE: certs.caFile,
        GRPC_TLS_ALLOWED_PEERS: 'dispatch, dispatch.toolsurface.svc',
      }).allowedPeers,
    ).toEqual(['dispatch', 'dispatch.toolsurface.svc']);
    expect(() => envTls({ GRPC_TLS_ALLOWED_PEERS: 'dispatch' })).toThrow('GRPC_TLS_ALLOWED_PEERS needs mutual TLS');
    expect(envTls({ GRPC_TLS_RELOAD_INTERVAL_MS: '30000' }).reloadIntervalMs).toBe(30000);
    expect(envTls({ GRPC_TLS_RELOAD_INTERVAL_MS: '0' }).reloadIntervalMs).toBe(0);
    for (const bad of ['-1', '1.5', 'soon', '86400001'])
      expect(() => envTls({ GRPC_TLS_RELOAD_INTERVAL_MS: bad })).toThrow(/GRPC_TLS_RELOAD_INTERVAL_MS must be an integer/);
  });
});

// Certificate rotation: cert-manager renews the Secret a Pod mounts and the kubelet swaps the files
// in place; servers and clients must use the new files without a restart, and must keep the last
// good ones when the files on disk do not make a TLS context.
describe('TLS files renewed on disk while servers and clients run', () => {
  const RELOAD_MS = 100;
  let rot: string;
  const events: TlsReloadEvent[] = [];
  let stopListening: () => void;
  const servers: GrpcServerHandle[] = [];

  /** Replaces `to` with the bytes of `from` in one rename, as the kubelet swaps a Secret's files. */
  function swap(from: string, to: string): void {
    writeFileSync(`${to}.new`, readFileSync(from));
    renameSync(`${to}.new`, to);
  }

  /** Polls `probe` until it returns `want` (reloads happen every RELOAD_MS); returns the last answer. */
  async function eventually<T>(probe: () => Promise<T>, want: T, ms = 5000): Promise<T> {
    const end = Date.now() + ms;
    let got = await probe();
    while (got !== want && Date.now() < end) {
      await new Promise((r) => setTimeout(r, RELOAD_MS / 2));
      got = await probe();
    }
    return got;
  }

  beforeAll(() => {
    rot = mkdtempSync(join(tmpdir(), 'toolsurface-tls-rotation-'));
    ca(rot, 'ca1');
    ca(rot, 'ca2');
    leaf(rot, 'old', 'ca1');
    leaf(rot, 'new', 'ca2');
    leaf(rot, 'service', 'ca1');
    leaf(rot, 'orchestrator', 'ca1');
    stopListening = onTlsReload((e) => events.push(e));
  });

  afterAll(async () => {
    stopListening?.();
    for (const s of servers) await s.stop(100);
    rmSync(rot, { recursive: true, force: true });
  });

  it('a server serves a renewed certificate to new connections, and keeps the old one while the new key does not match', async () => {
    const cert = join(rot, 's1.pem');
    const key = join(rot, 's1.key');
    copyFileSync(join(rot, 'old.pem'), cert);
    copyFileSync(join(rot, 'old.key'), key);
    const server = await startGrpcServer('127.0.0.1', 0, [], {}, { certFile: cert, keyFile: key, reloadIntervalMs: RELOAD_MS });
    servers.push(server);
    const trustsOld = channelCredentials({ caFile: join(rot, 'ca1.pem'), reloadIntervalMs: 0 });
    const trustsNew = channelCredentials({ caFile: join(rot, 'ca2.pem'), reloadIntervalMs: 0 });
    expect(await check(server.port, trustsOld)).toBe('ok');
    expect(await check(server.port, trustsNew)).toBe(status.UNAVAILABLE);

    // Half a renewal: the new certificate beside the old key. Rejected, reported once, old one kept.
    swap(join(rot, 'new.pem'), cert);
    await new Promise((r) => setTimeout(r, RELOAD_MS * 4));
    expect(await check(server.port, trustsOld)).toBe('ok');
    const rejected = events.filter((e) => e.outcome === 'rejected' && e.files.certFile === cert);
    expect(rejected).toHaveLength(1);
    expect(rejected[0].error).toMatch(/key/i);

    // The key arrives: the new certificate is served.
    swap(join(rot, 'new.key'), key);
    expect(await eventually(() => check(server.port, trustsNew), 'ok')).toBe('ok');
    expect(await check(server.port, trustsOld)).toBe(status.UNAVAILABLE);
    expect(events.some((e) => e.outcome === 'reloaded' && e.files.certFile === cert)).toBe(true);
  });

  it('a mutual-TLS server trusts a renewed client CA bundle', async () => {
    const clientCa = join(rot, 'client-ca.pem');
    copyFileSync(join(rot, 'ca1.pem'), clientCa);
    const server = await startGrpcServer(
      '127.0.0.1',
      0,
      [],
      {},
      { certFile: join(rot, 'service.pem'), keyFile: join(rot, 'service.key'), clientCaFile: clientCa, reloadIntervalMs: RELOAD_MS },
    );
    servers.push(server);
    const signedByNewCa = channelCredentials({
      caFile: join(rot, 'ca1.pem'),
      certFile: join(rot, 'new.pem'),
      keyFile: join(rot, 'new.key'),
      reloadIntervalMs: 0,
    });
    expect(await check(server.port, signedByNewCa)).toBe(status.UNAVAILABLE);
    const signedByOldCa = channelCredentials({
      caFile: join(rot, 'ca1.pem'),
      certFile: join(rot, 'service.pem'),
      keyFile: join(rot, 'service.key'),
      reloadIntervalMs: 0,
    });
    // A bundle that holds no certificate (node:tls would take it and then trust nobody): refused, the old one kept.
    writeFileSync(`${clientCa}.new`, 'not a certificate\n');
    renameSync(`${clientCa}.new`, clientCa);
    await new Promise((r) => setTimeout(r, RELOAD_MS * 4));
    expect(await check(server.port, signedByOldCa)).toBe('ok');
    // A bundle cut off inside its last certificate (node:tls would drop that one silently): refused too.
    const whole = readFileSync(join(rot, 'ca2.pem'), 'utf8');
    const cut = readFileSync(join(rot, 'ca1.pem'), 'utf8');
    writeFileSync(`${clientCa}.new`, whole + cut.slice(0, Math.floor(cut.length / 2)));
    renameSync(`${clientCa}.new`, clientCa);
    await new Promise((r) => setTimeout(r, RELOAD_MS * 4));
    // (and one cut inside its last END line)
    writeFileSync(`${clientCa}.new`, whole + cut.slice(0, cut.lastIndexOf('CERTIFICATE-----')));
    renameSync(`${clientCa}.new`, clientCa);
    await new Promise((r) => setTimeout(r, RELOAD_MS * 4));
    expect(await check(server.port, signedByOldCa)).toBe('ok');
    expect(events.filter((e) => e.outcome === 'rejected' && e.files.caFile === clientCa).map((e) => e.error)).toEqual([
      'the CA bundle file holds no PEM certificate',
      'the CA bundle file holds a cut-off or malformed PEM block',
      'the CA bundle file holds a cut-off or malformed PEM block',
    ]);
    // The new CA joins the bundle (both CAs, as during a CA rollover).
    writeFileSync(`${clientCa}.new`, Buffer.concat([readFileSync(join(rot, 'ca1.pem')), readFileSync(join(rot, 'ca2.pem'))]));
    renameSync(`${clientCa}.new`, clientCa);
    expect(await eventually(() => check(server.port, signedByNewCa), 'ok')).toBe('ok');
  });

  it('a client made once presents its renewed certificate on its next connection', async () => {
    const server = await startGrpcServer(
      '127.0.0.1',
      0,
      [
        {
          name: 'test.Echo',
          definition: ECHO,
          implementation: { say: (call: { request: Buffer }, cb: (e: null, r: Buffer) => void) => cb(null, call.request) },
        },
      ],
      {},
      {
        certFile: join(rot, 'service.pem'),
        keyFile: join(rot, 'service.key'),
        clientCaFile: join(rot, 'ca1.pem'),
        allowedPeers: ['service'],
      },
    );
    servers.push(server);
    const cert = join(rot, 'c1.pem');
    const key = join(rot, 'c1.key');
    copyFileSync(join(rot, 'orchestrator.pem'), cert);
    copyFileSync(join(rot, 'orchestrator.key'), key);
    // One credentials object for the process's life, as dispatch keeps for discovery and unified-mapper.
    const creds = channelCredentials({ caFile: join(rot, 'ca1.pem'), certFile: cert, keyFile: key, reloadIntervalMs: RELOAD_MS });
    expect(await say(server.port, creds)).toBe(status.UNAUTHENTICATED);
    swap(join(rot, 'service.key'), key);
    swap(join(rot, 'service.pem'), cert);
    expect(await eventually(() => say(server.port, creds), 'ok')).toBe('ok');
  });
});
