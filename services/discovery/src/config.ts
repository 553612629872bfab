// The only reader of process.env in this service.
import { envBool, envInt, envLogLevel, envNats, envTls, jetstreamReplicas, type NatsAuth, type TlsFiles } from '@toolsurface/platform';

/** Validated settings of the discovery service. */
export interface DiscoveryConfig {
  natsUrl: string;
  grpcHost: string;
  grpcPort: number;
  logLevel: string;
  /** `embedded` (in-process index, the default) or `meilisearch`. */
  searchBackend: 'embedded' | 'meilisearch';
  meiliUrl: string;
  meiliApiKey: string;
  /** Embedder configured on the Meilisearch index for hybrid search; empty = keyword search only. */
  meiliEmbedder: string;
  /** Share of the semantic side in hybrid search, 0..1 (used only with an embedder). */
  meiliSemanticRatio: number;
  /** Longest wait for one Meilisearch task (index creation, settings, a snapshot's documents). */
  meiliTaskTimeoutMs: number;
  /** Weight of the embedded index's semantic stage (ToolIndexOptions.semanticWeight); 0 turns it off. */
  semanticWeight: number;
  /** Whether the embedded index's learned second stage re-orders the first 15 hits (@toolsurface/search's LexicalHeadReranker). */
  headRerank: boolean;
  /** Snapshots whose index stays in memory. */
  maxIndexedSnapshots: number;
  /**
   * Bytes the embedded indexes may take together (MAX_INDEX_MB, default 448 MiB; EmbeddedBackend's
   * estimate, indexBytes), and the parsed snapshots kept beside them (MAX_SNAPSHOT_CACHE_MB, default
   * 192 MiB; SnapshotStore's). With the process's own ~170 MB they fit deploy/k8s's 1 GiB limit.
   */
  maxIndexBytes: number;
  maxSnapshotCacheBytes: number;
  /** TLS or mutual TLS of the gRPC server (GRPC_TLS_* variables). */
  tls: TlsFiles;
  /** Authentication and TLS towards NATS (NATS_* variables). */
  nats: NatsAuth;
  /** JETSTREAM_REPLICAS: copies of each stream, bucket and object store this service creates (1 on one server, 3 in a cluster). */
  jetstreamReplicas: number;
}

/** A decimal number in [0, 1]. */
function ratio(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > 1) throw new Error(`${name} must be a number between 0 and 1, got "${raw}"`);
  return Number(raw);
}

/** A decimal number in [0, max]. */
function nonNegative(env: NodeJS.ProcessEnv, name: string, dflt: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > max) throw new Error(`${name} must be a number between 0 and ${max}, got "${raw}"`);
  return Number(raw);
}

/** Reads and validates the environment; throws an Error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): DiscoveryConfig {
  const backend = env.SEARCH_BACKEND || 'embedded';
  if (backend !== 'embedded' && backend !== 'meilisearch')
    throw new Error(`SEARCH_BACKEND must be "embedded" or "meilisearch", got "${backend}"`);
  if (backend === 'meilisearch' && !env.MEILI_URL) throw new Error('MEILI_URL is required when SEARCH_BACKEND=meilisearch');
  const embedder = env.MEILI_EMBEDDER ?? '';
  // Embedder names as Meilisearch settings keys; kept to a plain charset.
  if (embedder !== '' && !/^[A-Za-z0-9_-]{1,128}$/.test(embedder))
    throw new Error(`MEILI_EMBEDDER must be 1-128 letters, digits, "_" or "-", got "${embedder}"`);
  if (embedder === '' && env.MEILI_SEMANTIC_RATIO)
    throw new Error('MEILI_SEMANTIC_RATIO needs MEILI_EMBEDDER (hybrid search needs an embedder)');
  const level = envLogLevel(env);
  return {
    natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222',
    // Loopback by default: exposing the APIs (with TLS configured) is the operator's explicit choice.
    grpcHost: env.GRPC_HOST || '127.0.0.1',
    grpcPort: envInt(env, 'GRPC_PORT', 50052, 0, 65535),
    logLevel: level,
    searchBackend: backend,
    meiliUrl: env.MEILI_URL ?? '',
    meiliApiKey: env.MEILI_API_KEY ?? '',
    meiliEmbedder: embedder,
    meiliSemanticRatio: ratio(env, 'MEILI_SEMANTIC_RATIO', 0.5),
    meiliTaskTimeoutMs: envInt(env, 'MEILI_TASK_TIMEOUT_MS', 30_000, 100, 3_600_000),
    semanticWeight: nonNegative(env, 'SEARCH_SEMANTIC_WEIGHT', 1, 4),
    // on unless set to "false"
    headRerank: env.SEARCH_HEAD_RERANK === undefined || env.SEARCH_HEAD_RERANK === '' ? true : envBool(env, 'SEARCH_HEAD_RERANK'),
    maxIndexedSnapshots: envInt(env, 'MAX_INDEXED_SNAPSHOTS', 64, 1, 100_000),
    maxIndexBytes: envInt(env, 'MAX_INDEX_MB', 448, 1, 1_048_576) * 1024 * 1024,
    maxSnapshotCacheBytes: envInt(env, 'MAX_SNAPSHOT_CACHE_MB', 192, 1, 1_048_576) * 1024 * 1024,
    tls: envTls(env),
    nats: envNats(env),
    jetstreamReplicas: jetstreamReplicas(env),
  };
}
