import type { NatsConnection } from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { AppError, ReasonCode, parseConfig } from '@toolsurface/core';
import {
  Buckets,
  EventPublisher,
  SURFACE_BUCKET_MAX_AGE_MS,
  connectNats,
  createLogger,
  ensureStream,
  openBucket,
  openSnapshotStore,
  retryJetStream,
  startGrpcServer,
  logTlsReloads,
  type GrpcServerHandle,
  type Logger,
} from '@toolsurface/platform';
import { PresentationServiceService, SurfaceServiceService } from '@toolsurface/proto';
import { SnapshotStore, WatchedBucket, type CatalogRecord, type SurfaceRecord } from '@toolsurface/state';
import type { Tracer } from '@opentelemetry/api';
import type { ResolverConfig } from './config';
import { ResolverPublisher } from './events/resolver.publisher';
import { presentationHandlers } from './grpc/presentation.handler';
import { principalHandlers } from './grpc/principals.handler';
import { surfaceHandlers } from './grpc/surface.handler';
import { SurfaceResolverService } from './surface-resolver.service';

/** The running service. */
export interface App {
  logger: Logger;
  /** Bound gRPC port (useful with GRPC_PORT=0). */
  port(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new AppError(ReasonCode.INVALID_REQUEST, `cannot read TOOLSURFACE_CONFIG file ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** Wires surface-resolver: NATS state, the resolver, gRPC. Nothing runs until start(). */
export function createApp(config: ResolverConfig, tracer: Tracer): App {
  const logger = createLogger('surface-resolver', config.logLevel);
  let nc: NatsConnection | undefined;
  let grpc: GrpcServerHandle | undefined;
  let stopTlsLog: (() => void) | undefined;
  const watched: Array<WatchedBucket<unknown>> = [];
  return {
    logger,
    port: () => grpc?.port ?? 0,
    async start() {
      // Fail on a bad config file before touching anything.
      const fileConfig = config.configPath ? parseConfig(readConfigFile(config.configPath), config.configDir) : undefined;
      nc = await connectNats(config.natsUrl, 'surface-resolver', config.nats);
      await ensureStream(nc, logger, { replicas: config.jetstreamReplicas });
      const configBucket = new WatchedBucket<unknown>(await openBucket(nc, Buckets.config, { replicas: config.jetstreamReplicas }), logger);
      const catalog = new WatchedBucket<CatalogRecord>(
        await openBucket(nc, Buckets.catalog, { replicas: config.jetstreamReplicas }),
        logger,
      );
      const surfaces = new WatchedBucket<SurfaceRecord>(
        await openBucket(nc, Buckets.surfaces, { ttlMs: SURFACE_BUCKET_MAX_AGE_MS, replicas: config.jetstreamReplicas }),
        logger,
      );
      for (const b of [configBucket, catalog, surfaces]) {
        await retryJetStream(() => b.start());
        watched.push(b as WatchedBucket<unknown>);
      }
      const snapshots = new SnapshotStore(await openSnapshotStore(nc, { replicas: config.jetstreamReplicas }));
      const resolver = new SurfaceResolverService(
        configBucket,
        catalog,
        surfaces,
        snapshots,
        new ResolverPublisher(new EventPublisher(nc, tracer)),
        logger,
        {
          defaultSeconds: config.surfaceTtlSeconds,
          maxSeconds: config.surfaceTtlMaxSeconds,
        },
        config.authRequired,
      );
      if (fileConfig) {
        const applied = await resolver.applyConfigIfChanged(fileConfig);
        logger.info({ path: config.configPath, applied }, applied ? 'config file applied' : 'config file unchanged since last applied');
      }
      const deps = { tracer, logger };
      stopTlsLog = logTlsReloads(logger);
      grpc = await startGrpcServer(
        config.grpcHost,
        config.grpcPort,
        [
          { name: 'toolsurface.v1.SurfaceService', definition: SurfaceServiceService, implementation: surfaceHandlers(resolver, deps) },
          {
            name: 'toolsurface.v1.PresentationService',
            definition: PresentationServiceService,
            implementation: {
              ...presentationHandlers(resolver, config.configDir, config.allowCapabilityChanges, deps),
              ...principalHandlers(resolver, deps),
            },
          },
        ],
        {},
        config.tls,
      );
      logger.info({ port: grpc.port }, 'surface-resolver serving');
    },
    async stop() {
      await grpc?.stop();
      for (const b of watched) b.stop();
      await nc?.drain().catch(() => undefined);
      stopTlsLog?.();
    },
  };
}
