// The only reader of process.env in this service.
import { envInt, envBool, envLogLevel, envNats, envTls, jetstreamReplicas, type NatsAuth, type TlsFiles } from '@toolsurface/platform';
import { dirname, resolve } from 'node:path';

/** Validated settings of surface-resolver. */
export interface ResolverConfig {
  natsUrl: string;
  grpcHost: string;
  grpcPort: number;
  logLevel: string;
  /** TLS or mutual TLS of the gRPC server (GRPC_TLS_* variables). */
  tls: TlsFiles;
  /** Authentication and TLS towards NATS (NATS_* variables). */
  nats: NatsAuth;
  /** JETSTREAM_REPLICAS: copies of each stream, bucket and object store this service creates (1 on one server, 3 in a cluster). */
  jetstreamReplicas: number;
  /** Absolute path of the declarative YAML config, or '' for none (state already in NATS). */
  configPath: string;
  /** Folder that relative paths and `${CONFIG_DIR}` of a config resolve against (default: the file's folder). */
  configDir: string;
  /** Default surface lifetime, seconds. */
  surfaceTtlSeconds: number;
  /** Whether PresentationService.ApplyConfig may add, change or remove capabilities (what dispatch executes). */
  allowCapabilityChanges: boolean;
  /** Longest surface lifetime a caller may ask for, seconds. */
  surfaceTtlMaxSeconds: number;
  /** AUTH_REQUIRED: with no (valid) orchestrators configured, refuse every caller instead of switching authentication off. */
  authRequired: boolean;
}

/** Reads and validates the environment; throws an Error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ResolverConfig {
  const level = envLogLevel(env);
  return {
    natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222',
    // Loopback by default: exposing the APIs (with orchestrators' tokens and TLS configured) is the operator's explicit choice.
    grpcHost: env.GRPC_HOST || '127.0.0.1',
    grpcPort: envInt(env, 'GRPC_PORT', 50051, 0, 65535),
    logLevel: level,
    tls: envTls(env),
    nats: envNats(env),
    jetstreamReplicas: jetstreamReplicas(env),
    configPath: env.TOOLSURFACE_CONFIG ? resolve(env.TOOLSURFACE_CONFIG) : '',
    configDir: env.TOOLSURFACE_CONFIG_DIR
      ? resolve(env.TOOLSURFACE_CONFIG_DIR)
      : env.TOOLSURFACE_CONFIG
        ? dirname(resolve(env.TOOLSURFACE_CONFIG))
        : process.cwd(),
    allowCapabilityChanges: envBool(env, 'ALLOW_CAPABILITY_CHANGES'),
    authRequired: envBool(env, 'AUTH_REQUIRED'),
    surfaceTtlSeconds: envInt(env, 'SURFACE_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
    surfaceTtlMaxSeconds: envInt(env, 'SURFACE_TTL_MAX_SECONDS', 24 * 3600, 1, 7 * 24 * 3600),
  };
}
