import { readFileSync } from 'node:fs';
import type { PeerCertificate } from 'node:tls';
import { credentials, ServerCredentials, type ChannelCredentials } from '@grpc/grpc-js';

/**
 * TLS for the gRPC APIs, by file path (PEM). All optional: with none set, servers and clients speak
 * plaintext (the default for a local stack on 127.0.0.1).
 *
 * - `certFile` + `keyFile`: this process's certificate and key. A server serves TLS with them; a
 *   client presents them as its client certificate when it calls a server that asks for one.
 * - `clientCaFile`: servers require a client certificate signed by this CA (mutual TLS). Needs
 *   `certFile` and `keyFile`.
 * - `caFile`: clients call over TLS and verify the server against this CA bundle.
 */
export interface TlsFiles {
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  clientCaFile?: string;
  /**
   * With mutual TLS, the client identities a server answers (a DNS name of the certificate's
   * subjectAltName, or its subject CN); any other certificate the client CA signed is refused with
   * UNAUTHENTICATED. Set on discovery and unified-mapper to dispatch's identity.
   */
  allowedPeers?: string[];
}

/** The environment variables of each TlsFiles field, as services and the stack pass them. */
export const TLS_ENV = {
  certFile: 'GRPC_TLS_CERT_FILE',
  keyFile: 'GRPC_TLS_KEY_FILE',
  caFile: 'GRPC_TLS_CA_FILE',
  clientCaFile: 'GRPC_TLS_CLIENT_CA_FILE',
} as const satisfies Record<Exclude<keyof TlsFiles, 'allowedPeers'>, string>;

/** Comma-separated client identities a mutual-TLS server answers (TlsFiles.allowedPeers). */
export const TLS_ALLOWED_PEERS_ENV = 'GRPC_TLS_ALLOWED_PEERS';

type FileField = keyof typeof TLS_ENV;

/** Reads the TLS variables; throws an Error naming the variable when a pair is incomplete or a file cannot be read. */
export function envTls(env: NodeJS.ProcessEnv): TlsFiles {
  const tls: TlsFiles = {};
  for (const [field, name] of Object.entries(TLS_ENV) as Array<[FileField, string]>) {
    const v = env[name];
    if (v) tls[field] = v;
  }
  const peers = (env[TLS_ALLOWED_PEERS_ENV] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (peers.length > 0) tls.allowedPeers = peers;
  checkTls(tls);
  return tls;
}

/** The TlsFiles as environment variables (for child processes). */
export function tlsEnv(tls: TlsFiles | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, name] of Object.entries(TLS_ENV) as Array<[FileField, string]>) {
    const v = tls?.[field];
    if (v) out[name] = v;
  }
  if (tls?.allowedPeers?.length) out[TLS_ALLOWED_PEERS_ENV] = tls.allowedPeers.join(',');
  return out;
}

function checkTls(tls: TlsFiles): void {
  if (Boolean(tls.certFile) !== Boolean(tls.keyFile)) {
    throw new Error(`${TLS_ENV.certFile} and ${TLS_ENV.keyFile} must be set together`);
  }
  if (tls.clientCaFile && !tls.certFile) {
    throw new Error(`${TLS_ENV.clientCaFile} (mutual TLS) needs ${TLS_ENV.certFile} and ${TLS_ENV.keyFile}`);
  }
  if (tls.allowedPeers?.length && !tls.clientCaFile) {
    throw new Error(`${TLS_ALLOWED_PEERS_ENV} needs mutual TLS (${TLS_ENV.clientCaFile})`);
  }
  for (const [field, name] of Object.entries(TLS_ENV) as Array<[FileField, string]>) {
    const path = tls[field];
    if (path) read(path, name);
  }
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`${what}: cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** Whether a server with these files serves TLS. */
export function servesTls(tls: TlsFiles | undefined): boolean {
  return Boolean(tls?.certFile && tls.keyFile);
}

/** Server credentials: TLS when a certificate is set, mutual TLS when a client CA is also set, else plaintext. */
export function serverCredentials(tls: TlsFiles | undefined): ServerCredentials {
  if (!tls || !servesTls(tls)) return ServerCredentials.createInsecure();
  checkTls(tls);
  const pair = { cert_chain: read(tls.certFile!, TLS_ENV.certFile), private_key: read(tls.keyFile!, TLS_ENV.keyFile) };
  const clientCa = tls.clientCaFile ? read(tls.clientCaFile, TLS_ENV.clientCaFile) : null;
  // The third argument makes grpc-js refuse a handshake without a client certificate signed by clientCa.
  return ServerCredentials.createSsl(clientCa, [pair], clientCa !== null);
}

/**
 * Channel credentials for calling another service: TLS verified against `caFile` (presenting this
 * process's certificate when one is set) when `caFile` is set, else plaintext.
 */
export function channelCredentials(tls: TlsFiles | undefined): ChannelCredentials {
  if (!tls?.caFile) return credentials.createInsecure();
  checkTls(tls);
  const ca = read(tls.caFile, TLS_ENV.caFile);
  if (tls.certFile && tls.keyFile) return credentials.createSsl(ca, read(tls.keyFile, TLS_ENV.keyFile), read(tls.certFile, TLS_ENV.certFile));
  return credentials.createSsl(ca);
}

/** The identities of a client certificate: the DNS names of its subjectAltName and its subject CN. */
export function peerIdentities(cert: PeerCertificate | undefined): string[] {
  if (!cert || !cert.subject) return [];
  const out = (cert.subjectaltname ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4));
  const cn = cert.subject.CN;
  if (typeof cn === 'string' && cn) out.push(cn);
  return out;
}
