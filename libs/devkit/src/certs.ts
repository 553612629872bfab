import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** PEM files of a throwaway PKI for TLS tests. */
export interface TestCertificates {
  /** The CA that signs `cert`. */
  caFile: string;
  /** Certificate for 127.0.0.1, localhost and the name "service", usable by servers and as a client certificate. */
  certFile: string;
  keyFile: string;
  /** Another client certificate the same CA signed, for the name "orchestrator". */
  otherCertFile: string;
  otherKeyFile: string;
  /** A second CA, and a client certificate it signed: trusted by nobody. */
  rogueCaFile: string;
  rogueCertFile: string;
  rogueKeyFile: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Writes a self-signed CA `<name>.pem` / `<name>.key` into `dir`. */
export function ca(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
  ]);
}

/** Writes `<name>.pem` / `<name>.key` into `dir`: a certificate for 127.0.0.1, localhost and `name`, for server and client use, signed by the CA `caName`. */
export function leaf(dir: string, name: string, caName: string): void {
  writeFileSync(
    join(dir, `${name}.ext`),
    `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${name}\nextendedKeyUsage=serverAuth,clientAuth\nbasicConstraints=CA:FALSE\n`,
  );
  openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${caName}.pem`,
    '-CAkey',
    `${caName}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}

/** Writes a CA, a certificate it signed for 127.0.0.1, and a rogue CA with its own client certificate, into `dir` (openssl must be on PATH). */
export function writeTestCertificates(dir: string): TestCertificates {
  mkdirSync(dir, { recursive: true });
  ca(dir, 'ca');
  leaf(dir, 'service', 'ca');
  leaf(dir, 'orchestrator', 'ca');
  ca(dir, 'rogue-ca');
  leaf(dir, 'rogue', 'rogue-ca');
  return {
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'service.pem'),
    keyFile: join(dir, 'service.key'),
    otherCertFile: join(dir, 'orchestrator.pem'),
    otherKeyFile: join(dir, 'orchestrator.key'),
    rogueCaFile: join(dir, 'rogue-ca.pem'),
    rogueCertFile: join(dir, 'rogue.pem'),
    rogueKeyFile: join(dir, 'rogue.key'),
  };
}
