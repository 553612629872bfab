import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPortalConfig } from './config';

describe('loadPortalConfig', () => {
  it('defaults to loopback, port 3200 and the local resolver, with no MCP URL', () => {
    expect(loadPortalConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 3200,
      resolver: '127.0.0.1:50051',
      mcpPublicUrl: '',
      allowedHosts: [],
    });
  });

  it('takes the MCP URL from MCP_PUBLIC_URL, else MCP_PORT', () => {
    expect(loadPortalConfig({ MCP_PORT: '3100' }).mcpPublicUrl).toBe('http://127.0.0.1:3100');
    expect(loadPortalConfig({ MCP_PORT: '3100', MCP_PUBLIC_URL: 'https://gw.example.com/' }).mcpPublicUrl).toBe('https://gw.example.com');
  });

  it('keeps sessions in NATS when NATS_URL is set, in memory otherwise', () => {
    expect(loadPortalConfig({}).nats).toBeUndefined();
    expect(
      loadPortalConfig({ NATS_URL: 'nats://nats:4222', NATS_USER: 'portal', NATS_PASSWORD: 'p1', JETSTREAM_REPLICAS: '3' }).nats,
    ).toEqual({
      url: 'nats://nats:4222',
      auth: { user: 'portal', pass: 'p1' },
      replicas: 3,
    });
    expect(() => loadPortalConfig({ NATS_URL: 'nats://nats:4222', JETSTREAM_REPLICAS: '9' })).toThrow('JETSTREAM_REPLICAS');
  });

  it('names the bad variable', () => {
    expect(() => loadPortalConfig({ PORTAL_PORT: 'x' })).toThrow('PORTAL_PORT must be a whole number');
    expect(() => loadPortalConfig({ PORTAL_TLS_CERT: 'c.pem' })).toThrow('PORTAL_TLS_CERT and PORTAL_TLS_KEY go together');
    expect(() => loadPortalConfig({ MCP_PUBLIC_URL: 'ftp://x' })).toThrow('MCP_PUBLIC_URL must start with http');
  });

  it('takes PORTAL_ALLOWED_HOSTS as Host values and refuses a URL there, which no Host header could match', () => {
    expect(loadPortalConfig({ PORTAL_ALLOWED_HOSTS: 'Portal.Example.com, portal.example.com:8443,[::1]:3200' }).allowedHosts).toEqual([
      'portal.example.com',
      'portal.example.com:8443',
      '[::1]:3200',
    ]);
    for (const bad of ['https://portal.example.com', 'portal.example.com/', 'portal example.com', 'portal.example.com:x'])
      expect(() => loadPortalConfig({ PORTAL_ALLOWED_HOSTS: bad }), bad).toThrow(
        `PORTAL_ALLOWED_HOSTS takes Host header values (host or host:port, comma-separated), got "${bad}"`,
      );
  });

  describe('GRPC_TLS_* (towards surface-resolver)', () => {
    // envTls reads the files at start: they must exist; their content matters only to a connection.
    const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const [ca, cert, key] = ['ca.pem', 'tls.crt', 'tls.key'].map((f) => {
      writeFileSync(join(dir, f), 'x');
      return join(dir, f);
    });

    it('calls over TLS with a CA, over mutual TLS with a certificate too, in plaintext with neither', () => {
      expect(loadPortalConfig({}).grpcTls).toBeUndefined();
      expect(loadPortalConfig({ GRPC_TLS_CA_FILE: ca }).grpcTls).toEqual({ caFile: ca });
      expect(
        loadPortalConfig({ GRPC_TLS_CA_FILE: ca, GRPC_TLS_CERT_FILE: cert, GRPC_TLS_KEY_FILE: key, GRPC_TLS_RELOAD_INTERVAL_MS: '0' })
          .grpcTls,
      ).toEqual({ caFile: ca, certFile: cert, keyFile: key, reloadIntervalMs: 0 });
    });

    it('refuses a certificate without the CA, half a pair, and a file it cannot read, naming the variable', () => {
      expect(() => loadPortalConfig({ GRPC_TLS_CERT_FILE: cert, GRPC_TLS_KEY_FILE: key })).toThrow(
        'GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE need GRPC_TLS_CA_FILE',
      );
      expect(() => loadPortalConfig({ GRPC_TLS_CA_FILE: ca, GRPC_TLS_CERT_FILE: cert })).toThrow('must be set together');
      expect(() => loadPortalConfig({ GRPC_TLS_CA_FILE: join(dir, 'missing.pem') })).toThrow('GRPC_TLS_CA_FILE: cannot read');
    });
  });
});
