import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';

/** The OTLP transports of OTEL_EXPORTER_OTLP_PROTOCOL (OpenTelemetry's exporter specification). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
/** One of OTLP_PROTOCOLS. */
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** A telemetry signal, as it appears in OTEL_EXPORTER_OTLP_<SIGNAL>_* variable names. */
export type Signal = 'traces' | 'metrics';

/**
 * The protocol for `signal`: OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL,
 * else `http/protobuf` (the specification's default). Throws naming the variable on any other value.
 */
export function otlpProtocol(env: NodeJS.ProcessEnv, signal: Signal): OtlpProtocol {
  const specific = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  const variable = env[specific]?.trim() ? specific : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = env[variable]?.trim() || 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(value)) {
    throw new Error(`${variable}=${value} is not an OTLP protocol: use one of ${OTLP_PROTOCOLS.join(', ')}`);
  }
  return value as OtlpProtocol;
}

/**
 * Where `signal` is exported, as the exporter resolves it (for log lines): the signal's own
 * endpoint variable as is; else OTEL_EXPORTER_OTLP_ENDPOINT, plus `/v1/<signal>` over HTTP; else
 * the specification's defaults, localhost:4318 (HTTP) or localhost:4317 (gRPC).
 */
export function otlpEndpoint(env: NodeJS.ProcessEnv, signal: Signal, protocol: OtlpProtocol): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (protocol === 'grpc') return base || 'http://localhost:4317';
  return `${(base || 'http://localhost:4318').replace(/\/+$/, '')}/v1/${signal}`;
}

/** An OTLP span exporter of the official package for `protocol` (configured by the OTEL_EXPORTER_OTLP_* variables). */
export function otlpSpanExporter(protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'grpc') return new GrpcTraceExporter();
  if (protocol === 'http/json') return new JsonTraceExporter();
  return new ProtoTraceExporter();
}

/** An OTLP metric exporter of the official package for `protocol` (configured by the OTEL_EXPORTER_OTLP_* variables). */
export function otlpMetricExporter(protocol: OtlpProtocol): PushMetricExporter {
  if (protocol === 'grpc') return new GrpcMetricExporter();
  if (protocol === 'http/json') return new JsonMetricExporter();
  return new ProtoMetricExporter();
}

/**
 * Makes `exporter` report its failures: the first failed export logs a warning naming the signal and
 * endpoint; later failures stay quiet until an export succeeds again, which logs once that the
 * exporter recovered. So an unreachable collector is visible without one line per export interval.
 * Returns the same exporter (its `export` is wrapped in place, so every other method stays its own).
 */
export function reportFailures<T extends SpanExporter | PushMetricExporter>(
  exporter: T,
  signal: Signal,
  endpoint: string,
  logger: Logger,
): T {
  const original = exporter.export.bind(exporter) as (items: unknown, done: (r: ExportResult) => void) => void;
  let failing = false;
  const wrapped = (items: unknown, done: (r: ExportResult) => void) =>
    original(items, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && !failing) {
        failing = true;
        logger.warn(
          { signal, endpoint, err: result.error },
          `telemetry export of ${signal} to ${endpoint} failed; further failures are not logged until it recovers`,
        );
      } else if (result.code === ExportResultCode.SUCCESS && failing) {
        failing = false;
        logger.info({ signal, endpoint }, `telemetry export of ${signal} to ${endpoint} recovered`);
      }
      done(result);
    });
  (exporter as { export: typeof wrapped }).export = wrapped;
  return exporter;
}
