import { INSTRUMENTATION_SCOPE } from '@toolsurface/core';
import { metrics, type Meter, type Tracer } from '@opentelemetry/api';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  AggregationType,
  ConsoleMetricExporter,
  InstrumentType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { createLogger, type Logger } from './logger';
import { otlpEndpoint, otlpMetricExporter, otlpProtocol, otlpSpanExporter, reportFailures } from './telemetry-exporters';

/** A started tracer and meter provider and their flush-and-stop hook. */
export interface Telemetry {
  tracer: Tracer;
  /** The meter of this provider (the first provider started in a process is also the global one, `metrics.getMeter`). */
  meter: Meter;
  /** The resource every span and metric carries (service, instance, host, OTEL_RESOURCE_ATTRIBUTES). */
  resource: Resource;
  shutdown(): Promise<void>;
}

const SCOPE = INSTRUMENTATION_SCOPE;

/**
 * Bucket boundaries (seconds) of every duration histogram: the ones OpenTelemetry's HTTP and RPC
 * semantic conventions advise for `*.duration` in `s`, from 5 ms to 10 s, with 0.5 ms and 1 ms added
 * in front because most gateway RPCs (resolve, admission refusals) finish in under a millisecond.
 */
export const DURATION_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Every histogram in seconds gets DURATION_BUCKETS_S (the SDK's default buckets are sized for ms). */
const DURATION_VIEW: ViewOptions = {
  instrumentType: InstrumentType.HISTOGRAM,
  instrumentUnit: 's',
  aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: DURATION_BUCKETS_S } },
};

function exporterChoice(env: NodeJS.ProcessEnv, variable: string, signalEndpoint: string): string {
  const hasEndpoint = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env[signalEndpoint]);
  return (env[variable] ?? (hasEndpoint ? 'otlp' : 'none')).trim();
}

function metricExporter(name: string, env: NodeJS.ProcessEnv, logger: Logger): PushMetricExporter | undefined {
  if (name === 'otlp') {
    const protocol = otlpProtocol(env, 'metrics');
    return reportFailures(otlpMetricExporter(protocol), 'metrics', otlpEndpoint(env, 'metrics', protocol), logger);
  }
  if (name === 'console') return new ConsoleMetricExporter();
  return undefined;
}

function spanProcessors(name: string, env: NodeJS.ProcessEnv, logger: Logger): SpanProcessor[] {
  if (name === 'otlp') {
    const protocol = otlpProtocol(env, 'traces');
    const exporter = reportFailures(otlpSpanExporter(protocol), 'traces', otlpEndpoint(env, 'traces', protocol), logger);
    return [new BatchSpanProcessor(exporter)];
  }
  if (name === 'console') return [new BatchSpanProcessor(new ConsoleSpanExporter())];
  return [];
}

/**
 * The resource of a service, later sources winning: the SDK's defaults (telemetry.sdk.*), then
 * `service.name` = `serviceName` and `service.namespace` = toolsurface, then a random
 * `service.instance.id` (so two replicas never report the same series) and `host.name`, then the
 * SDK's envDetector, which reads OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME from process.env
 * (so a pod can set service.instance.id to its name).
 */
export function serviceResource(serviceName: string): Resource {
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName, 'service.namespace': 'toolsurface' }))
    .merge(detectResources({ detectors: [serviceInstanceIdDetector, hostDetector, envDetector] }));
}

/**
 * startTelemetry for a service's main: an OTEL_* variable it refuses ends start-up with one
 * `<service>: bad configuration: …` line and `exitCode`, as the service's own variables do, rather
 * than a stack trace.
 */
export function startServiceTelemetry(serviceName: string, exitCode: number): Telemetry {
  try {
    return startTelemetry(serviceName);
  } catch (e) {
    console.error(`${serviceName}: bad configuration: ${(e as Error).message}`);
    process.exit(exitCode);
  }
}

/**
 * Starts tracing and metrics before any application code, configured only by the standard OTEL_*
 * variables: OTEL_SERVICE_NAME (default `serviceName`), OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER (`otlp`, `console` or `none`; default `otlp` when an
 * OTLP endpoint variable is set, else `none`), OTEL_EXPORTER_OTLP_PROTOCOL and its per-signal
 * variants (`http/protobuf` by default, `http/json`, `grpc`), OTEL_EXPORTER_OTLP_ENDPOINT /
 * OTEL_EXPORTER_OTLP_{TRACES,METRICS}_ENDPOINT and the rest of OTEL_EXPORTER_OTLP_* and OTEL_BSP_*
 * (read by the SDK), OTEL_METRIC_EXPORT_INTERVAL (ms, default 60 000). W3C trace context
 * propagation; duration histograms bucketed by DURATION_BUCKETS_S; an exporter that fails logs it
 * once on `logger` (see reportFailures). Throws on an unknown OTLP protocol, naming the variable.
 */
export function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger(serviceName),
): Telemetry {
  const resource = serviceResource(serviceName);
  const tracesExporter = exporterChoice(env, 'OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const provider = new NodeTracerProvider({ resource, spanProcessors: spanProcessors(tracesExporter, env, logger) });
  provider.register();
  const exporter = metricExporter(exporterChoice(env, 'OTEL_METRICS_EXPORTER', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'), env, logger);
  // OTEL_METRIC_EXPORT_INTERVAL, ms (the SDK's default is 60 000).
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  const meterProvider = new MeterProvider({
    resource,
    views: [DURATION_VIEW],
    readers: exporter
      ? [
          new PeriodicExportingMetricReader({
            exporter,
            exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
          }),
        ]
      : [],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    tracer: provider.getTracer(SCOPE.name, SCOPE.version),
    meter: meterProvider.getMeter(SCOPE.name, SCOPE.version),
    resource,
    async shutdown() {
      await Promise.all([provider.forceFlush(), meterProvider.forceFlush()]).catch(() => undefined);
      await Promise.all([provider.shutdown(), meterProvider.shutdown()]).catch(() => undefined);
    },
  };
}
