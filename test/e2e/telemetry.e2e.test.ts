import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPackageDefinition, credentials, status, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorInfoOf, decodeRpcStatus, STATUS_DETAILS_KEY } from '@toolsurface/platform';
import { callError, principalOf, startGateway, textOf, unaryCall, type GatewayFixture, type ReceivedPoint } from '../support';

// Issue 39's telemetry and gRPC "done when": the real stack exports over OTLP to the test's
// receiver; the dashboard's PromQL is checked against what arrives; reflection and ErrorInfo are
// read with standard clients.
const root = join(import.meta.dirname, '..', '..');
const INSTANCE_TAG = `tel-${process.pid}`;
let g: GatewayFixture;

beforeAll(async () => {
  g = await startGateway(join(root, 'test', 'fixtures', 'telemetry.yaml'), ['everything'], {
    env: { OTEL_RESOURCE_ATTRIBUTES: `deployment.environment.name=${INSTANCE_TAG},team=tools` },
  });
  // Traffic for every panel: direct calls (ok, refused), discovery (discover_tools, execute_tool
  // ranked and not), unified, and gRPC calls that fail.
  const direct = await g.clients.open('agent:tel-direct');
  for (let i = 0; i < 4; i++) await g.clients.call(direct.surfaceId, 'echo', { message: `hi ${i}` });
  await g.clients.call(direct.surfaceId, 'get-sum', { a: 13, b: 1 });
  await g.clients.call(direct.surfaceId, 'get-sum', { a: 2, b: 1 });
  // A tool that fails inside the MCP server: it refuses any URL protocol but http(s) and data.
  const failed = await g.clients.call(direct.surfaceId, 'gzip-file-as-resource', { name: 'x.gz', data: 'ftp://example.invalid/x' });
  expect(textOf(failed.contentJson)).toMatch(/Unsupported URL protocol/);
  // A slower tool call (about 0.3 s), so tool latencies span more than the millisecond buckets.
  await g.clients.call(direct.surfaceId, 'trigger-long-running-operation', { duration: 0.3, steps: 1 });
  const disc = await g.clients.open('agent:tel-discovery');
  const found = await g.clients.call(disc.surfaceId, 'discover_tools', { query: 'echo a message back', limit: 5 });
  expect(textOf(found.contentJson)).toContain('echo');
  await g.clients.call(disc.surfaceId, 'execute_tool', { name: 'echo', arguments: { message: 'ranked' } });
  await g.clients.call(disc.surfaceId, 'execute_tool', { name: 'get-tiny-image', arguments: {} });
  const uni = await g.clients.open('agent:tel-unified');
  await g.clients.call(uni.surfaceId, 'unified_tool', { request: 'What is the sum of a=17 and b=25?' });
  await callError(g.clients.call('no-such-surface', 'echo', {}));
}, 180_000);

afterAll(async () => {
  await g?.stop();
});

/** The latest point (cumulative) of each series of `name` from `service`. */
function latest(name: string, service?: string): ReceivedPoint[] {
  const bySeries = new Map<string, ReceivedPoint>();
  for (const p of g.otlp.points) {
    if (p.name !== name || (service && p.service !== service)) continue;
    bySeries.set(`${p.service}|${String(p.resource['service.instance.id'])}|${JSON.stringify(p.attributes)}`, p);
  }
  return [...bySeries.values()];
}

describe('metrics over OTLP', () => {
  it('spread gRPC and tool latencies over several of the advised buckets', async () => {
    await g.otlp.waitForPoint((p) => p.name === 'toolsurface.tool.call.duration' && p.value >= 4, 30_000);
    // Summed over series: how many calls each bucket holds.
    const bucketCounts = (points: ReceivedPoint[]): number[] =>
      points[0].bounds!.map((_, i) => points.reduce((n, p) => n + (p.bucketCounts?.[i] ?? 0), 0));
    for (const name of ['rpc.server.call.duration', 'toolsurface.tool.call.duration', 'mcp.client.operation.duration']) {
      // each service exports on its own interval: a histogram's latest point may not yet hold the
      // slower calls when another's does, so wait (up to 30 s) for the export that holds them
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
        const points = latest(name);
        if (points.length > 0 && points[0].bounds && bucketCounts(points).filter((c) => c > 0).length >= 3) break;
      }
      const points = latest(name);
      expect(points.length, name).toBeGreaterThan(0);
      expect(points[0].bounds?.[0], `${name}: first bound, s`).toBe(0.0005);
      expect(points[0].bounds?.at(-1), `${name}: last bound, s`).toBe(10);
      const counts = bucketCounts(points);
      expect(counts.filter((c) => c > 0).length, `${name} buckets used: ${counts.join(',')}`).toBeGreaterThanOrEqual(3);
    }
  }, 150_000);

  it('carry OTEL_RESOURCE_ATTRIBUTES and a distinct service.instance.id per process', async () => {
    const services = ['discovery', 'dispatch', 'surface-resolver', 'unified-mapper'];
    for (const service of services) await g.otlp.waitForPoint((p) => p.service === service, 30_000);
    const byService = new Map<string, Record<string, unknown>>();
    for (const p of g.otlp.points) byService.set(p.service, p.resource);
    expect([...byService.keys()].sort()).toEqual(services);
    for (const [service, resource] of byService) {
      expect(resource, service).toMatchObject({
        'deployment.environment.name': INSTANCE_TAG,
        team: 'tools',
        'service.namespace': 'toolsurface',
      });
    }
    const instances = new Set([...byService.values()].map((r) => r['service.instance.id']));
    expect(instances.size).toBe(4);
  });

  it("have every metric, label and label value the dashboard's PromQL uses", async () => {
    await g.otlp.waitForPoint((p) => p.name === 'toolsurface.discovery.rank');
    await g.otlp.waitForPoint((p) => p.name === 'mcp.client.operation.duration' && p.attributes['error.type'] !== undefined);
    await g.otlp.waitForPoint((p) => p.name === 'toolsurface.tool.calls' && p.attributes['toolsurface.outcome'] === 'refused');
    const prom = prometheusSeries(g.otlp.points);
    const dashboard = JSON.parse(readFileSync(join(root, 'deploy', 'grafana', 'toolsurface.json'), 'utf8')) as Dashboard;
    const exprs = dashboardExprs(dashboard);
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const missing: string[] = [];
    for (const expr of exprs) {
      const q = parsePromql(expr);
      expect(q.metrics.length, expr).toBeGreaterThan(0);
      for (const m of q.metrics) {
        const series = prom.get(m);
        if (!series) {
          missing.push(`${m} (in ${expr})`);
          continue;
        }
        for (const l of q.labels) if (!series.labels.has(l)) missing.push(`${m}{${l}} (in ${expr})`);
        for (const [l, v] of q.equals) if (!series.values.get(l)?.has(v)) missing.push(`${m}{${l}="${v}"} (in ${expr})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('gRPC for standard tools', () => {
  it('every service answers reflection: lists its methods and describes their messages', async () => {
    const services: Array<[string, string, string[]]> = [
      [g.stack.addresses.resolver, 'toolsurface.v1.SurfaceService', ['OpenSurface', 'GetSurface', 'CloseSurface']],
      [g.stack.addresses.resolver, 'toolsurface.v1.PresentationService', ['GetPresentation', 'ApplyConfig']],
      [g.stack.addresses.dispatch, 'toolsurface.v1.DispatchService', ['CallTool']],
      [g.stack.addresses.discovery, 'toolsurface.v1.DiscoveryService', ['DiscoverTools', 'GetToolSchema']],
      [g.stack.addresses.unified, 'toolsurface.v1.UnifiedService', ['MapRequest']],
    ];
    for (const [address, service, someMethods] of services) {
      const listed = await reflect(address, { list_services: '' });
      const names = (listed.list_services_response as { service: Array<{ name: string }> }).service.map((s) => s.name);
      expect(names, address).toContain(service);
      expect(names, address).toContain('grpc.health.v1.Health');
      const file = await reflect(address, { file_containing_symbol: service });
      const fds = describe_(file);
      const svc = fds.service(service);
      expect(svc, service).toBeDefined();
      const methods = svc!.method.map((m) => m.name);
      expect(methods.length, service).toBeGreaterThan(0);
      for (const m of someMethods) expect(methods, service).toContain(m);
      // Each method's request message is described (its fields), as grpcurl describe shows.
      for (const m of svc!.method) {
        const msg = fds.message(m.inputType.replace(/^\./, ''));
        expect(msg, `${service}/${m.name} input ${m.inputType}`).toBeDefined();
      }
    }
    const call = await reflect(g.stack.addresses.dispatch, { file_containing_symbol: 'toolsurface.v1.CallToolRequest' });
    const fields = describe_(call)
      .message('toolsurface.v1.CallToolRequest')!
      .field.map((f) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['surface_id', 'name', 'arguments_json']));
  });

  it('a refused call carries google.rpc.Status with an ErrorInfo of its reason, beside toolsurface-reason', async () => {
    const refused = [
      await callError(g.clients.call('no-such-surface', 'echo', {})),
      await callError(unaryCall(g.clients.surface, 'openSurface', { principal: principalOf('agent:'), ttlSeconds: 0 })),
      await callError(unaryCall(g.clients.discovery, 'discoverTools', { snapshotId: 'no-such-snapshot', query: 'x', limit: 3 })),
    ];
    expect(refused.map((e) => e.reason)).toEqual(['SURFACE_NOT_FOUND', 'INVALID_REQUEST', 'SNAPSHOT_NOT_FOUND']);
    for (const err of refused) {
      const raw = err.metadata.get(STATUS_DETAILS_KEY)[0] as Buffer;
      const st = decodeRpcStatus(raw);
      expect(st.code, err.reason).toBe(err.code);
      expect(st.message).toBe(err.details);
      expect(st.details.map((d) => d.typeUrl)).toEqual(['type.googleapis.com/google.rpc.ErrorInfo']);
      expect(errorInfoOf(err.metadata)).toMatchObject({ reason: err.reason, domain: 'toolsurface' });
    }
    expect(refused[0].code).toBe(status.NOT_FOUND);
  });
});

// --- reflection client: the standard ServerReflection stream, loaded from @grpc/reflection's own proto ---

const reflectionProto = join(root, 'node_modules', '@grpc', 'reflection', 'build', 'proto', 'grpc', 'reflection', 'v1', 'reflection.proto');
const reflectionPkg = loadPackageDefinition(
  loadSync(reflectionProto, { keepCase: true, longs: Number, defaults: false, oneofs: true }),
) as GrpcObject;
const ReflectionClient = ((reflectionPkg.grpc as GrpcObject).reflection as GrpcObject).v1 as GrpcObject;

/** One ServerReflectionInfo exchange. */
function reflect(address: string, request: Record<string, string>): Promise<Record<string, unknown>> {
  const Ctor = ReflectionClient.ServerReflection as ServiceClientConstructor;
  const client = new Ctor(address, credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const stream = (client as unknown as { ServerReflectionInfo: () => NodeJS.ReadWriteStream }).ServerReflectionInfo();
    stream.on('data', (res: Record<string, unknown>) => {
      stream.end();
      client.close();
      if (res.error_response) reject(new Error(JSON.stringify(res.error_response)));
      else resolve(res);
    });
    stream.on('error', reject);
    stream.write({ host: '', ...request } as never);
  });
}

/** The services and messages of a file_descriptor_response (FileDescriptorProtos, decoded with @bufbuild/protobuf's descriptor schema). */
function describe_(res: Record<string, unknown>) {
  const fdr = res.file_descriptor_response as { file_descriptor_proto: Buffer[] };
  const files = fdr.file_descriptor_proto.map((b) => fromBinary(FileDescriptorProtoSchema, b));
  return {
    service: (full: string) => {
      for (const f of files) for (const s of f.service) if (`${f.package}.${s.name}` === full) return { method: s.method };
      return undefined;
    },
    message: (full: string) => {
      for (const f of files) for (const m of f.messageType) if (`${f.package}.${m.name}` === full) return { field: m.field };
      return undefined;
    },
  };
}

// --- dashboard PromQL against the OTLP points, mapped as the collector's prometheus exporter maps them ---

interface Dashboard {
  panels: Array<{ targets?: Array<{ expr: string }> }>;
  templating?: { list: Array<{ query?: { query?: string } | string }> };
}

function dashboardExprs(d: Dashboard): string[] {
  const exprs = d.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  for (const v of d.templating?.list ?? []) {
    const q = typeof v.query === 'string' ? v.query : v.query?.query;
    // label_values(<metric>, <label>): a variable's query names a metric and a label too.
    const m = q ? /^label_values\((\w+),\s*(\w+)\)$/.exec(q) : null;
    if (m) exprs.push(`${m[1]}{${m[2]}=~".+"}`);
  }
  return exprs;
}

/**
 * Metric names, label names (grouping and matchers) and `label="value"` matchers of one PromQL
 * expression. Metric: an identifier followed by `{` or `[`. Labels: identifiers in `by (...)` and
 * matcher keys; `le` and the resource labels job/instance are kept (the mapping below provides them).
 */
function parsePromql(expr: string): { metrics: string[]; labels: string[]; equals: Array<[string, string]> } {
  const noVars = expr.replace(/\$\w+/g, '1m');
  // An identifier directly followed (after spaces) by a matcher block or a range selector.
  const metrics = [...noVars.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g)].map((m) => m[1]).filter((n) => !['by', 'without'].includes(n));
  const labels = new Set<string>();
  // `by (a, b)` / `without (a)`: grouping labels.
  for (const m of noVars.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) for (const l of m[1].split(',')) if (l.trim()) labels.add(l.trim());
  const equals: Array<[string, string]> = [];
  // Matchers inside braces: key, operator, quoted value.
  for (const block of noVars.matchAll(/\{([^}]*)\}/g)) {
    for (const m of block[1].matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)) {
      labels.add(m[1]);
      if (m[2] === '=') equals.push([m[1], m[3]]);
    }
  }
  return { metrics: [...new Set(metrics)], labels: [...labels], equals };
}

/**
 * The Prometheus series the collector's prometheus exporter makes of the OTLP points, per
 * OpenTelemetry's Prometheus compatibility rules: name characters other than [a-zA-Z0-9_:] become
 * `_`; the unit `s` adds `_seconds`, a unit in braces ({call}) adds nothing; a monotonic sum adds
 * `_total`; a histogram becomes `_bucket` (with `le`), `_sum` and `_count`. Attribute keys map the
 * same way (dots become underscores); `job` (service.namespace/service.name) and `instance`
 * (service.instance.id) come from the resource.
 */
function prometheusSeries(points: ReceivedPoint[]): Map<string, { labels: Set<string>; values: Map<string, Set<string>> }> {
  const out = new Map<string, { labels: Set<string>; values: Map<string, Set<string>> }>();
  const sanitize = (s: string) => s.replace(/[^a-zA-Z0-9_:]/g, '_');
  const unitSuffix = (u: string) =>
    u === 's' ? '_seconds' : u === 'By' ? '_bytes' : u === '' || u.startsWith('{') || u === '1' ? '' : `_${sanitize(u)}`;
  for (const p of points) {
    const base = sanitize(p.name) + unitSuffix(p.unit);
    const names = p.kind === 'histogram' ? [`${base}_bucket`, `${base}_sum`, `${base}_count`] : [p.monotonic ? `${base}_total` : base];
    const labels: Array<[string, string]> = Object.entries(p.attributes).map(([k, v]) => [sanitize(k), String(v)]);
    labels.push(
      ['job', `${String(p.resource['service.namespace'])}/${p.service}`],
      ['instance', String(p.resource['service.instance.id'])],
    );
    for (const n of names) {
      const entry = out.get(n) ?? { labels: new Set<string>(), values: new Map<string, Set<string>>() };
      for (const [k, v] of n.endsWith('_bucket') ? [...labels, ['le', '+Inf'] as [string, string]] : labels) {
        entry.labels.add(k);
        entry.values.set(k, (entry.values.get(k) ?? new Set()).add(v));
      }
      out.set(n, entry);
    }
  }
  return out;
}
