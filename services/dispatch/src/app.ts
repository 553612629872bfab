import { trace, type Tracer } from '@opentelemetry/api';
import type { NatsConnection } from '@nats-io/transport-node';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  Buckets,
  connectNats,
  createLogger,
  ensureStream,
  EventPublisher,
  openBucket,
  openSnapshotStore,
  streamCreated,
  retryJetStream,
  Shutdown,
  startGrpcServer,
  logTlsReloads,
  channelCredentials,
  SURFACE_BUCKET_MAX_AGE_MS,
  MCP_SESSION_IDLE_TTL_MS,
  type GrpcServerHandle,
  type Logger,
} from '@toolsurface/platform';
import { ConfigView, SnapshotStore, WatchedBucket, type CatalogRecord, type SurfaceRecord } from '@toolsurface/state';
import { CapabilityManager } from './capabilities/capability-manager';
import { CapabilityStatus, capabilityHealthService } from './capabilities/capability-status';
import { DiscoveryClient } from './clients/discovery.client';
import { SurfaceClient } from './clients/surface.client';
import { UnifiedClient } from './clients/unified.client';
import type { DispatchConfig } from './config';
import { DispatchService } from './dispatch.service';
import { sessionIntervals } from './domain/mcp-session-end';
import { SystemTools } from './domain/system-tools';
import { ValidatorCache } from './domain/validators';
import { CatalogChangedPublisher } from './events/catalog-changed.publisher';
import { AuditSpool } from './events/audit-spool';
import { ToolCalledPublisher } from './events/tool-called.publisher';
import { ToolsChangedSubscriber } from './events/tools-changed.subscriber';
import { Elicitations } from './mcp/elicitation';
import { ElicitationRelay } from './mcp/elicitation-relay';
import { dispatchInterceptors, dispatchService } from './grpc/dispatch.handler';
import { McpEndpoint } from './mcp/mcp.endpoint';
import { McpSessions, type McpSessionRecord } from './state/mcp-sessions.store';
import { KvJournal } from './state/journal.store';
import { KvRateLimits, openRateLimitsBucket } from './state/rate-limits.store';
import { BucketSettings } from './state/settings.source';
import { BucketSurfaces } from './state/surfaces.source';

/** Optional collaborators; defaults are the global tracer and a pino logger at the configured level. */
export interface AppDeps {
  tracer?: Tracer;
  logger?: Logger;
  /** false: publish audit events best effort, without the spool (only for the bench's comparison). */
  auditSpool?: boolean;
}

/** The dispatch service: start() connects and serves, stop() shuts down in order (idempotent). */
export interface App {
  readonly logger: Logger;
  /** `mcpPort` is set when the MCP endpoint is configured (MCP_PORT). */
  start(): Promise<{ grpcPort: number; mcpPort?: number }>;
  stop(): Promise<void>;
  /** The capability sessions once started (for operators and tests). */
  capabilities(): CapabilityManager | undefined;
}

/** Wires the service from its config with plain constructor injection. */
export function createApp(config: DispatchConfig, deps: AppDeps = {}): App {
  const logger = deps.logger ?? createLogger('dispatch', config.logLevel);
  const tracer = deps.tracer ?? trace.getTracer('toolsurface-dispatch', '0.1.0');
  let nc: NatsConnection | undefined;
  let grpc: GrpcServerHandle | undefined;
  let audit: ToolCalledPublisher | undefined;
  let capabilities: CapabilityManager | undefined;
  let discovery: DiscoveryClient | undefined;
  let unified: UnifiedClient | undefined;
  let surfaceClient: SurfaceClient | undefined;
  let mcp: McpEndpoint | undefined;
  let toolsChanged: ToolsChangedSubscriber | undefined;
  const watches: Array<WatchedBucket<unknown>> = [];
  const capabilityStatus = new CapabilityStatus(logger);
  const stopTlsLog = logTlsReloads(logger);

  // Order matters: stop taking calls and let in-flight ones finish while capabilities and NATS
  // are still up, then flush audit events, close MCP sessions (children exit), and drain NATS last.
  const shutdown = new Shutdown(logger)
    .add('mcp endpoint', () => mcp?.stop())
    .add('tools-changed subscription', () => toolsChanged?.stop())
    .add('grpc server', () => grpc?.stop(config.shutdownGraceMs))
    .add('audit publishes', () => audit?.flush())
    .add('capability sessions', () => capabilities?.stop())
    .add('capability status', () => capabilityStatus.stop())
    .add('kv watches', () => watches.forEach((w) => w.stop()))
    .add('downstream clients', () => {
      discovery?.close();
      unified?.close();
      surfaceClient?.closeClient();
    })
    .add('nats drain', async () => {
      if (nc && !nc.isClosed()) await nc.drain();
    })
    .add('tls reload log', () => stopTlsLog());

  return {
    logger,
    capabilities: () => capabilities,
    async start() {
      nc = await connectNats(config.natsUrl, 'toolsurface-dispatch', config.nats);
      await ensureStream(nc, logger, { replicas: config.jetstreamReplicas });
      const [configKv, catalogKv, surfacesKv, journalKv, snapshotObjects] = await Promise.all([
        openBucket(nc, Buckets.config, { replicas: config.jetstreamReplicas }),
        openBucket(nc, Buckets.catalog, { replicas: config.jetstreamReplicas }),
        openBucket(nc, Buckets.surfaces, { ttlMs: SURFACE_BUCKET_MAX_AGE_MS, replicas: config.jetstreamReplicas }),
        openBucket(nc, Buckets.journal, { replicas: config.jetstreamReplicas }),
        openSnapshotStore(nc, { replicas: config.jetstreamReplicas }),
      ]);
      const configBucket = new WatchedBucket<unknown>(configKv, logger);
      // The applied config document and the API's overrides, as records (libs/state ConfigView).
      const configView = new ConfigView(configBucket);
      const catalogBucket = new WatchedBucket<CatalogRecord>(catalogKv, logger);
      const surfacesBucket = new WatchedBucket<SurfaceRecord>(surfacesKv, logger);
      watches.push(configBucket, catalogBucket as WatchedBucket<unknown>, surfacesBucket as WatchedBucket<unknown>);
      // Retried while JetStream elects leaders (a cluster coming back): the watches are its first consumers.
      await Promise.all(watches.map((w) => retryJetStream(() => w.start())));

      const events = new EventPublisher(nc, tracer);
      // Events wait in a local spool until the stream stores them (docs/operations.md, "Audit").
      const spool =
        deps.auditSpool === false
          ? undefined
          : new AuditSpool({
              dir: config.audit.spoolDir,
              fsyncIntervalMs: config.audit.fsyncIntervalMs,
              streamTag: await streamCreated(nc),
            });
      audit = new ToolCalledPublisher(events, logger, spool, { failClosed: config.audit.failClosed });
      audit.open();
      capabilities = new CapabilityManager(
        configView,
        catalogBucket,
        new CatalogChangedPublisher(events),
        logger,
        undefined,
        config.allowedCommands,
        capabilityStatus,
      );
      capabilities.start();
      // Serving before the first connection attempts would refuse early calls as unavailable.
      await capabilities.firstAttempts(config.capabilityStartupWaitMs);

      discovery = new DiscoveryClient(config.discoveryAddr, tracer, config.downstreamTimeoutMs, channelCredentials(config.tls));
      unified = new UnifiedClient(config.unifiedAddr, tracer, config.downstreamTimeoutMs, channelCredentials(config.tls));
      // Admission's rate-limit buckets, in NATS: shared by every replica, kept across restarts (docs/DESIGN.md).
      const rateLimiter = new KvRateLimits(await openRateLimitsBucket(nc, config.jetstreamReplicas));
      const settings = new BucketSettings(configView, catalogBucket, logger, config.authRequired);
      const surfaces = new BucketSurfaces(surfacesBucket);
      const snapshots = new SnapshotStore(snapshotObjects);
      const dispatcher = new DispatchService(
        {
          surfaces,
          snapshots,
          settings,
          discovery,
          unified,
          capabilities,
          systemTools: new SystemTools(new KvJournal(journalKv)),
          audit,
        },
        {
          maxArgumentsBytes: config.maxArgumentsBytes,
          tracer,
          rateLimiter,
          validators: new ValidatorCache(20_000, (p) =>
            logger.warn(p, 'a tool input schema does not compile; its arguments are not checked here'),
          ),
        },
      );
      let mcpPort: number | undefined;
      if (config.mcp) {
        // The second front of dispatch: MCP clients, in process on the same call path (src/mcp/).
        const sessionsBucket = new WatchedBucket<McpSessionRecord>(
          // The max age is a backstop for when no replica runs: the replicas end idle sessions (src/mcp/session-expiry.ts).
          await openBucket(nc, Buckets.mcpSessions, {
            ttlMs: Math.max(MCP_SESSION_IDLE_TTL_MS, 2 * config.mcp.sessionIdleMs),
            replicas: config.jetstreamReplicas,
          }),
          logger,
        );
        watches.push(sessionsBucket as WatchedBucket<unknown>);
        await retryJetStream(() => sessionsBucket.start());
        surfaceClient = new SurfaceClient(
          config.mcp.surfaceResolverAddr,
          tracer,
          config.downstreamTimeoutMs,
          channelCredentials(config.tls),
          config.mcp.orchestratorToken,
        );
        const sessionTimeouts = { idleMs: config.mcp.sessionIdleMs, graceMs: config.mcp.streamGraceMs };
        const { touchMs } = sessionIntervals(sessionTimeouts);
        mcp = new McpEndpoint(dispatcher, surfaceClient, new McpSessions(sessionsBucket, logger, touchMs), configView, {
          sessionTimeouts,
          host: config.mcp.host,
          port: config.mcp.port,
          maxBodyBytes: config.maxArgumentsBytes + 64 * 1024,
          logger,
          version: '0.1.0',
          tracer,
          ...(config.mcp.oauth ? { oauth: config.mcp.oauth } : {}),
          // A person answering for a supervised gateway's unified_tool (src/mcp/elicitation.ts).
          elicitations: new Elicitations({
            callAnsweredByPerson: (req, person, deadline, caller) => dispatcher.callAnsweredByPerson(req, person, deadline, caller),
            auditPersonRefused: (req, person, caller) => dispatcher.auditPersonRefused(req, person, caller),
            schemaOf: async (surfaceId, tool) => {
              const surface = await surfaces.get(surfaceId);
              return surface ? (await snapshots.get(surface.snapshotId)).byName.get(tool)?.inputSchema : undefined;
            },
            supervised: (p) => p.kind === 'gateway' && settings.autonomy(p) === 'supervised',
            relay: new ElicitationRelay(logger, nc),
            validator: new AjvJsonSchemaValidator(),
            logger,
          }),
        });
        mcpPort = await mcp.start();
        // What changes a principal's tools, wherever it happened: its MCP sessions are told (src/mcp/README.md).
        const endpoint = mcp;
        toolsChanged = new ToolsChangedSubscriber(nc, async (change) => void (await endpoint.toolsChanged(change)), { tracer, logger });
        await toolsChanged.start();
        logger.info({ host: config.mcp.host, port: mcpPort, oauthIssuer: config.mcp.oauth?.issuer }, 'MCP endpoint serving');
      }
      grpc = await startGrpcServer(
        config.grpcHost,
        config.grpcPort,
        [dispatchService(dispatcher, settings, { tracer, logger })],
        { interceptors: dispatchInterceptors(dispatcher, settings) },
        config.tls,
      );
      // Each capability's state as a health detail: service "toolsurface.capability.<name>" is SERVING while connected.
      const health = grpc.health;
      const serve = (s: { capability: string; connected: boolean }, removed: boolean) =>
        health.setStatus(capabilityHealthService(s.capability), removed ? 'UNKNOWN' : s.connected ? 'SERVING' : 'NOT_SERVING');
      for (const s of capabilityStatus.onChange(serve)) serve(s, false);
      logger.info({ port: grpc.port }, 'dispatch serving');
      return { grpcPort: grpc.port, ...(mcpPort === undefined ? {} : { mcpPort }) };
    },
    stop: () => shutdown.run(),
  };
}
