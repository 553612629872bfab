import { channelCredentials, TLS_ENV } from '@toolsurface/platform';
import { UsageError } from './principal';

/** TLS towards the gateway: a CA bundle to verify it, and a client certificate and key for mutual TLS. */
export interface ClientTls {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/**
 * The client side of TLS towards the gateway from the CLI's flags or its TOOLSURFACE_TLS_CA /
 * _CERT / _KEY variables (the demo reads the same ones): a CA to verify the gateway, and a
 * client certificate and key for mutual TLS.
 * @throws UsageError when a certificate or key comes without the CA, or one without the other
 */
export function clientTls(caFile?: string, certFile?: string, keyFile?: string): ClientTls {
  if (!caFile) throw new UsageError("--tls-cert and --tls-key need --tls-ca (the CA that signed the gateway's certificate)");
  if (Boolean(certFile) !== Boolean(keyFile)) throw new UsageError('--tls-cert and --tls-key go together');
  return { caFile, ...(certFile ? { certFile, keyFile } : {}) };
}

/**
 * Reads the TLS files of `clientTls` as the client will, so that one that cannot be read (or holds
 * no certificate) is a usage error naming where it was given (`names`: the CLI's flags by default;
 * the demo passes its TOOLSURFACE_TLS_* variables) rather than a crash at connection time.
 * @throws UsageError with the file's problem
 */
export function checkClientTls(tls: ClientTls, names = { caFile: '--tls-ca', certFile: '--tls-cert', keyFile: '--tls-key' }): void {
  try {
    channelCredentials(tls);
  } catch (e) {
    const given: Record<string, string> = {
      [TLS_ENV.caFile]: names.caFile,
      [TLS_ENV.certFile]: names.certFile,
      [TLS_ENV.keyFile]: names.keyFile,
    };
    // (a file read but refused is named by the set it came in: "TLS files {…}: the CA bundle file holds no PEM certificate")
    const files = (['caFile', 'certFile', 'keyFile'] as const)
      .filter((k) => tls[k])
      .map((k) => `${names[k]} ${tls[k]}`)
      .join(', ');
    throw new UsageError(
      (e as Error).message.replace(/^TLS files \{.*?\}: /, `TLS files (${files}): `).replace(/GRPC_TLS_[A-Z_]+/g, (v) => given[v] ?? v),
    );
  }
}
