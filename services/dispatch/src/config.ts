import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envBool, envNats, envTls, isNatsUrlList, jetstreamReplicas, type NatsAuth, type TlsFiles } from '@toolsurface/platform';

/** Settings of the dispatch service; see README.md for each variable. */
export interface DispatchConfig {
  natsUrl: string;
  grpcHost: string;
  /** 0 picks a free port. */
  grpcPort: number;
  discoveryAddr: string;
  unifiedAddr: string;
  logLevel: string;
  maxArgumentsBytes: number;
  /** Deadline of each call to discovery and unified-mapper, ms. */
  downstreamTimeoutMs: number;
  /** How long start-up waits for the first connection attempt of every capability, ms. */
  capabilityStartupWaitMs: number;
  /** How long stop() lets in-flight calls finish before the gRPC server is forced down, ms. */
  shutdownGraceMs: number;
  /** TLS of the gRPC server and of the calls to discovery and unified-mapper (GRPC_TLS_* variables). */
  tls: TlsFiles;
  /** AUTH_REQUIRED: with no (valid) orchestrators configured, refuse every caller instead of switching authentication off. */
  authRequired: boolean;
  /** Authentication and TLS towards NATS (NATS_* variables). */
  nats: NatsAuth;
  /** JETSTREAM_REPLICAS: copies of each stream, bucket and object store this service creates (1 on one server, 3 in a cluster). */
  jetstreamReplicas: number;
  /**
   * CAPABILITY_COMMANDS: the only commands a stdio capability may run (comma-separated, matched
   * exactly); empty allows any. The config bucket says what to run: this keeps a tampered bucket
   * from running anything else.
   */
  allowedCommands: string[];
  /** The MCP endpoint (src/mcp/): undefined when MCP_PORT is unset (off); its port 0 picks a free one. */
  mcp: McpEndpointConfig | undefined;
  /** How tool.called events reach the stream (docs/operations.md, "Audit"). */
  audit: AuditConfig;
}

/** The audit spool and its failure mode. */
export interface AuditConfig {
  /** AUDIT_SPOOL_DIR: where events wait for the stream (each process keeps a sub-directory); survives a restart of the process when it is on a volume that does. */
  spoolDir: string;
  /** AUDIT_SPOOL_FSYNC_MS: how often spooled events are forced to disk, ms; 0 forces each before the call goes on. */
  fsyncIntervalMs: number;
  /** AUDIT_FAIL_CLOSED: refuse calls with UNAVAILABLE while the stream does not store events, rather than spool them. */
  failClosed: boolean;
}

/** Settings of the MCP endpoint, the second front of dispatch. */
export interface McpEndpointConfig {
  /** MCP_HOST: the address it listens on (default loopback). */
  host: string;
  port: number;
  /** SURFACE_RESOLVER_ADDR: where sessions open, read and close their surfaces. */
  surfaceResolverAddr: string;
  /** MCP_ORCHESTRATOR_TOKEN: the bearer token sent to surface-resolver where orchestrators are configured ("" sends none). */
  orchestratorToken: string;
  /** OAuth 2.1 resource-server mode: undefined when MCP_OAUTH_ISSUER is unset (off). */
  oauth: McpOAuthConfig | undefined;
  /** MCP_SESSION_IDLE_SECONDS: a session with no request and no open GET stream this long ends, ms. */
  sessionIdleMs: number;
  /** MCP_STREAM_GRACE_SECONDS: a session whose GET stream the client closed and did not open again this long ends, ms (0: never). */
  streamGraceMs: number;
}

/** OAuth 2.1 resource-server settings of the MCP endpoint (MCP_OAUTH_* and MCP_PUBLIC_URL). */
export interface McpOAuthConfig {
  /** MCP_OAUTH_ISSUER: the authorization server; the tokens' `iss`. */
  issuer: string;
  /** MCP_OAUTH_JWKS_URL: its JWKS; "" finds it in the issuer's metadata, else `<issuer>/.well-known/jwks.json`. */
  jwksUrl: string;
  /** MCP_PUBLIC_URL: the endpoint's URL as clients reach it (the resource). */
  publicUrl: string;
  /** MCP_OAUTH_AUDIENCE: an `aud` accepted besides the principal's URL (default: MCP_PUBLIC_URL). */
  audience: string;
  /** MCP_OAUTH_PRINCIPAL_CLAIM: the claim naming the token's principals (default `toolsurface_principals`). */
  principalClaim: string;
  /** MCP_OAUTH_ALGORITHMS: the JWS algorithms accepted. */
  algorithms: string[];
}

/** A bad or missing variable; start-up stops with this message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name, String(fallback));
  // Whole decimal numbers only: "1e3", "12ms" or "-1" are refused rather than half-parsed.
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function hostPort(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  // host:port where host is a name, an IPv4 address or a bracketed IPv6 address, and port is 1-5
  // digits; optionally after dns:/// (grpc-js then balances over every address the name resolves
  // to, as behind a headless Service).
  const m = /^(?:dns:\/\/\/)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new ConfigError(`${name} must be host:port or dns:///host:port, got "${raw}"`);
  return raw;
}

function natsUrls(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  if (!isNatsUrlList(raw)) throw new ConfigError(`${name} must be a comma-separated list of NATS URLs, got "${raw}"`);
  return raw;
}

function natsOf(env: Env): NatsAuth {
  try {
    return envNats(env);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function replicasOf(env: Env): number {
  try {
    return jetstreamReplicas(env);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function boolOf(env: Env, name: string): boolean {
  try {
    return envBool(env, name);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function tlsOf(env: Env): TlsFiles {
  try {
    return envTls(env);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  if (url.search || url.hash) throw new ConfigError(`${name} must have no query or fragment, got "${raw}"`);
  return raw;
}

const OAUTH_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);

/** The OAuth resource-server settings: on when MCP_OAUTH_ISSUER is set, and then MCP_PUBLIC_URL is required. */
function oauthOf(env: Env): McpOAuthConfig | undefined {
  if (text(env, 'MCP_OAUTH_ISSUER', '') === '') return undefined;
  const issuer = httpUrl(env, 'MCP_OAUTH_ISSUER', '');
  if (text(env, 'MCP_PUBLIC_URL', '') === '') {
    throw new ConfigError(
      'MCP_PUBLIC_URL is required with MCP_OAUTH_ISSUER: the endpoint URL clients reach, which tokens must be issued for',
    );
  }
  const publicUrl = httpUrl(env, 'MCP_PUBLIC_URL', '').replace(/\/+$/, '');
  const algorithms = text(env, 'MCP_OAUTH_ALGORITHMS', 'RS256,ES256')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = algorithms.find((a) => !OAUTH_ALGORITHMS.has(a));
  if (bad !== undefined || algorithms.length === 0) {
    throw new ConfigError(
      `MCP_OAUTH_ALGORITHMS must list asymmetric JWS algorithms (${[...OAUTH_ALGORITHMS].join(', ')}), got "${bad ?? ''}"`,
    );
  }
  const claim = text(env, 'MCP_OAUTH_PRINCIPAL_CLAIM', 'toolsurface_principals');
  if (!/^[A-Za-z0-9_.:/-]{1,128}$/.test(claim)) throw new ConfigError(`MCP_OAUTH_PRINCIPAL_CLAIM must be a claim name, got "${claim}"`);
  return {
    issuer,
    jwksUrl: text(env, 'MCP_OAUTH_JWKS_URL', '') === '' ? '' : httpUrl(env, 'MCP_OAUTH_JWKS_URL', ''),
    publicUrl,
    audience: text(env, 'MCP_OAUTH_AUDIENCE', publicUrl),
    principalClaim: claim,
    algorithms,
  };
}

/** Reads and validates the service's variables (the only reader of process.env). Throws ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): DispatchConfig {
  const logLevel = text(env, 'LOG_LEVEL', 'info').toLowerCase();
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}, got "${logLevel}"`);
  return {
    natsUrl: natsUrls(env, 'NATS_URL', 'nats://127.0.0.1:4222'),
    // Loopback by default: exposing the APIs (with orchestrators' tokens and TLS configured) is the operator's explicit choice.
    grpcHost: text(env, 'GRPC_HOST', '127.0.0.1'),
    grpcPort: integer(env, 'GRPC_PORT', 50053, 0, 65535),
    discoveryAddr: hostPort(env, 'DISCOVERY_ADDR', '127.0.0.1:50052'),
    unifiedAddr: hostPort(env, 'UNIFIED_ADDR', '127.0.0.1:50054'),
    logLevel,
    maxArgumentsBytes: integer(env, 'MAX_ARGUMENTS_BYTES', 1_048_576, 2, 64 * 1024 * 1024),
    downstreamTimeoutMs: integer(env, 'DOWNSTREAM_TIMEOUT_MS', 5000, 1, 600_000),
    capabilityStartupWaitMs: integer(env, 'CAPABILITY_STARTUP_WAIT_MS', 10_000, 0, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    tls: tlsOf(env),
    authRequired: boolOf(env, 'AUTH_REQUIRED'),
    nats: natsOf(env),
    jetstreamReplicas: replicasOf(env),
    audit: {
      spoolDir: text(env, 'AUDIT_SPOOL_DIR', join(tmpdir(), 'toolsurface-audit-spool')),
      fsyncIntervalMs: integer(env, 'AUDIT_SPOOL_FSYNC_MS', 100, 0, 10_000),
      failClosed: boolOf(env, 'AUDIT_FAIL_CLOSED'),
    },
    allowedCommands: text(env, 'CAPABILITY_COMMANDS', '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    mcp:
      text(env, 'MCP_PORT', '') === ''
        ? undefined
        : {
            host: text(env, 'MCP_HOST', '127.0.0.1'),
            port: integer(env, 'MCP_PORT', 0, 0, 65535),
            surfaceResolverAddr: hostPort(env, 'SURFACE_RESOLVER_ADDR', '127.0.0.1:50051'),
            orchestratorToken: text(env, 'MCP_ORCHESTRATOR_TOKEN', ''),
            oauth: oauthOf(env),
            sessionIdleMs: integer(env, 'MCP_SESSION_IDLE_SECONDS', 3600, 1, 7 * 24 * 3600) * 1000,
            streamGraceMs: integer(env, 'MCP_STREAM_GRACE_SECONDS', 30, 0, 24 * 3600) * 1000,
          },
  };
}
