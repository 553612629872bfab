import type { NatsConnection } from '@nats-io/transport-node';
import {
  connectNats,
  createLogger,
  ensureStream,
  openSnapshotStore,
  startGrpcServer,
  logTlsReloads,
  type GrpcServerHandle,
  type Logger,
  type RunningConsumer,
} from '@toolsurface/platform';
import { DiscoveryServiceService } from '@toolsurface/proto';
import { SnapshotStore } from '@toolsurface/state';
import type { Tracer } from '@opentelemetry/api';
import type { DiscoveryConfig } from './config';
import { DiscoveryService } from './discovery.service';
import { EmbeddedBackend } from './domain/embedded-backend';
import type { SearchBackend } from './domain/discovery';
import { startSnapshotIndexer } from './events/snapshot-created.consumer';
import { MeilisearchBackend } from './search/meilisearch-backend';
import { discoveryHandlers } from './grpc/discovery.handler';

/** The running service. */
export interface App {
  logger: Logger;
  port(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function createBackend(config: DiscoveryConfig): SearchBackend {
  switch (config.searchBackend) {
    case 'embedded':
      return new EmbeddedBackend(config.maxIndexedSnapshots, {
        semanticWeight: config.semanticWeight,
        headRerank: config.headRerank,
        maxBytes: config.maxIndexBytes,
      });
    case 'meilisearch':
      return new MeilisearchBackend({
        url: config.meiliUrl,
        apiKey: config.meiliApiKey,
        embedder: config.meiliEmbedder,
        semanticRatio: config.meiliSemanticRatio,
        taskTimeoutMs: config.meiliTaskTimeoutMs,
      });
  }
}

/** Wires discovery: snapshot store, search backend, the snapshot.created consumer, gRPC. */
export function createApp(config: DiscoveryConfig, tracer: Tracer): App {
  const logger = createLogger('discovery', config.logLevel);
  let nc: NatsConnection | undefined;
  let grpc: GrpcServerHandle | undefined;
  let consumer: RunningConsumer | undefined;
  let stopTlsLog: (() => void) | undefined;
  return {
    logger,
    port: () => grpc?.port ?? 0,
    async start() {
      const backend = createBackend(config);
      // Index settings before anything can index or search (the consumer starts below).
      await backend.init?.();
      if (backend instanceof EmbeddedBackend) {
        const semantic = backend.semanticStage();
        if (semantic === 'unavailable')
          logger.warn(
            'the semantic stage is off: its table (@toolsurface/search data/semantic-static.bin) cannot be read; searches are lexical only',
          );
        else logger.info({ semantic, weight: config.semanticWeight }, 'embedded index semantic stage');
      }
      nc = await connectNats(config.natsUrl, 'discovery', config.nats);
      await ensureStream(nc, logger, { replicas: config.jetstreamReplicas });
      const discovery = new DiscoveryService(
        new SnapshotStore(
          await openSnapshotStore(nc, { replicas: config.jetstreamReplicas }),
          config.maxIndexedSnapshots,
          config.maxSnapshotCacheBytes,
        ),
        backend,
        logger,
      );
      consumer = await startSnapshotIndexer(nc, discovery, { tracer, logger });
      stopTlsLog = logTlsReloads(logger);
      grpc = await startGrpcServer(
        config.grpcHost,
        config.grpcPort,
        [
          {
            name: 'toolsurface.v1.DiscoveryService',
            definition: DiscoveryServiceService,
            implementation: discoveryHandlers(discovery, { tracer, logger }),
          },
        ],
        {},
        config.tls,
      );
      logger.info({ port: grpc.port, backend: config.searchBackend }, 'discovery serving');
    },
    async stop() {
      await grpc?.stop();
      await consumer?.stop();
      await nc?.drain().catch(() => undefined);
      stopTlsLog?.();
    },
  };
}
