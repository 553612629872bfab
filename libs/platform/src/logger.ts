import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

/** A pino JSON logger whose lines carry `trace_id` and `span_id` of the active span. Level from `level`. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    mixin() {
      const ctx = trace.getActiveSpan()?.spanContext();
      return ctx ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
    },
  });
}
export type { Logger } from 'pino';
