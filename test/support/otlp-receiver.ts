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

function attrs(list: OtlpAttr[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) out[a.key] = a.value.stringValue ?? a.value.intValue ?? a.value.doubleValue ?? a.value.boolValue;
  return out;
}

/**
 * A minimal OTLP/HTTP JSON trace receiver for tests (no collector can be installed here): the
 * services export to it through OTEL_EXPORTER_OTLP_ENDPOINT, and tests read the spans back.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | undefined;

  /** Starts listening on a free loopback port; returns the endpoint for OTEL_EXPORTER_OTLP_ENDPOINT. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            resourceSpans?: Array<{ resource?: { attributes?: OtlpAttr[] }; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
          };
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

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
