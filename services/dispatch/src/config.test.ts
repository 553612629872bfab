import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has a safe default for every variable', () => {
    expect(loadConfig({})).toEqual({
      natsUrl: 'nats://127.0.0.1:4222',
      grpcHost: '127.0.0.1',
      grpcPort: 50053,
      discoveryAddr: '127.0.0.1:50052',
      unifiedAddr: '127.0.0.1:50054',
      logLevel: 'info',
      maxArgumentsBytes: 1_048_576,
      downstreamTimeoutMs: 5000,
      capabilityStartupWaitMs: 10_000,
      shutdownGraceMs: 10_000,
      tls: {},
      authRequired: false,
      nats: {},
      jetstreamReplicas: 1,
      allowedCommands: [],
      mcp: undefined,
      audit: { spoolDir: join(tmpdir(), 'toolsurface-audit-spool'), fsyncIntervalMs: 100, failClosed: false },
    });
  });

  it('serves the MCP endpoint only when MCP_PORT is set, on loopback by default', () => {
    expect(loadConfig({ MCP_HOST: '0.0.0.0' }).mcp).toBeUndefined();
    expect(loadConfig({ MCP_PORT: '3100' }).mcp).toEqual({
      host: '127.0.0.1',
      port: 3100,
      surfaceResolverAddr: '127.0.0.1:50051',
      orchestratorToken: '',
      oauth: undefined,
      sessionIdleMs: 3_600_000,
      streamGraceMs: 30_000,
    });
    expect(
      loadConfig({ MCP_PORT: '0', MCP_HOST: '0.0.0.0', SURFACE_RESOLVER_ADDR: 'resolver:50051', MCP_ORCHESTRATOR_TOKEN: 't0k' }).mcp,
    ).toMatchObject({ host: '0.0.0.0', port: 0, surfaceResolverAddr: 'resolver:50051', orchestratorToken: 't0k', oauth: undefined });
  });

  it('reads the session timeouts in seconds, refusing values that are not whole numbers in range', () => {
    expect(loadConfig({ MCP_PORT: '0', MCP_SESSION_IDLE_SECONDS: '2', MCP_STREAM_GRACE_SECONDS: '0' }).mcp).toMatchObject({
      sessionIdleMs: 2000,
      streamGraceMs: 0,
    });
    expect(() => loadConfig({ MCP_PORT: '0', MCP_SESSION_IDLE_SECONDS: '0' })).toThrow(/MCP_SESSION_IDLE_SECONDS must be between 1/);
    expect(() => loadConfig({ MCP_PORT: '0', MCP_STREAM_GRACE_SECONDS: '1.5' })).toThrow(/MCP_STREAM_GRACE_SECONDS must be a whole number/);
  });

  it('turns OAuth resource-server mode on with MCP_OAUTH_ISSUER, which needs MCP_PUBLIC_URL', () => {
    const base = { MCP_PORT: '3100', MCP_OAUTH_ISSUER: 'https://idp.example' };
    expect(() => loadConfig(base)).toThrow(/MCP_PUBLIC_URL is required/);
    expect(loadConfig({ ...base, MCP_PUBLIC_URL: 'https://tools.example.com/' }).mcp?.oauth).toEqual({
      issuer: 'https://idp.example',
      jwksUrl: '',
      publicUrl: 'https://tools.example.com',
      audience: 'https://tools.example.com',
      principalClaim: 'toolsurface_principals',
      algorithms: ['RS256', 'ES256'],
    });
    const full = {
      ...base,
      MCP_PUBLIC_URL: 'https://tools.example.com',
      MCP_OAUTH_JWKS_URL: 'https://idp.example/keys',
      MCP_OAUTH_AUDIENCE: 'toolsurface',
      MCP_OAUTH_PRINCIPAL_CLAIM: 'sub',
      MCP_OAUTH_ALGORITHMS: 'ES256, EdDSA',
    };
    expect(loadConfig(full).mcp?.oauth).toMatchObject({
      jwksUrl: 'https://idp.example/keys',
      audience: 'toolsurface',
      principalClaim: 'sub',
      algorithms: ['ES256', 'EdDSA'],
    });
    expect(() => loadConfig({ ...full, MCP_OAUTH_ALGORITHMS: 'HS256' })).toThrow(/MCP_OAUTH_ALGORITHMS/);
    expect(() => loadConfig({ ...full, MCP_OAUTH_ISSUER: 'ftp://idp' })).toThrow(/MCP_OAUTH_ISSUER must be an http/);
    expect(() => loadConfig({ ...full, MCP_PUBLIC_URL: 'not a url' })).toThrow(/MCP_PUBLIC_URL/);
  });

  it('reads the TLS files and refuses an incomplete pair', () => {
    expect(() => loadConfig({ GRPC_TLS_KEY_FILE: '/etc/tls/tls.key' })).toThrow(
      /GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE must be set together/,
    );
  });

  it('reads the variables', () => {
    const c = loadConfig({
      NATS_URL: 'nats://a:1,nats://b:2',
      GRPC_PORT: '0',
      DISCOVERY_ADDR: 'discovery:7000',
      LOG_LEVEL: 'DEBUG',
      MAX_ARGUMENTS_BYTES: '4096',
      JETSTREAM_REPLICAS: '3',
    });
    expect(c).toMatchObject({
      natsUrl: 'nats://a:1,nats://b:2',
      grpcPort: 0,
      discoveryAddr: 'discovery:7000',
      logLevel: 'debug',
      maxArgumentsBytes: 4096,
      jetstreamReplicas: 3,
    });
    expect(() => loadConfig({ JETSTREAM_REPLICAS: '0' })).toThrow(/JETSTREAM_REPLICAS must be a whole number from 1 to 5/);
  });

  it('takes dns:/// addresses, which grpc-js resolves to every replica behind a headless Service', () => {
    const c = loadConfig({ DISCOVERY_ADDR: 'dns:///discovery:50052', UNIFIED_ADDR: 'dns:///unified-mapper:50054' });
    expect(c).toMatchObject({ discoveryAddr: 'dns:///discovery:50052', unifiedAddr: 'dns:///unified-mapper:50054' });
  });

  it.each([
    ['GRPC_PORT', '70000'],
    ['GRPC_PORT', '12ab'],
    ['MAX_ARGUMENTS_BYTES', '-1'],
    ['MAX_ARGUMENTS_BYTES', '1e6'],
    ['DISCOVERY_ADDR', 'no-port'],
    ['DISCOVERY_ADDR', 'dns://discovery:7000'],
    ['UNIFIED_ADDR', 'dns:///unified'],
    ['UNIFIED_ADDR', 'host:99999'],
    ['LOG_LEVEL', 'loud'],
    ['NATS_URL', 'http://x y'],
    ['DOWNSTREAM_TIMEOUT_MS', '0'],
    ['MCP_PORT', '65536'],
    ['JETSTREAM_REPLICAS', '0'],
    ['JETSTREAM_REPLICAS', '6'],
    ['AUDIT_SPOOL_FSYNC_MS', '10001'],
    ['AUDIT_FAIL_CLOSED', 'yes'],
  ])('stops start-up naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
