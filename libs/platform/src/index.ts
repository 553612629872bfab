export { Attr } from '@toolsurface/core';
export { startTelemetry, startServiceTelemetry, serviceResource, DURATION_BUCKETS_S } from './telemetry';
export { otlpProtocol, otlpEndpoint, OTLP_PROTOCOLS } from './telemetry-exporters';
export type { OtlpProtocol } from './telemetry-exporters';
export {
  errorInfoOf,
  decodeRpcStatus,
  decodeErrorInfo,
  statusDetails,
  STATUS_DETAILS_KEY,
  ERROR_DOMAIN,
  ERROR_INFO_TYPE_URL,
} from './grpc-error-details';
export type { ErrorInfo, RpcStatus } from './grpc-error-details';
export { addReflection, toolsurfaceProtos } from './grpc-reflection';
export type { Telemetry } from './telemetry';
export { createLogger } from './logger';
export type { Logger } from './logger';
export { toGrpcStatus, toServiceError, fromServiceError, REASON_METADATA_KEY } from './grpc-status';
export { actorOfCall, bearerInterceptor, callerOf, unary, startGrpcServer, callUnary, CLIENT_OPTIONS } from './grpc';
export {
  envTls,
  tlsEnv,
  servesTls,
  serverCredentials,
  channelCredentials,
  peerIdentities,
  onTlsReload,
  logTlsReloads,
  TLS_ENV,
  TLS_ALLOWED_PEERS_ENV,
  TLS_RELOAD_ENV,
  DEFAULT_TLS_RELOAD_INTERVAL_MS,
} from './tls';
export type { TlsReloadEvent } from './tls';
export type { TlsFiles } from './tls';
export type { CallInfo, GrpcDeps, GrpcServerHandle } from './grpc';
export {
  STREAM,
  Subjects,
  Buckets,
  SNAPSHOT_OBJECT_STORE,
  SURFACE_BUCKET_MAX_AGE_MS,
  MCP_SESSION_IDLE_TTL_MS,
  connectNats,
  inboxPrefixOf,
  envNats,
  isNatsUrlList,
  ensureStream,
  streamCreated,
  openBucket,
  openSnapshotStore,
  jetstreamReplicas,
  isTransientJetStreamError,
  retryJetStream,
  STREAM_DUPLICATE_WINDOW_MS,
  EventPublisher,
  contextFromHeaders,
  runDurableConsumer,
} from './nats';
export type { Disposition, RunningConsumer, NatsAuth, JetStreamOptions } from './nats';
export { Shutdown } from './lifecycle';
export {
  principalFromProto,
  principalToProto,
  modeToProto,
  modeFromProto,
  resolvedModeToProto,
  autonomyToProto,
  autonomyFromProto,
  toolToProto,
} from './proto-convert';
export { envInt, envBool, envLogLevel, LOG_LEVELS } from './env';
