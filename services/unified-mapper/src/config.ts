// The only reader of process.env in this service.
import { envInt, envLogLevel, envNats, envTls, jetstreamReplicas, type NatsAuth, type TlsFiles } from '@toolsurface/platform';
import { modelMapperConfig, type ModelMapperConfig } from './model.config';

/** Validated settings of unified-mapper. */
export interface MapperConfig {
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
  /** Snapshots whose index and mapper stay in memory. */
  maxSnapshots: number;
  /** MAPPER=openai: the chat-completions endpoint that maps requests; undefined: the rule engine alone (the default). */
  model?: ModelMapperConfig;
}

/** Reads and validates the environment; throws an Error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): MapperConfig {
  const level = envLogLevel(env);
  return {
    natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222',
    // Loopback by default: exposing the APIs (with orchestrators' tokens and TLS configured) is the operator's explicit choice.
    grpcHost: env.GRPC_HOST || '127.0.0.1',
    grpcPort: envInt(env, 'GRPC_PORT', 50054, 0, 65535),
    logLevel: level,
    tls: envTls(env),
    nats: envNats(env),
    jetstreamReplicas: jetstreamReplicas(env),
    maxSnapshots: envInt(env, 'MAX_SNAPSHOTS', 64, 1, 100_000),
    model: modelMapperConfig(env),
  };
}
