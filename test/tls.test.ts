import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, makeGenericClientConstructor, status, type ChannelCredentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelCredentials, envTls, startGrpcServer, type GrpcServerHandle } from '@toolsurface/platform';
import { rawUnaryMethod } from './support/clients';
import { writeTestCertificates, type TestCertificates } from './support/certs';

// TLS and mutual TLS of every gRPC API (issue 5, item 1), on real grpc-js servers and clients.

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
  const client = new HealthClient(`127.0.0.1:${port}`, creds) as unknown as Client & { check: (req: object, opts: object, cb: (err: ServiceError | null) => void) => void };
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
  const client = new EchoClient(`127.0.0.1:${port}`, creds) as unknown as Client & { say: (req: Buffer, opts: object, cb: (err: ServiceError | null) => void) => void };
  try {
    return await new Promise((resolve) => client.say(Buffer.from('hi'), { deadline: Date.now() + 3000 }, (err) => resolve(err ? err.code : 'ok')));
  } finally {
    client.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-tls-'));
  certs = writeTestCertificates(dir);
  tlsServer = await startGrpcServer('127.0.0.1', 0, [], {}, { certFile: certs.certFile, keyFile: certs.keyFile });
  mtlsServer = await startGrpcServer('127.0.0.1', 0, [], {}, { certFile: certs.certFile, keyFile: certs.keyFile, clientCaFile: certs.caFile });
  const echo = { name: 'test.Echo', definition: ECHO, implementation: { say: (call: { request: Buffer }, cb: (e: null, r: Buffer) => void) => cb(null, call.request) } };
  peersServer = await startGrpcServer('127.0.0.1', 0, [echo], {}, { certFile: certs.certFile, keyFile: certs.keyFile, clientCaFile: certs.caFile, allowedPeers: ['service'] });
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
    expect(await check(mtlsServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.certFile, keyFile: certs.keyFile }))).toBe('ok');
  });

  it('refuses a client without a certificate, with one another CA signed, and in plaintext', async () => {
    expect(await check(mtlsServer.port, channelCredentials({ caFile: certs.caFile }))).toBe(status.UNAVAILABLE);
    expect(await check(mtlsServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.rogueCertFile, keyFile: certs.rogueKeyFile }))).toBe(status.UNAVAILABLE);
    expect(await check(mtlsServer.port, credentials.createInsecure())).toBe(status.UNAVAILABLE);
  });
});

describe('a mutual-TLS server restricted to some client identities', () => {
  it('answers a client certificate that names an allowed identity, and refuses another the same CA signed', async () => {
    expect(await say(peersServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.certFile, keyFile: certs.keyFile }))).toBe('ok');
    expect(await say(peersServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile }))).toBe(status.UNAUTHENTICATED);
    // Its health service stays open to any certificate the CA signed (probes).
    expect(await check(peersServer.port, channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile }))).toBe('ok');
  });
});

describe('GRPC_TLS_* variables', () => {
  it('reads the four files and refuses incomplete or unreadable settings, naming the variable', () => {
    expect(envTls({})).toEqual({});
    expect(envTls({ GRPC_TLS_CERT_FILE: certs.certFile, GRPC_TLS_KEY_FILE: certs.keyFile, GRPC_TLS_CLIENT_CA_FILE: certs.caFile, GRPC_TLS_CA_FILE: certs.caFile })).toEqual({
      certFile: certs.certFile,
      keyFile: certs.keyFile,
      clientCaFile: certs.caFile,
      caFile: certs.caFile,
    });
    expect(() => envTls({ GRPC_TLS_CERT_FILE: certs.certFile })).toThrow('GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE must be set together');
    expect(() => envTls({ GRPC_TLS_CLIENT_CA_FILE: certs.caFile })).toThrow('GRPC_TLS_CLIENT_CA_FILE (mutual TLS) needs GRPC_TLS_CERT_FILE');
    expect(() => envTls({ GRPC_TLS_CA_FILE: join(dir, 'missing.pem') })).toThrow(/GRPC_TLS_CA_FILE: cannot read .*missing\.pem/);
    expect(envTls({ GRPC_TLS_CERT_FILE: certs.certFile, GRPC_TLS_KEY_FILE: certs.keyFile, GRPC_TLS_CLIENT_CA_FILE: certs.caFile, GRPC_TLS_ALLOWED_PEERS: 'dispatch, dispatch.toolsurface.svc' }).allowedPeers).toEqual([
      'dispatch',
      'dispatch.toolsurface.svc',
    ]);
    expect(() => envTls({ GRPC_TLS_ALLOWED_PEERS: 'dispatch' })).toThrow('GRPC_TLS_ALLOWED_PEERS needs mutual TLS');
  });
});
