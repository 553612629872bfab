// The only reader of process.env in the portal.
import { resolve } from 'node:path';
import { envNats, envTls, isNatsUrlList, jetstreamReplicas, TLS_ENV, type NatsAuth, type TlsFiles } from '@toolsurface/platform';
import type { ActivityConfig } from './activity-feed';

/** Validated settings of the portal. */
export interface PortalConfig {
  /** Address the HTTP server listens on (loopback by default). */
  host: string;
  /** Port (0: any free port). */
  port: number;
  /** surface-resolver host:port. */
  resolver: string;
  /**
   * TLS towards surface-resolver, from the GRPC_TLS_* variables the services and the stack read:
   * verified against caFile, presenting certFile and keyFile where it asks for a client certificate
   * (mutual TLS). Absent: plaintext.
   */
  grpcTls?: TlsFiles;
  /**
   * Host header values (host:port) the portal answers; anything else is refused (DNS rebinding).
   * Empty: the listening address, `localhost` and `127.0.0.1` on the bound port.
   */
  allowedHosts: string[];
  /** PEM certificate and key: serve HTTPS and mark the session cookie Secure. */
  tls?: { certFile: string; keyFile: string };
  /** Base URL of dispatch's MCP endpoint as clients reach it, or '' when there is none to show. */
  mcpPublicUrl: string;
  /** How long a sign-in lasts, seconds. */
  sessionTtlSeconds: number;
  /** Folder of the built web app. */
  webDist: string;
  /** Recent activity: where the tool.called events are read and how much is kept; none: the section says it is off. */
  activity?: ActivityConfig;
  /**
   * NATS holding the sessions (bucket toolsurface_portal_sessions), shared by every replica and
   * kept over restarts; absent: sessions in memory, for one replica (NATS_URL unset).
   */
  nats?: { url: string; auth: NatsAuth; replicas: number };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Digits only: no sign, no decimals.
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return Number(raw);
}

/** Reads and validates the environment; throws an Error naming the bad variable. */
export function loadPortalConfig(env: NodeJS.ProcessEnv = process.env): PortalConfig {
  const certFile = env.PORTAL_TLS_CERT || '';
  const keyFile = env.PORTAL_TLS_KEY || '';
  if (Boolean(certFile) !== Boolean(keyFile)) throw new Error('PORTAL_TLS_CERT and PORTAL_TLS_KEY go together: set both or neither');
  const mcpPort = int(env, 'MCP_PORT', 0, 0, 65535);
  const mcpPublicUrl = env.MCP_PUBLIC_URL || (mcpPort ? `http://127.0.0.1:${mcpPort}` : '');
  if (mcpPublicUrl && !/^https?:\/\//.test(mcpPublicUrl))
    throw new Error(`MCP_PUBLIC_URL must start with http:// or https://, got "${mcpPublicUrl}"`);
  return {
    host: env.PORTAL_HOST || '127.0.0.1',
    port: int(env, 'PORTAL_PORT', 3200, 0, 65535),
    resolver: env.TOOLSURFACE_RESOLVER || '127.0.0.1:50051',
    ...grpcTls(env),
    allowedHosts: allowedHosts(env.PORTAL_ALLOWED_HOSTS || ''),
    ...(certFile ? { tls: { certFile: resolve(certFile), keyFile: resolve(keyFile) } } : {}),
    mcpPublicUrl: mcpPublicUrl.replace(/\/+$/, ''),
    sessionTtlSeconds: int(env, 'PORTAL_SESSION_TTL_SECONDS', 8 * 3600, 60, 7 * 24 * 3600),
    webDist: resolve(env.PORTAL_WEB_DIST || new URL('../dist', import.meta.url).pathname),
    activity: activityConfig(env),
    ...(env.NATS_URL ? { nats: { url: env.NATS_URL, auth: envNats(env), replicas: jetstreamReplicas(env) } } : {}),
  };
}

/** GRPC_TLS_*: the client side only (a CA to verify surface-resolver, and a certificate for mutual TLS). */
function grpcTls(env: NodeJS.ProcessEnv): { grpcTls?: TlsFiles } {
  const { caFile, certFile, keyFile, reloadIntervalMs } = envTls(env);
  // Without a CA the calls would go out in plaintext although a certificate was meant for them.
  if (certFile && !caFile)
    throw new Error(
      `${TLS_ENV.certFile} and ${TLS_ENV.keyFile} need ${TLS_ENV.caFile} (the CA that signed surface-resolver's certificate): the portal calls surface-resolver over TLS only with it`,
    );
  if (!caFile) return {};
  return {
    grpcTls: { caFile, ...(certFile ? { certFile, keyFile } : {}), ...(reloadIntervalMs !== undefined ? { reloadIntervalMs } : {}) },
  };
}

/** PORTAL_ALLOWED_HOSTS: Host header values; a URL there (a scheme, a path) would match no request and lock everyone out. */
function allowedHosts(value: string): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  for (const h of hosts)
    if (!/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/.test(h))
      throw new Error(`PORTAL_ALLOWED_HOSTS takes Host header values (host or host:port, comma-separated), got "${h}"`);
  return hosts;
}

/** NATS_URL and NATS_* as the services read them, and the bounds of what recent activity keeps (apps/portal/README.md). */
function activityConfig(env: NodeJS.ProcessEnv): ActivityConfig {
  const natsUrl = env.NATS_URL || 'nats://127.0.0.1:4222';
  if (!isNatsUrlList(natsUrl)) throw new Error(`NATS_URL must be a comma-separated list of NATS URLs, got "${natsUrl}"`);
  return {
    natsUrl,
    nats: envNats(env),
    perPrincipal: int(env, 'PORTAL_ACTIVITY_PER_PRINCIPAL', 50, 1, 1000),
    principals: int(env, 'PORTAL_ACTIVITY_PRINCIPALS', 500, 1, 100_000),
    replay: int(env, 'PORTAL_ACTIVITY_REPLAY', 10_000, 0, 1_000_000),
  };
}
