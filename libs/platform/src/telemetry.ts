import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A started tracer provider and its flush-and-stop hook. */
export interface Telemetry {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

/**
 * Starts tracing before any application code, configured only by the standard OTEL_* variables:
 * OTEL_SERVICE_NAME (default `serviceName`), OTEL_TRACES_EXPORTER (`otlp`, `console` or `none`;
 * default `otlp` when an OTLP endpoint variable is set, else `none`), OTEL_EXPORTER_OTLP_ENDPOINT /
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_BSP_* (read by the SDK). W3C trace context propagation.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  const hasEndpoint = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const exporterName = (env.OTEL_TRACES_EXPORTER ?? (hasEndpoint ? 'otlp' : 'none')).trim();
  const spanProcessors: SpanProcessor[] = [];
  if (exporterName === 'otlp') spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  else if (exporterName === 'console') spanProcessors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName, 'service.namespace': 'toolsurface' }),
    spanProcessors,
  });
  provider.register();
  return {
    tracer: trace.getTracer('toolsurface', '0.1.0'),
    async shutdown() {
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
