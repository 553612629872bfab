import type { NatsConnection } from '@nats-io/transport-node';
import {
  connectNats,
  createLogger,
  logTlsReloads,
  openSnapshotStore,
  startGrpcServer,
  type GrpcServerHandle,
  type Logger,
} from '@toolsurface/platform';
import { UnifiedServiceService } from '@toolsurface/proto';
import { SnapshotStore } from '@toolsurface/state';
import type { Tracer } from '@opentelemetry/api';
import type { MapperConfig } from './config';
import { unifiedHandlers } from './grpc/unified.handler';
import { modelMapperOptions } from './model-mapper';
import { UnifiedMapperService } from './unified-mapper.service';

/** The running service. */
export interface App {
  logger: Logger;
  port(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Wires unified-mapper: snapshot store, mapper, gRPC. */
export function createApp(config: MapperConfig, tracer: Tracer): App {
  const logger = createLogger('unified-mapper', config.logLevel);
  let nc: NatsConnection | undefined;
  let grpc: GrpcServerHandle | undefined;
  let stopTlsLog: (() => void) | undefined;
  return {
    logger,
    port: () => grpc?.port ?? 0,
    async start() {
      nc = await connectNats(config.natsUrl, 'unified-mapper', config.nats);
      const mapper = new UnifiedMapperService(
        new SnapshotStore(await openSnapshotStore(nc, { replicas: config.jetstreamReplicas }), config.maxSnapshots),
        config.maxSnapshots,
        config.model && modelMapperOptions(config.model, logger),
      );
      stopTlsLog = logTlsReloads(logger);
      grpc = await startGrpcServer(
        config.grpcHost,
        config.grpcPort,
        [
          {
            name: 'toolsurface.v1.UnifiedService',
            definition: UnifiedServiceService,
            implementation: unifiedHandlers(mapper, { tracer, logger }),
          },
        ],
        {},
        config.tls,
      );
      logger.info({ port: grpc.port, mapper: config.model ? `openai ${config.model.model}` : 'rules' }, 'unified-mapper serving');
    },
    async stop() {
      await grpc?.stop();
      await nc?.drain().catch(() => undefined);
      stopTlsLog?.();
    },
  };
}
