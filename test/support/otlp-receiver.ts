import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as received over OTLP/HTTP JSON. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** One metric data point as received over OTLP/HTTP JSON: a sum's or a gauge's value, or a histogram's count and sum. */
export interface ReceivedPoint {
  service: string;
  name: string;
  unit: string;
  attributes: Record<string, unknown>;
  /** Sum value (counters), gauge value, or the histogram's count. */
  value: number;
  /** Histogram sum (undefined for sums). */
  sum?: number;
  /** Histogram bucket counts, one more than `bounds` (undefined for sums). */
  bucketCounts?: number[];
  /** Histogram explicit bucket upper bounds (undefined for sums). */
  bounds?: number[];
  /** The metric kind: a sum (counter) or a histogram. */
  kind: 'sum' | 'histogram';
  /** Whether a sum is monotonic (a counter, `_total` in Prometheus). */
  monotonic?: boolean;
  /** The exporting process's resource attributes. */
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttr {
  key: string;
  value: OtlpValue;
}

interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { isMonotonic?: boolean; dataPoints?: Array<{ attributes?: OtlpAttr[]; asInt?: string | number; asDouble?: number }> };
  gauge?: { dataPoints?: Array<{ attributes?: OtlpAttr[]; asInt?: string | number; asDouble?: number }> };
  histogram?: {
    dataPoints?: Array<{
      attributes?: OtlpAttr[];
      count?: string | number;
      sum?: number;
      bucketCounts?: Array<string | number>;
      explicitBounds?: number[];
    }>;
  };
}

function attrs(list: OtlpAttr[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) out[a.key] = a.value.stringValue ?? a.value.intValue ?? a.value.doubleValue ?? a.value.boolValue;
  return out;
}

/**
 * A minimal OTLP/HTTP JSON trace and metrics receiver for tests (no collector can be installed here): the
 * services export to it through OTEL_EXPORTER_OTLP_ENDPOINT, and tests read the spans back.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly points: ReceivedPoint[] = [];
  /** Content types of exports that were not OTLP/JSON (refused with 415). */
  readonly refusedContentTypes: string[] = [];
  private server: Server | undefined;

  /** Starts listening on a free loopback port; returns the endpoint for OTEL_EXPORTER_OTLP_ENDPOINT. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      // Only OTLP/JSON is read here: a protobuf export is refused (415) so a wrong protocol shows.
      if (!String(req.headers['content-type']).startsWith('application/json')) {
        this.refusedContentTypes.push(String(req.headers['content-type']));
        req.resume();
        res.writeHead(415).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            resourceSpans?: Array<{
              resource?: { attributes?: OtlpAttr[] };
              scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
            }>;
            resourceMetrics?: Array<{ resource?: { attributes?: OtlpAttr[] }; scopeMetrics?: Array<{ metrics?: OtlpMetric[] }> }>;
          };
          for (const rm of body.resourceMetrics ?? []) {
            const resource = attrs(rm.resource?.attributes);
            const service = String(resource['service.name'] ?? '');
            for (const sm of rm.scopeMetrics ?? []) {
              for (const m of sm.metrics ?? []) {
                for (const p of [...(m.sum?.dataPoints ?? []), ...(m.gauge?.dataPoints ?? [])]) {
                  this.points.push({
                    service,
                    name: m.name,
                    unit: m.unit ?? '',
                    attributes: attrs(p.attributes),
                    value: Number(p.asInt ?? p.asDouble ?? 0),
                    kind: 'sum',
                    monotonic: m.sum?.isMonotonic === true,
                    resource,
                  });
                }
                for (const p of m.histogram?.dataPoints ?? []) {
                  this.points.push({
                    service,
                    name: m.name,
                    unit: m.unit ?? '',
                    attributes: attrs(p.attributes),
                    value: Number(p.count ?? 0),
                    sum: Number(p.sum ?? 0),
                    bucketCounts: (p.bucketCounts ?? []).map(Number),
                    bounds: p.explicitBounds ?? [],
                    kind: 'histogram',
                    resource,
                  });
                }
              }
            }
          }
          for (const rs of body.resourceSpans ?? []) {
            const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '');
            for (const ss of rs.scopeSpans ?? []) {
              for (const s of ss.spans ?? []) {
                this.spans.push({
                  service,
                  traceId: String(s.traceId),
                  spanId: String(s.spanId),
                  parentSpanId: String(s.parentSpanId ?? ''),
                  name: String(s.name),
                  kind: Number(s.kind),
                  attributes: attrs(s.attributes as OtlpAttr[]),
                });
              }
            }
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Waits until `predicate` holds over the spans received so far (polling), or throws after `timeoutMs`. */
  async waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.spans)) {
      if (Date.now() > deadline) throw new Error(`spans did not arrive in ${timeoutMs} ms (have ${this.spans.length})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits until some received metric point satisfies `predicate`, or throws after `timeoutMs`. */
  async waitForPoint(predicate: (p: ReceivedPoint) => boolean, timeoutMs = 15_000): Promise<ReceivedPoint> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Cumulative temporality: the latest matching point holds the running total.
      const found = this.points.filter(predicate).at(-1);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching metric point in ${timeoutMs} ms (have ${[...new Set(this.points.map((p) => p.name))].join(', ') || 'none'})`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
