import {
  InterceptingCall,
  Metadata,
  Server,
  status as GrpcStatus,
  type Interceptor,
  type Client,
  type handleUnaryCall,
  type ServerOptions,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import {
  ACTOR_VIA_METADATA,
  AppError,
  ReasonCode,
  VIA_PORTAL,
  actorOf,
  authenticate,
  type Caller,
  type OrchestratorConfig,
} from '@toolsurface/core';
import type { Logger } from 'pino';
import { Attr, INSTRUMENTATION_SCOPE, Metric } from '@toolsurface/core';
import { addReflection } from './grpc-reflection';
import { fromServiceError, toServiceError } from './grpc-status';
import { peerIdentities, serverCredentials, type TlsFiles } from './tls';

const metadataGetter = {
  get: (carrier: Metadata, key: string) => {
    const v = carrier.get(key);
    return v.length === 0 ? undefined : v.map(String);
  },
  keys: (carrier: Metadata) => Object.keys(carrier.getMap()),
};
const metadataSetter = { set: (carrier: Metadata, key: string, value: string) => carrier.set(key, value) };

// A request that did not decode reaches the handler as this marker, so it gets INVALID_ARGUMENT with a
// reason instead of grpc-js's hard-coded INTERNAL "Error deserializing request".
const MALFORMED = Symbol('malformed-request');

function tolerant(definition: ServiceDefinition): ServiceDefinition {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(definition)) {
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return method.requestDeserialize(bytes);
        } catch (e) {
          return { [MALFORMED]: (e as Error).message };
        }
      },
    };
  }
  return out as ServiceDefinition;
}

let rpcDuration: Histogram | undefined;
/** rpc.status_code of a gRPC status: its name (`OK`, `NOT_FOUND`), as the RPC semantic conventions ask for gRPC. */
function statusName(code: number): string {
  return GrpcStatus[code] ?? String(code);
}

/** rpc.server.call.duration, created on first use (after startTelemetry registered the meter provider). */
function rpcDurationHistogram(): Histogram {
  rpcDuration ??= metrics
    .getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version)
    .createHistogram(Metric.RPC_SERVER_DURATION.name, {
      unit: Metric.RPC_SERVER_DURATION.unit,
      description: Metric.RPC_SERVER_DURATION.description,
    });
  return rpcDuration;
}

/** The caller of a gRPC call, from its `authorization` metadata (see core's `authenticate`). */
export function callerOf(metadata: Metadata, orchestrators: readonly OrchestratorConfig[] | undefined): Caller {
  const raw = metadata.get('authorization')[0];
  return authenticate(typeof raw === 'string' ? raw : undefined, orchestrators);
}

/** Who made a change requested by `caller` (core's `actorOf`), with the `toolsurface-via` metadata the portal sets. */
export function actorOfCall(metadata: Metadata, caller: Caller): string {
  const via = metadata.get(ACTOR_VIA_METADATA)[0];
  return actorOf(caller, typeof via === 'string' ? via : undefined);
}

/** What a handler gets besides the request: the call's metadata and its remaining deadline. */
export interface CallInfo {
  metadata: Metadata;
  /** Absolute deadline in ms since epoch, or Infinity. */
  deadline: number;
}

/** Dependencies of the gRPC adapters. */
export interface GrpcDeps {
  tracer: Tracer;
  logger: Logger;
}

/**
 * Wraps an async handler as a grpc-js unary handler: continues the caller's trace from metadata,
 * opens a SERVER span `<service>/<method>`, maps thrown errors to gRPC status with the reason in
 * details and `toolsurface-reason` metadata. Non-AppErrors are logged and become INTERNAL.
 */
export function unary<Req, Res>(
  service: string,
  method: string,
  fn: (req: Req, info: CallInfo) => Promise<Res>,
  deps: GrpcDeps,
  /** Called for a request that does not decode, before it is refused (e.g. to audit it). */
  onMalformed?: (info: CallInfo) => void,
): handleUnaryCall<Req, Res> {
  // The same for every call of the method: built once here, not per call.
  const rpc = `${service}/${method}`;
  const spanOptions: SpanOptions = {
    kind: SpanKind.SERVER,
    attributes: { [Attr.RPC_SYSTEM_NAME]: 'grpc', [Attr.RPC_METHOD]: rpc },
  };
  /** rpc.server.call.duration's attributes by status code, built on first use. */
  const durationAttributes: Attributes[] = [];
  const recordDuration = (started: number, code: number) => {
    durationAttributes[code] ??= { [Attr.RPC_SYSTEM_NAME]: 'grpc', [Attr.RPC_METHOD]: rpc, [Attr.RPC_STATUS_CODE]: statusName(code) };
    rpcDurationHistogram().record((performance.now() - started) / 1000, durationAttributes[code]);
  };
  return (call: ServerUnaryCall<Req, Res>, callback) => {
    const started = performance.now();
    const parent = propagation.extract(context.active(), call.metadata, metadataGetter);
    const span = deps.tracer.startSpan(rpc, spanOptions, parent);
    const deadlineRaw = call.getDeadline();
    const deadline = deadlineRaw instanceof Date ? deadlineRaw.getTime() : Number(deadlineRaw);
    context.with(trace.setSpan(parent, span), () => {
      const req = call.request as unknown;
      const info: CallInfo = { metadata: call.metadata, deadline: Number.isFinite(deadline) ? deadline : Infinity };
      let pending: Promise<Res>;
      if (req !== null && typeof req === 'object' && MALFORMED in req) {
        pending = new Promise<Res>(() => {
          onMalformed?.(info);
          throw new AppError(ReasonCode.INVALID_REQUEST, `the request is not a valid ${method} protobuf message`);
        });
      } else {
        // A handler that throws before its first await still becomes a rejection, so its status is
        // mapped. (Its own promise is used as it is: no wrapping promise, no extra turns.)
        try {
          pending = Promise.resolve(fn(call.request, info));
        } catch (e) {
          pending = Promise.reject(e);
        }
      }
      pending.then(
        (res) => {
          span.setAttribute(Attr.RPC_STATUS_CODE, 'OK');
          span.end();
          recordDuration(started, 0);
          callback(null, res);
        },
        (err: unknown) => {
          const se = toServiceError(err);
          if (!(err instanceof AppError) || err.code === ReasonCode.INTERNAL) {
            deps.logger.error({ err, rpc }, 'unhandled error in handler');
          }
          span.setAttribute(Attr.RPC_STATUS_CODE, statusName(se.code ?? 2));
          span.setAttribute(Attr.ERROR_TYPE, err instanceof AppError ? err.code : 'INTERNAL');
          span.setStatus({ code: SpanStatusCode.ERROR, message: se.details });
          span.end();
          recordDuration(started, se.code ?? 2);
          callback(se as never, null);
        },
      );
    });
  };
}

/**
 * Wraps every unary handler so that only clients whose certificate names one of `allowed` (see
 * peerIdentities) reach it; others get UNAUTHENTICATED. The health service is not wrapped.
 */
function onlyPeers(impl: UntypedServiceImplementation, allowed: ReadonlySet<string>): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(impl)) {
    out[name] = ((call: ServerUnaryCall<unknown, unknown>, callback: (err: unknown, res: unknown) => void) => {
      const ids = peerIdentities(call.getAuthContext().sslPeerCertificate);
      if (!ids.some((id) => allowed.has(id))) {
        const err = toServiceError(
          new AppError(ReasonCode.UNAUTHENTICATED, `the client certificate (${ids.join(', ') || 'none'}) may not call this service`),
        );
        callback(err, null);
        return;
      }
      (handler as (c: unknown, cb: unknown) => void)(call, callback);
    }) as UntypedServiceImplementation[string];
  }
  return out;
}

/** A gRPC server with the standard health service. */
export interface GrpcServerHandle {
  server: Server;
  health: HealthImplementation;
  port: number;
  /** Health NOT_SERVING, tryShutdown, forceShutdown after `graceMs`. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a grpc-js server on host:port (port 0 picks a free one) with the given services and the
 * gRPC health service (every listed service and "" set to SERVING once bound) and server reflection
 * describing the listed services (names fully qualified, from proto/; see addReflection). `tls` switches on
 * TLS or mutual TLS (see TlsFiles); without it the server speaks plaintext.
 */
export async function startGrpcServer(
  host: string,
  port: number,
  services: Array<{ name: string; definition: ServiceDefinition; implementation: UntypedServiceImplementation }>,
  options: ServerOptions = {},
  tls?: TlsFiles,
): Promise<GrpcServerHandle> {
  const server = new Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024, ...options });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  addReflection(
    server,
    services.map((s) => s.name),
  );
  const allowed = tls?.allowedPeers?.length ? new Set(tls.allowedPeers) : undefined;
  for (const s of services) server.addService(tolerant(s.definition), allowed ? onlyPeers(s.implementation, allowed) : s.implementation);
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, serverCredentials(tls), (err, p) => (err ? reject(err) : resolve(p)));
  });
  health.setStatus('', 'SERVING');
  for (const s of services) health.setStatus(s.name, 'SERVING');
  let stopping: Promise<void> | undefined;
  return {
    server,
    health,
    port: bound,
    stop(graceMs = 5000) {
      stopping ??= new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        for (const s of services) health.setStatus(s.name, 'NOT_SERVING');
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return stopping;
    },
  };
}

/**
 * Client options common to every downstream service. round_robin spreads calls over every address
 * the target resolves to (each replica behind a headless Service, `dns:///name:port`); with one
 * address it behaves as pick_first.
 */
export const CLIENT_OPTIONS = {
  'grpc.max_receive_message_length': 16 * 1024 * 1024,
  'grpc.max_send_message_length': 16 * 1024 * 1024,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
} as const;

/**
 * A client interceptor that sends `authorization: Bearer <token>` on every call (grpc-js refuses
 * call credentials on an insecure channel, and the gateway may run without TLS on a loopback
 * address, so the header is set here on either kind of channel), and `toolsurface-via` when `via` is given.
 */
export function bearerInterceptor(token: string, via?: typeof VIA_PORTAL): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', `Bearer ${token}`);
        if (via) metadata.set(ACTOR_VIA_METADATA, via);
        next(metadata, listener);
      },
    });
}

type UnaryMethod<Req, Res> = (req: Req, metadata: Metadata, options: { deadline: number }, cb: (err: unknown, res: Res) => void) => unknown;

/**
 * Calls a unary method with a deadline (ms from now, capped by `parentDeadline`), the current trace
 * context in metadata and a CLIENT span; a failure comes back as an AppError with its reason code.
 */
export function callUnary<Req, Res>(
  client: Client,
  service: string,
  method: string,
  fn: UnaryMethod<Req, Res>,
  req: Req,
  tracer: Tracer,
  timeoutMs: number,
  parentDeadline = Infinity,
): Promise<Res> {
  const span = tracer.startSpan(`${service}/${method}`, {
    kind: SpanKind.CLIENT,
    attributes: { [Attr.RPC_SYSTEM_NAME]: 'grpc', [Attr.RPC_METHOD]: `${service}/${method}` },
  });
  const ctx = trace.setSpan(context.active(), span);
  const metadata = new Metadata();
  propagation.inject(ctx, metadata, metadataSetter);
  const deadline = Math.min(Date.now() + timeoutMs, parentDeadline);
  return new Promise<Res>((resolve, reject) => {
    fn.call(client, req, metadata, { deadline }, (err, res) => {
      if (err) {
        const app = fromServiceError(err);
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'number') span.setAttribute(Attr.RPC_STATUS_CODE, statusName(code));
        span.setAttribute(Attr.ERROR_TYPE, app.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: app.message });
        span.end();
        reject(app);
      } else {
        span.setAttribute(Attr.RPC_STATUS_CODE, 'OK');
        span.end();
        resolve(res);
      }
    });
  });
}
