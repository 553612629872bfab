import { INSTRUMENTATION_SCOPE } from '@toolsurface/core';
import { metrics, trace, type Meter, type Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';

/** A started tracer and meter provider and their flush-and-stop hook. */
export interface Telemetry {
  tracer: Tracer;
  /** The meter the services' instruments come from (also the global one, `metrics.getMeter`). */
  meter: Meter;
  shutdown(): Promise<void>;
}

const SCOPE = INSTRUMENTATION_SCOPE;

function exporterChoice(env: NodeJS.ProcessEnv, variable: string, signalEndpoint: string): string {
  const hasEndpoint = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env[signalEndpoint]);
  return (env[variable] ?? (hasEndpoint ? 'otlp' : 'none')).trim();
}

function metricExporter(name: string): PushMetricExporter | undefined {
  if (name === 'otlp') return new OTLPMetricExporter();
  if (name === 'console') return new ConsoleMetricExporter();
  return undefined;
}

/**
 * Starts tracing and metrics before any application code, configured only by the standard OTEL_*
 * variables: OTEL_SERVICE_NAME (default `serviceName`), OTEL_TRACES_EXPORTER and
 * OTEL_METRICS_EXPORTER (`otlp`, `console` or `none`; default `otlp` when an OTLP endpoint variable
 * is set, else `none`), OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_{TRACES,METRICS}_ENDPOINT,
 * OTEL_BSP_* (read by the SDK), OTEL_METRIC_EXPORT_INTERVAL (ms, default 60 000). W3C trace
 * context propagation. Instruments are created through the global meter (`metrics.getMeter`).
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  const exporterName = exporterChoice(env, 'OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const spanProcessors: SpanProcessor[] = [];
  if (exporterName === 'otlp') spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  else if (exporterName === 'console') spanProcessors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
  const resource = resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName, 'service.namespace': 'toolsurface' });
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register();
  const exporter = metricExporter(exporterChoice(env, 'OTEL_METRICS_EXPORTER', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'));
  // OTEL_METRIC_EXPORT_INTERVAL, ms (the SDK's default is 60 000).
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  const meterProvider = new MeterProvider({
    resource,
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
    tracer: trace.getTracer(SCOPE.name, SCOPE.version),
    meter: metrics.getMeter(SCOPE.name, SCOPE.version),
    async shutdown() {
      await Promise.all([provider.forceFlush(), meterProvider.forceFlush()]).catch(() => undefined);
      await Promise.all([provider.shutdown(), meterProvider.shutdown()]).catch(() => undefined);
    },
  };
}
