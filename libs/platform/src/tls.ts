import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type PeerCertificate } from 'node:tls';
import { credentials, experimental, ServerCredentials, type ChannelCredentials } from '@grpc/grpc-js';

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
  /**
   * How often, in milliseconds, the files are read again so that a renewed certificate, key or CA
   * bundle (cert-manager renewing the Secret a Pod mounts) is used without a restart. 0 reads them
   * once at start. Default DEFAULT_TLS_RELOAD_INTERVAL_MS.
   */
  reloadIntervalMs?: number;
}

/**
 * Default of TlsFiles.reloadIntervalMs: 60 s. The kubelet refreshes a mounted Secret about once a
 * minute, and cert-manager renews at two thirds of a certificate's life, so a minute is far inside
 * the time a renewed certificate has before the old one expires.
 */
export const DEFAULT_TLS_RELOAD_INTERVAL_MS = 60_000;

/** Milliseconds between reads of the TLS files (TlsFiles.reloadIntervalMs); 0 switches reloading off. */
export const TLS_RELOAD_ENV = 'GRPC_TLS_RELOAD_INTERVAL_MS';

/** The environment variables of each TlsFiles field, as services and the stack pass them. */
export const TLS_ENV = {
  certFile: 'GRPC_TLS_CERT_FILE',
  keyFile: 'GRPC_TLS_KEY_FILE',
  caFile: 'GRPC_TLS_CA_FILE',
  clientCaFile: 'GRPC_TLS_CLIENT_CA_FILE',
} as const satisfies Record<Exclude<keyof TlsFiles, 'allowedPeers' | 'reloadIntervalMs'>, string>;

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
  const peers = (env[TLS_ALLOWED_PEERS_ENV] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (peers.length > 0) tls.allowedPeers = peers;
  const reload = env[TLS_RELOAD_ENV];
  if (reload !== undefined && reload !== '') {
    const ms = Number(reload);
    if (!Number.isInteger(ms) || ms < 0 || ms > 86_400_000)
      throw new Error(
        `${TLS_RELOAD_ENV} must be an integer number of milliseconds from 0 to 86400000, got ${JSON.stringify(reload.slice(0, 32))}`,
      );
    tls.reloadIntervalMs = ms;
  }
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
  if (tls?.reloadIntervalMs !== undefined) out[TLS_RELOAD_ENV] = String(tls.reloadIntervalMs);
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
  const interval = tls.reloadIntervalMs ?? DEFAULT_TLS_RELOAD_INTERVAL_MS;
  if (interval === 0) {
    const pair = { cert_chain: read(tls.certFile!, TLS_ENV.certFile), private_key: read(tls.keyFile!, TLS_ENV.keyFile) };
    const clientCa = tls.clientCaFile ? read(tls.clientCaFile, TLS_ENV.clientCaFile) : null;
    // The third argument makes grpc-js refuse a handshake without a client certificate signed by clientCa.
    return ServerCredentials.createSsl(clientCa, [pair], clientCa !== null);
  }
  const files = watchedCertificates({ certFile: tls.certFile, keyFile: tls.keyFile, caFile: tls.clientCaFile }, interval);
  // grpc-js 1.14 declares (caProvider, identityProvider, requireClientCert) but its constructor
  // takes (identityProvider, caProvider, ...): the identity goes first. With mutual TLS both are
  // the same provider; test/tls.int.test.ts pins the TLS-only case, which the order decides.
  return experimental.createCertificateProviderServerCredentials(files, tls.clientCaFile ? files : null, Boolean(tls.clientCaFile));
}

/**
 * Channel credentials for calling another service: TLS verified against `caFile` (presenting this
 * process's certificate when one is set) when `caFile` is set, else plaintext. Each new connection
 * uses the files as last read (TlsFiles.reloadIntervalMs).
 */
export function channelCredentials(tls: TlsFiles | undefined): ChannelCredentials {
  if (!tls?.caFile) return credentials.createInsecure();
  checkTls(tls);
  const interval = tls.reloadIntervalMs ?? DEFAULT_TLS_RELOAD_INTERVAL_MS;
  if (interval === 0) {
    const ca = read(tls.caFile, TLS_ENV.caFile);
    if (tls.certFile && tls.keyFile)
      return credentials.createSsl(ca, read(tls.keyFile, TLS_ENV.keyFile), read(tls.certFile, TLS_ENV.certFile));
    return credentials.createSsl(ca);
  }
  const files = watchedCertificates({ certFile: tls.certFile, keyFile: tls.keyFile, caFile: tls.caFile }, interval);
  return experimental.createCertificateProviderChannelCredentials(files, tls.certFile ? files : null);
}

/** What happened when a watched TLS file set was read again (see onTlsReload). */
export interface TlsReloadEvent {
  /** `reloaded`: the new files are in use; `rejected`: they were not (the last good ones stay). */
  outcome: 'reloaded' | 'rejected';
  files: { certFile?: string; keyFile?: string; caFile?: string };
  /** Why the files were rejected: unreadable, or a key that does not match its certificate, or not PEM. */
  error?: string;
}

const reloadListeners = new Set<(e: TlsReloadEvent) => void>();

/**
 * Calls `listener` each time a watched TLS file set changes on disk: services log it. Returns a
 * function that removes the listener.
 */
export function onTlsReload(listener: (e: TlsReloadEvent) => void): () => void {
  reloadListeners.add(listener);
  return () => reloadListeners.delete(listener);
}

type Pem = { cert?: Buffer; key?: Buffer; ca?: Buffer };
type CaListener = Parameters<experimental.CertificateProvider['addCaCertificateListener']>[0];
type IdentityListener = Parameters<experimental.CertificateProvider['addIdentityCertificateListener']>[0];

/**
 * The certificate, key and CA bundle of one file set, read again every `intervalMs` while a server
 * or channel uses them (a grpc-js CertificateProvider). grpc-js' own FileWatcherCertificateProvider
 * hands any bytes it reads to the server, and a server given a key that does not match its
 * certificate (a Secret caught half-written) drops every connection until the next good read.
 * This one checks new files with node:tls first and keeps the last good set when they fail, and
 * tells onTlsReload listeners either way. Its timer does not keep the process alive.
 */
class WatchedCertificates implements experimental.CertificateProvider {
  private current: Pem;
  private readonly caListeners = new Set<CaListener>();
  private readonly identityListeners = new Set<IdentityListener>();
  private timer: NodeJS.Timeout | undefined;
  /** The bytes of the last rejected set, so a file left broken is reported once, not every interval. */
  private lastRejected = '';
  /** Date.now() of the last read of the files. */
  private lastRead = Date.now();

  constructor(
    private readonly files: { certFile?: string; keyFile?: string; caFile?: string },
    private readonly intervalMs: number,
  ) {
    // Read now (checkTls has named the variable of any file that cannot be read), so files that
    // do not make a TLS context fail the start rather than the first handshake.
    this.current = {
      cert: files.certFile ? read(files.certFile, TLS_ENV.certFile) : undefined,
      key: files.keyFile ? read(files.keyFile, TLS_ENV.keyFile) : undefined,
      ca: files.caFile ? read(files.caFile, 'CA file') : undefined,
    };
    const bad = WatchedCertificates.check(this.current);
    if (bad) throw new Error(`TLS files ${JSON.stringify(files)}: ${bad}`);
  }

  /**
   * Why these PEM bytes cannot make a TLS context (undefined when they can). node:tls takes a CA
   * bundle with no certificate in it (empty, or garbage) without a word, so every certificate
   * file must hold at least one certificate that parses.
   */
  private static check(pem: Pem): string | undefined {
    for (const [what, bytes] of [
      ['certificate', pem.cert],
      ['CA bundle', pem.ca],
    ] as const) {
      if (bytes === undefined) continue;
      const text = bytes.toString('utf8');
      // (node:tls drops a certificate cut off at the end of a bundle without a word: a file caught
      // half-written; so once every whole PEM block is taken out, no PEM marker may be left)
      if (text.replace(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g, '').includes('-----'))
        return `the ${what} file holds a cut-off or malformed PEM block`;
      const trusted = text.match(/-----BEGIN TRUSTED CERTIFICATE-----/g)?.length ?? 0;
      const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
      if (blocks.length + trusted === 0) return `the ${what} file holds no PEM certificate`;
      for (const b of blocks) {
        try {
          new X509Certificate(b);
        } catch (e) {
          return `the ${what} file holds a certificate that does not parse: ${(e as Error).message}`;
        }
      }
    }
    try {
      createSecureContext({ cert: pem.cert, key: pem.key, ca: pem.ca });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /**
   * Reads the files again (three small files, once an interval, so at once rather than through
   * the event loop's file pool) and considers them.
   */
  private reread(): void {
    try {
      const [cert, key, ca] = [this.files.certFile, this.files.keyFile, this.files.caFile].map((f) => (f ? readFileSync(f) : undefined));
      this.consider({ cert, key, ca });
    } catch (e) {
      this.reject((e as Error).message, (e as Error).message);
    }
  }

  /** Takes `next` when it differs from the files in use and makes a TLS context; else reports it. */
  private consider(next: Pem): void {
    this.lastRead = Date.now();
    const same = (a?: Buffer, b?: Buffer): boolean => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
    if (same(next.cert, this.current.cert) && same(next.key, this.current.key) && same(next.ca, this.current.ca)) {
      // (back to the files in use: a later bad change is news again)
      this.lastRejected = '';
      return;
    }
    const bad = WatchedCertificates.check(next);
    if (bad) {
      this.reject(bad, [next.cert, next.key, next.ca].map((b) => b?.toString('base64') ?? '').join('|'));
      return;
    }
    this.current = next;
    this.lastRejected = '';
    this.emit();
    for (const l of reloadListeners) l({ outcome: 'reloaded', files: this.files });
  }

  private reject(error: string, fingerprint: string): void {
    if (fingerprint === this.lastRejected) return;
    this.lastRejected = fingerprint;
    for (const l of reloadListeners) l({ outcome: 'rejected', files: this.files, error });
  }

  private identity(): { certificate: Buffer; privateKey: Buffer } | null {
    return this.current.cert && this.current.key ? { certificate: this.current.cert, privateKey: this.current.key } : null;
  }

  private caBundle(): { caCertificate: Buffer } | null {
    return this.current.ca ? { caCertificate: this.current.ca } : null;
  }

  private emit(): void {
    for (const l of this.identityListeners) l(this.identity());
    for (const l of this.caListeners) l(this.caBundle());
  }

  private watch(): void {
    if (this.timer || this.intervalMs <= 0) return;
    if (Date.now() - this.lastRead >= this.intervalMs) this.reread();
    this.timer = setInterval(() => this.reread(), this.intervalMs);
    this.timer.unref();
  }

  private unwatch(): void {
    if (this.caListeners.size + this.identityListeners.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  // grpc-js registers its listener while it sets a server up and only then the watcher that
  // applies updates: the first update must come on a later tick, as grpc-js' own provider does.
  addCaCertificateListener(listener: CaListener): void {
    this.caListeners.add(listener);
    this.watch();
    process.nextTick(() => this.caListeners.has(listener) && listener(this.caBundle()));
  }

  removeCaCertificateListener(listener: CaListener): void {
    this.caListeners.delete(listener);
    this.unwatch();
  }

  addIdentityCertificateListener(listener: IdentityListener): void {
    this.identityListeners.add(listener);
    this.watch();
    process.nextTick(() => this.identityListeners.has(listener) && listener(this.identity()));
  }

  removeIdentityCertificateListener(listener: IdentityListener): void {
    this.identityListeners.delete(listener);
    this.unwatch();
  }
}

const watched = new Map<string, WatchedCertificates>();

/** One WatchedCertificates per file set and interval in a process, shared by its servers and channels. */
function watchedCertificates(files: { certFile?: string; keyFile?: string; caFile?: string }, intervalMs: number): WatchedCertificates {
  const key = JSON.stringify([files.certFile ?? '', files.keyFile ?? '', files.caFile ?? '', intervalMs]);
  let w = watched.get(key);
  if (!w) {
    w = new WatchedCertificates(files, intervalMs);
    watched.set(key, w);
  }
  return w;
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

/**
 * Logs every reload of the TLS files (info) and every rejected set (error, with the reason) on
 * `logger`; returns the function that stops it. Each service calls it at start.
 */
export function logTlsReloads(logger: { info(o: object, msg: string): void; error(o: object, msg: string): void }): () => void {
  return onTlsReload((e) => {
    if (e.outcome === 'reloaded') logger.info({ files: e.files }, 'TLS files reloaded: new connections use them');
    else logger.error({ files: e.files, err: e.error }, 'TLS files changed but cannot be used; the last good ones stay in use');
  });
}
