import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Client as GrpcClient, Metadata, credentials, status, type ServiceError } from '@grpc/grpc-js';
import { Objm } from '@nats-io/obj';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { ADAPTIVE_DISCOVERY_THRESHOLD, SYSTEM_TOOLS } from '@toolsurface/core';
import {
  ApplyConfigRequest,
  CallToolRequest,
  CloseSurfaceRequest,
  DiscoverToolsRequest,
  GetBindingsRequest,
  GetPresentationRequest,
  GetSurfaceRequest,
  GetToolSchemaRequest,
  MapRequestRequest,
  OpenSurfaceRequest,
  PresentationMode,
  PrincipalKind,
  ResolvedMode,
  SetBindingsRequest,
  SetPresentationRequest,
  SurfaceOpened,
  ToolCalled,
  ToolKind,
  type CallToolResponse,
  type Surface,
} from '@toolsurface/proto';
import { checkHealth } from '@toolsurface/devkit';
import { callError, principalOf, startGateway, textOf, unaryCall, type GatewayFixture } from '../support';

// The cross-service suite: four services as processes, a nats-server of its own, real MCP servers.
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const sample = join(fixtures, 'sample');
const systemNames = SYSTEM_TOOLS.map((t) => t.name);
let g: GatewayFixture;

beforeAll(async () => {
  g = await startGateway(join(fixtures, 'e2e.yaml'), ['everything', 'everything2', 'filesystem', 'memory']);
}, 180_000);
afterAll(async () => {
  await g?.stop();
}, 60_000);

const names = (s: Surface) => s.tools.map((t) => t.name);
const bound = (s: Surface) => s.tools.filter((t) => t.kind === ToolKind.TOOL_KIND_BOUND);
function expectModelError(r: CallToolResponse, reason: string, next?: RegExp): void {
  expect(r.isError, `expected ${reason}, got ${r.reason || 'success'}: ${r.message}`).toBe(true);
  expect(r.reason).toBe(reason);
  expect(r.message.length).toBeGreaterThan(10);
  expect(textOf(r.contentJson)).toContain(r.message);
  if (next) expect(r.message).toMatch(next);
}
/** tool.called events of one surface. */
function audits(surfaceId: string): ToolCalled[] {
  return g.events
    .filter((e) => e.subject === 'toolsurface.tool.called.v1')
    .map((e) => ToolCalled.decode(e.data))
    .filter((e) => e.surfaceId === surfaceId);
}
async function waitForAudit(surfaceId: string, n: number): Promise<ToolCalled[]> {
  const deadline = Date.now() + 5000;
  while (audits(surfaceId).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return audits(surfaceId);
}

describe('rule 1: adaptive', () => {
  it('resolves to direct at 29 bound tools and to discovery at 30, system tools not counted', async () => {
    const s29 = await g.clients.open('agent:edge29');
    const s30 = await g.clients.open('agent:edge30');
    expect(ADAPTIVE_DISCOVERY_THRESHOLD).toBe(30);
    expect(s29.boundToolCount).toBe(29);
    expect(s29.configuredMode).toBe(PresentationMode.PRESENTATION_MODE_ADAPTIVE);
    expect(s29.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DIRECT);
    expect(s29.tools.length).toBe(29 + systemNames.length);
    expect(s30.boundToolCount).toBe(30);
    expect(s30.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DISCOVERY);
  });
});

describe('rule 2: direct', () => {
  it('presents every bound tool as itself with its full input schema, and runs it by name', async () => {
    const s = await g.clients.open('agent:small');
    expect(s.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DIRECT);
    expect(
      bound(s)
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      'add_observations',
      'create_entities',
      'create_relations',
      'delete_entities',
      'delete_observations',
      'delete_relations',
      'open_nodes',
      'read_graph',
      'search_nodes',
    ]);
    const create = s.tools.find((t) => t.name === 'create_entities')!;
    expect(JSON.parse(create.inputSchemaJson).properties.entities.type).toBe('array');
    const entity = `e2e-${Date.now()}`;
    const r = await g.clients.call(s.surfaceId, 'create_entities', {
      entities: [{ name: entity, entityType: 'test', observations: ['made by the suite'] }],
    });
    expect(r.isError, r.message).toBe(false);
    expect(r.via).toBe('direct');
    const graph = await g.clients.call(s.surfaceId, 'read_graph', {});
    expect(textOf(graph.contentJson)).toContain(entity);
  });
});

describe('rule 3: discovery', () => {
  let s: Surface;
  beforeAll(async () => {
    s = await g.clients.open('agent:big');
  });

  it('presents exactly the three meta-tools, then the system tools', () => {
    expect(s.boundToolCount).toBe(36);
    expect(s.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DISCOVERY);
    expect(names(s)).toEqual(['discover_tools', 'get_tool_schema', 'execute_tool', ...systemNames]);
  });

  it('discover_tools, get_tool_schema and execute_tool reach the real MCP server', async () => {
    const d = await g.clients.call(s.surfaceId, 'discover_tools', { query: 'read a text file', limit: 5 });
    expect(d.isError, d.message).toBe(false);
    const hits = JSON.parse(textOf(d.contentJson)) as
      { hits?: Array<{ name: string; description: string; score: number }> } | Array<{ name: string }>;
    const list = Array.isArray(hits) ? hits : (hits.hits ?? []);
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(5);
    expect(list.map((h) => h.name)).toContain('read_text_file');
    for (const h of list) expect(Object.keys(h).sort()).toEqual(['description', 'name', 'score']);

    const schema = await g.clients.call(s.surfaceId, 'get_tool_schema', { name: 'read_text_file' });
    expect(schema.isError, schema.message).toBe(false);
    expect(textOf(schema.contentJson)).toContain('"path"');

    const r = await g.clients.call(s.surfaceId, 'execute_tool', { name: 'read_text_file', arguments: { path: join(sample, 'hello.txt') } });
    expect(r.isError, r.message).toBe(false);
    expect(r.via).toBe('execute_tool');
    expect(r.toolName).toBe('read_text_file');
    expect(textOf(r.contentJson)).toContain('Hello from the cross-service suite.');
  });

  it('refuses a bound tool called by its own name, though the name exists', async () => {
    const r = await g.clients.call(s.surfaceId, 'read_text_file', { path: join(sample, 'hello.txt') });
    expectModelError(r, 'TOOL_NOT_DIRECTLY_CALLABLE', /discover_tools|execute_tool/);
  });

  it('refuses execute_tool of a name not in the snapshot, and of a meta-tool (no recursion)', async () => {
    expectModelError(
      await g.clients.call(s.surfaceId, 'execute_tool', { name: 'no_such_tool', arguments: {} }),
      'TOOL_NOT_IN_SNAPSHOT',
      /discover_tools/,
    );
    expectModelError(
      await g.clients.call(s.surfaceId, 'execute_tool', { name: 'execute_tool', arguments: { name: 'echo', arguments: {} } }),
      'TOOL_NOT_IN_SNAPSHOT',
    );
  });

  it('validates arguments against the snapshot schema with JSON pointers, and runs nothing', async () => {
    const r = await g.clients.call(s.surfaceId, 'execute_tool', { name: 'read_text_file', arguments: { path: 42 } });
    expectModelError(r, 'INVALID_ARGUMENTS');
    expect(r.message).toContain('/path');
  });
});

describe('rule 4: unified', () => {
  it('runs a clear request and returns the tool, the confidence and the mapped arguments', async () => {
    const s = await g.clients.open('agent:uni');
    expect(names(s)).toEqual(['unified_tool', ...systemNames]);
    const r = await g.clients.call(s.surfaceId, 'unified_tool', { request: 'What is the sum of a=17 and b=25?' });
    expect(r.unified).toBeDefined();
    expect(r.unified!.confidence).toBeGreaterThanOrEqual(0);
    expect(r.unified!.confidence).toBeLessThanOrEqual(1);
    expect(r.isError, r.message).toBe(false);
    expect(r.unified!.executed).toBe(true);
    expect(r.unified!.confidence).toBeGreaterThanOrEqual(0.7);
    expect(r.unified!.tool).toBe('get-sum');
    expect(JSON.parse(r.unified!.argumentsJson)).toEqual({ a: 17, b: 25 });
    expect(r.via).toBe('unified_tool');
    expect(textOf(r.contentJson)).toContain('42');
  });

  it('below 0.7 runs nothing and lists the best candidates with their confidences', async () => {
    const s = await g.clients.open('agent:uni');
    const r = await g.clients.call(s.surfaceId, 'unified_tool', { request: 'book me a table for two at an Italian restaurant tonight' });
    expectModelError(r, 'LOW_CONFIDENCE');
    expect(r.unified!.executed).toBe(false);
    expect(r.unified!.confidence).toBeLessThan(0.7);
    expect(r.unified!.candidates.length).toBeGreaterThan(0);
    for (const c of r.unified!.candidates) expect(c.confidence).toBeLessThan(0.7);
    const calls = await waitForAudit(s.surfaceId, 0);
    expect(calls.filter((c) => c.outcome === 'ok')).toEqual([]);
  });

  it('preferred_tools may name only tools of the snapshot', async () => {
    const s = await g.clients.open('agent:uni');
    const r = await g.clients.call(s.surfaceId, 'unified_tool', { request: 'echo hello', preferred_tools: ['create_entities'] });
    expectModelError(r, 'TOOL_NOT_IN_SNAPSHOT');
  });
});

describe('rule 5: system tools', () => {
  it('are listed as themselves in every mode and run by their own name', async () => {
    for (const p of ['agent:small', 'agent:big', 'agent:uni']) {
      const s = await g.clients.open(p);
      expect(names(s).slice(-systemNames.length)).toEqual(systemNames);
      expect(s.tools.filter((t) => t.kind === ToolKind.TOOL_KIND_SYSTEM).map((t) => t.name)).toEqual(systemNames);
    }
    const s = await g.clients.open('agent:big');
    const note = `note ${Date.now()}`;
    const w = await g.clients.call(s.surfaceId, 'journal_append', { entry: note });
    expect(w.isError, w.message).toBe(false);
    const r = await g.clients.call(s.surfaceId, 'journal_read', { limit: 5 });
    expect(textOf(r.contentJson)).toContain(note);
  });

  it('are never behind a meta-tool nor in the discovery corpus', async () => {
    const s = await g.clients.open('agent:big');
    expectModelError(await g.clients.call(s.surfaceId, 'execute_tool', { name: 'journal_read', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT');
    const d = await g.clients.call(s.surfaceId, 'discover_tools', { query: 'journal read notes', limit: 50 });
    expect(textOf(d.contentJson)).not.toMatch(/"journal_(read|append)"/);
  });
});

describe('rule 6: one admission on every path', () => {
  const secret = join(sample, 'secret.txt');
  it('refuses the same call directly, through execute_tool and through unified_tool, with the rule audited', async () => {
    const direct = await g.clients.open('agent:evdirect');
    const disc = await g.clients.open('agent:big');
    const uni = await g.clients.open('agent:uni');
    expectModelError(await g.clients.call(direct.surfaceId, 'get-sum', { a: 13, b: 25 }), 'PERMISSION_DENIED');
    expectModelError(
      await g.clients.call(disc.surfaceId, 'execute_tool', { name: 'get-sum', arguments: { a: 13, b: 25 } }),
      'PERMISSION_DENIED',
    );
    const u = await g.clients.call(uni.surfaceId, 'unified_tool', { request: 'What is the sum of a=13 and b=25?' });
    expectModelError(u, 'PERMISSION_DENIED');
    expect(u.unified).toMatchObject({ tool: 'get-sum', executed: false });
    for (const [sid, via] of [
      [direct.surfaceId, 'direct'],
      [disc.surfaceId, 'execute_tool'],
      [uni.surfaceId, 'unified_tool'],
    ] as const) {
      const a = (await waitForAudit(sid, 1)).find((e) => e.toolName === 'get-sum');
      expect(a, `audit for ${via}`).toMatchObject({
        via,
        outcome: 'refused',
        reason: 'PERMISSION_DENIED',
        admission: { decision: 'deny', rule: 'no-unlucky-sums' },
      });
    }
    // The same tool with other arguments runs on every path.
    const ok = await g.clients.call(direct.surfaceId, 'get-sum', { a: 12, b: 25 });
    expect(textOf(ok.contentJson)).toContain('37');
  });

  it('refuses reading a secret file directly and through execute_tool', async () => {
    const direct = await g.clients.open('agent:fsdirect');
    const disc = await g.clients.open('agent:big');
    expectModelError(await g.clients.call(direct.surfaceId, 'read_text_file', { path: secret }), 'PERMISSION_DENIED');
    expectModelError(
      await g.clients.call(disc.surfaceId, 'execute_tool', { name: 'read_text_file', arguments: { path: secret } }),
      'PERMISSION_DENIED',
    );
    const a = (await waitForAudit(disc.surfaceId, 1)).find((e) => e.toolName === 'read_text_file');
    expect(a?.admission).toEqual({ decision: 'deny', rule: 'no-secrets' });
  });

  it('an argument rule covers every path argument of every tool, arrays included', async () => {
    const direct = await g.clients.open('agent:fsdirect');
    const disc = await g.clients.open('agent:big');
    const many = { paths: [join(sample, 'hello.txt'), secret] };
    expectModelError(await g.clients.call(direct.surfaceId, 'read_multiple_files', many), 'PERMISSION_DENIED');
    expectModelError(
      await g.clients.call(disc.surfaceId, 'execute_tool', { name: 'read_multiple_files', arguments: many }),
      'PERMISSION_DENIED',
    );
    expectModelError(
      await g.clients.call(direct.surfaceId, 'move_file', { source: secret, destination: join(sample, 'moved.txt') }),
      'PERMISSION_DENIED',
    );
    const ok = await g.clients.call(direct.surfaceId, 'read_multiple_files', { paths: [join(sample, 'hello.txt')] });
    expect(ok.isError, ok.message).toBe(false);
    const a = (await waitForAudit(direct.surfaceId, 3)).find((e) => e.toolName === 'read_multiple_files');
    expect(a?.admission).toEqual({ decision: 'deny', rule: 'no-secrets-paths' });
  });

  it('never lists, nor discovers, a tool admission refuses outright', async () => {
    const s = await g.clients.open('agent:edge30');
    expect(s.boundToolCount).toBe(30);
    const d = await g.clients.call(s.surfaceId, 'discover_tools', { query: 'delete entities relations observations', limit: 50 });
    expect(textOf(d.contentJson)).not.toMatch(/"delete_(entities|relations|observations)"/);
    expectModelError(
      await g.clients.call(s.surfaceId, 'execute_tool', { name: 'delete_entities', arguments: { entityNames: ['x'] } }),
      'TOOL_NOT_IN_SNAPSHOT',
    );
  });
});

describe('rule 7: stored mode and autonomy', () => {
  it('a new principal starts at adaptive, and a set mode is kept', async () => {
    const p = principalOf(`agent:new-${Date.now()}`);
    const got = await unaryCall<{ presentation: { mode: number } }>(g.clients.presentation, 'getPresentation', { principal: p });
    expect(got.presentation.mode).toBe(PresentationMode.PRESENTATION_MODE_ADAPTIVE);
    await unaryCall(g.clients.presentation, 'setPresentation', {
      principal: p,
      mode: PresentationMode.PRESENTATION_MODE_UNIFIED,
      autonomy: 0,
    });
    const again = await unaryCall<{ presentation: { mode: number } }>(g.clients.presentation, 'getPresentation', { principal: p });
    expect(again.presentation.mode).toBe(PresentationMode.PRESENTATION_MODE_UNIFIED);
  });

  it('a supervised gateway gets the proposed call and nothing runs', async () => {
    const s = await g.clients.open('gateway:sup');
    const r = await g.clients.call(s.surfaceId, 'unified_tool', { request: 'What is the sum of a=17 and b=25?' });
    expect(r.isError, r.message).toBe(false);
    expect(r.unified!.executed).toBe(false);
    expect(r.unified!.tool).toBe('get-sum');
    expect(r.unified!.confidence).toBeGreaterThanOrEqual(0.7);
    expect(JSON.parse(r.unified!.argumentsJson)).toEqual({ a: 17, b: 25 });
    expect(textOf(r.contentJson)).not.toContain('42');
    const calls = await waitForAudit(s.surfaceId, 0);
    expect(calls.filter((c) => c.outcome === 'ok')).toEqual([]);
  });
});

describe('rule 8: snapshots', () => {
  it('two surfaces over the same definitions share one snapshot, whose ID is the hash of its canonical JSON', async () => {
    const a = await g.clients.open('agent:twin1');
    const b = await g.clients.open('agent:twin2');
    expect(a.resolvedMode).not.toBe(b.resolvedMode);
    expect(a.snapshotId).toBe(b.snapshotId);
    const blob = await (await new Objm(g.nc).open('toolsurface_snapshots')).getBlob(a.snapshotId);
    const defs = JSON.parse(new TextDecoder().decode(blob!)) as Array<{ name: string }>;
    expect(defs.map((d) => d.name)).toEqual([...defs.map((d) => d.name)].sort());
    expect(`snap_${createHash('sha256').update(canonicalize(defs)!).digest('hex')}`).toBe(a.snapshotId);
  });

  it('a tool bound after the surface opened is refused on it; the surface.opened event carries that snapshot', async () => {
    const p = principalOf('agent:late');
    await unaryCall(g.clients.presentation, 'setBindings', { principal: p, capabilities: ['memory'] });
    const old = await g.clients.open('agent:late');
    await unaryCall(g.clients.presentation, 'setBindings', { principal: p, capabilities: ['memory', 'filesystem'] });
    try {
      const r = await g.clients.call(old.surfaceId, 'execute_tool', {
        name: 'read_text_file',
        arguments: { path: join(sample, 'hello.txt') },
      });
      expectModelError(r, 'TOOL_NOT_IN_SNAPSHOT', /discover_tools/);
      const opened = g.events
        .filter((e) => e.subject === 'toolsurface.surface.opened.v1')
        .map((e) => SurfaceOpened.decode(e.data))
        .find((e) => e.surfaceId === old.surfaceId);
      expect(opened?.snapshotId).toBe(old.snapshotId);
      const fresh = await g.clients.open('agent:late');
      expect(fresh.snapshotId).not.toBe(old.snapshotId);
      const ok = await g.clients.call(fresh.surfaceId, 'execute_tool', {
        name: 'read_text_file',
        arguments: { path: join(sample, 'hello.txt') },
      });
      expect(ok.isError, ok.message).toBe(false);
      const audit = (await waitForAudit(old.surfaceId, 1))[0];
      expect(audit).toMatchObject({ snapshotId: old.snapshotId, reason: 'TOOL_NOT_IN_SNAPSHOT', outcome: 'refused' });
    } finally {
      await unaryCall(g.clients.presentation, 'setBindings', { principal: p, capabilities: ['memory'] });
    }
  });
});

describe('rule 9: name collisions', () => {
  it('two capabilities publishing the same names are both shown under a capability prefix, and both run', async () => {
    const s = await g.clients.open('agent:dup');
    expect(names(s)).toContain('everything.echo');
    expect(names(s)).toContain('everything2.echo');
    expect(names(s)).not.toContain('echo');
    const echo = s.collisions.find((c) => c.originalName === 'echo');
    expect(echo?.presentedNames).toEqual(['everything.echo', 'everything2.echo']);
    expect(echo?.rule).toMatch(/capability/);
    const plain = await g.clients.call(s.surfaceId, 'echo', { message: 'which one?' });
    expectModelError(plain, 'TOOL_NOT_FOUND', /everything\.echo.*everything2\.echo/);
    for (const n of ['everything.echo', 'everything2.echo']) {
      const r = await g.clients.call(s.surfaceId, n, { message: `via ${n}` });
      expect(r.isError, r.message).toBe(false);
      expect(textOf(r.contentJson)).toContain(`via ${n}`);
    }
  });
});

describe('metrics', () => {
  it('count calls by tool, path and outcome, time them, rank the executed tool in discovery, and count surfaces by mode', async () => {
    const s = await g.clients.open('agent:big');
    const d = await g.clients.call(s.surfaceId, 'discover_tools', { query: 'list the allowed directories', limit: 5 });
    const hits = (JSON.parse(d.structuredContentJson) as { hits: Array<{ name: string }> }).hits.map((h) => h.name);
    const rank = hits.indexOf('list_allowed_directories') + 1;
    expect(rank).toBeGreaterThan(0);
    const r = await g.clients.call(s.surfaceId, 'execute_tool', { name: 'list_allowed_directories', arguments: {} });
    expect(r.isError, r.message).toBe(false);

    const calls = await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === 'toolsurface.tool.calls' &&
        p.attributes['gen_ai.tool.name'] === 'list_allowed_directories' &&
        p.attributes['toolsurface.via'] === 'execute_tool' &&
        p.attributes['toolsurface.outcome'] === 'ok',
    );
    expect(calls.value).toBeGreaterThanOrEqual(1);
    const duration = await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === 'toolsurface.tool.call.duration' &&
        p.attributes['gen_ai.tool.name'] === 'list_allowed_directories',
    );
    expect(duration.unit).toBe('s');
    expect(duration.sum).toBeGreaterThan(0);
    const ranked = await g.otlp.waitForPoint(
      (p) => p.service === 'dispatch' && p.name === 'toolsurface.discovery.rank' && p.attributes['toolsurface.discovered'] === true,
    );
    expect(ranked.value).toBeGreaterThanOrEqual(1);
    await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === 'toolsurface.tool.calls' &&
        p.attributes['gen_ai.tool.name'] === 'discover_tools' &&
        p.attributes['toolsurface.capability'] === 'meta',
    );
    const opened = await g.otlp.waitForPoint(
      (p) =>
        p.service === 'surface-resolver' && p.name === 'toolsurface.surfaces.opened' && p.attributes['toolsurface.mode'] === 'discovery',
    );
    expect(opened.value).toBeGreaterThanOrEqual(1);
    const rpc = await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === 'rpc.server.call.duration' &&
        p.attributes['rpc.method'] === 'toolsurface.v1.DispatchService/CallTool' &&
        p.attributes['rpc.status_code'] === 'OK',
    );
    expect(rpc.unit).toBe('s');
  });
});

describe('traces', () => {
  it('one call produces one connected trace across dispatch, unified-mapper, the MCP call and NATS', async () => {
    const s = await g.clients.open('agent:uni');
    const traceId = createHash('sha256').update(`trace-${Date.now()}`).digest('hex').slice(0, 32);
    const rootSpan = '00f067aa0ba902b7';
    const md = new Metadata();
    md.set('traceparent', `00-${traceId}-${rootSpan}-01`);
    const r = await g.clients.call(s.surfaceId, 'unified_tool', { request: 'What is the sum of a=17 and b=25?' }, md);
    expect(r.isError, r.message).toBe(false);
    await g.otlp.waitFor((spans) => {
      const t = spans.filter((x) => x.traceId === traceId);
      return (
        t.some((x) => x.service === 'unified-mapper') &&
        t.some((x) => x.name.startsWith('execute_tool')) &&
        t.some((x) => x.name.startsWith('send toolsurface.tool.called'))
      );
    });
    const spans = g.otlp.trace(traceId);
    const ids = new Set(spans.map((x) => x.spanId));
    for (const sp of spans)
      expect(sp.parentSpanId === rootSpan || ids.has(sp.parentSpanId), `${sp.service}:${sp.name} is connected`).toBe(true);
    const tool = spans.find((x) => x.name.startsWith('execute_tool'))!;
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get-sum',
      'toolsurface.via': 'unified_tool',
    });
    expect(new Set(spans.map((x) => x.service))).toEqual(new Set(['dispatch', 'unified-mapper']));
    const event = g.events.find((e) => e.subject === 'toolsurface.tool.called.v1' && ToolCalled.decode(e.data).surfaceId === s.surfaceId);
    expect(event?.traceparent?.split('-')[1]).toBe(traceId);
  });

  it('a new snapshot is indexed by discovery inside the OpenSurface trace, across NATS', async () => {
    const created = g.events.filter((e) => e.subject === 'toolsurface.snapshot.created.v1');
    expect(created.length).toBeGreaterThan(0);
    const traceId = created[0].traceparent!.split('-')[1];
    await g.otlp.waitFor((spans) =>
      spans.some((x) => x.traceId === traceId && x.service === 'discovery' && x.name.startsWith('process toolsurface.snapshot.created')),
    );
    const trace = g.otlp.trace(traceId);
    expect(new Set(trace.map((x) => x.service))).toEqual(new Set(['surface-resolver', 'discovery']));
    expect(trace.some((x) => x.service === 'surface-resolver' && x.name === 'toolsurface.v1.SurfaceService/OpenSurface')).toBe(true);
  });
});

describe('bad input: a clear error, the services keep running, nothing runs', () => {
  it('every RPC refuses missing fields and wrong values with INVALID_ARGUMENT or NOT_FOUND and a reason', async () => {
    // Requests are built as a client would send them: proto3 has no missing fields, only defaults.
    const S = g.clients.surface;
    const P = g.clients.presentation;
    const cases: Array<[object, string, unknown, number, string]> = [
      [S, 'openSurface', OpenSurfaceRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [S, 'openSurface', OpenSurfaceRequest.fromPartial({ principal: { kind: 1, id: '' } }), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        S,
        'openSurface',
        OpenSurfaceRequest.fromPartial({ principal: { kind: 99 as PrincipalKind, id: 'x' } }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [
        S,
        'openSurface',
        OpenSurfaceRequest.fromPartial({ principal: { kind: 1, id: 'a b/../c' } }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [
        S,
        'openSurface',
        OpenSurfaceRequest.fromPartial({ principal: { kind: 1, id: 'big' }, ttlSeconds: 10_000_000 }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [S, 'getSurface', GetSurfaceRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        S,
        'getSurface',
        GetSurfaceRequest.fromPartial({ surfaceId: 'srf_00000000000000000000000000000000' }),
        status.NOT_FOUND,
        'SURFACE_NOT_FOUND',
      ],
      [S, 'closeSurface', CloseSurfaceRequest.fromPartial({ surfaceId: 'forged' }), status.NOT_FOUND, 'SURFACE_NOT_FOUND'],
      [P, 'getPresentation', GetPresentationRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        P,
        'setPresentation',
        SetPresentationRequest.fromPartial({ principal: { kind: 1, id: 'x' }, mode: 42 as PresentationMode }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [
        P,
        'setPresentation',
        SetPresentationRequest.fromPartial({ principal: { kind: 1, id: 'x' }, autonomy: 2 }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [P, 'getBindings', GetBindingsRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        P,
        'setBindings',
        SetBindingsRequest.fromPartial({ principal: { kind: 1, id: 'x' }, capabilities: ['nope'] }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [P, 'applyConfig', ApplyConfigRequest.fromPartial({ configYaml: 'capabilities: [' }), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [P, 'applyConfig', ApplyConfigRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      // Capabilities are commands dispatch runs: the unauthenticated API cannot add one.
      [
        P,
        'applyConfig',
        ApplyConfigRequest.fromPartial({
          configYaml: 'capabilities: { pwn: { transport: stdio, command: sh, args: ["-c", "id"] } }\nprincipals: []',
        }),
        status.PERMISSION_DENIED,
        'PERMISSION_DENIED',
      ],
      [g.clients.dispatch, 'callTool', CallToolRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        g.clients.dispatch,
        'callTool',
        CallToolRequest.fromPartial({ surfaceId: 'srf_00000000000000000000000000000000', name: 'echo' }),
        status.NOT_FOUND,
        'SURFACE_NOT_FOUND',
      ],
      [
        g.clients.dispatch,
        'callTool',
        CallToolRequest.fromPartial({ surfaceId: 'x'.repeat(5000), name: 'echo' }),
        status.INVALID_ARGUMENT,
        'INVALID_REQUEST',
      ],
      [g.clients.discovery, 'discoverTools', DiscoverToolsRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
      [
        g.clients.discovery,
        'discoverTools',
        DiscoverToolsRequest.fromPartial({ snapshotId: `snap_${'0'.repeat(64)}`, query: 'x' }),
        status.NOT_FOUND,
        'SNAPSHOT_NOT_FOUND',
      ],
      [
        g.clients.discovery,
        'getToolSchema',
        GetToolSchemaRequest.fromPartial({ snapshotId: 'nope', name: 'x' }),
        status.NOT_FOUND,
        'SNAPSHOT_NOT_FOUND',
      ],
      [g.clients.unified, 'mapRequest', MapRequestRequest.fromPartial({}), status.INVALID_ARGUMENT, 'INVALID_REQUEST'],
    ];
    for (const [client, method, req, code, reason] of cases) {
      const e = await callError(unaryCall(client, method, req));
      expect({ method, req, code: e.code, reason: e.reason }).toEqual({ method, req, code, reason });
      expect(e.details.length).toBeGreaterThan(10);
    }
  });

  it('a closed surface and an expired surface are refused', async () => {
    const s = await g.clients.open('agent:small');
    await unaryCall(g.clients.surface, 'closeSurface', { surfaceId: s.surfaceId });
    expect((await callError(g.clients.call(s.surfaceId, 'read_graph', {}))).reason).toBe('SURFACE_NOT_FOUND');
    const short = await g.clients.open('agent:small', 1);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await callError(g.clients.call(short.surfaceId, 'read_graph', {}))).reason).toBe('SURFACE_EXPIRED');
  });

  it('every meta-tool refuses malformed JSON, wrong types, missing fields and a 10 MB argument, and nothing runs', async () => {
    const disc = await g.clients.open('agent:big');
    const uni = await g.clients.open('agent:uni');
    const direct = await g.clients.open('agent:small');
    const marker = `never-created-${Date.now()}`;
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const cases: Array<[string, string, unknown]> = [
      [disc.surfaceId, 'discover_tools', '{"query": '],
      [disc.surfaceId, 'discover_tools', {}],
      [disc.surfaceId, 'discover_tools', { query: 42 }],
      [disc.surfaceId, 'discover_tools', { query: 'x', limit: 'ten' }],
      [disc.surfaceId, 'discover_tools', { query: huge }],
      [disc.surfaceId, 'get_tool_schema', {}],
      [disc.surfaceId, 'get_tool_schema', { name: ['read_text_file'] }],
      [disc.surfaceId, 'execute_tool', { arguments: {} }],
      [disc.surfaceId, 'execute_tool', { name: 'create_entities', arguments: '{"entities": []}' }],
      [
        disc.surfaceId,
        'execute_tool',
        { name: 'create_entities', arguments: { entities: [{ name: marker, entityType: 't', observations: [huge] }] } },
      ],
      [disc.surfaceId, 'execute_tool', '[1, 2, 3]'],
      [uni.surfaceId, 'unified_tool', {}],
      [uni.surfaceId, 'unified_tool', { request: 7 }],
      [uni.surfaceId, 'unified_tool', { request: 'echo hi', preferred_tools: 'echo' }],
      [uni.surfaceId, 'unified_tool', { request: huge }],
      [direct.surfaceId, 'create_entities', `{"entities": [{"name": "${marker}"`],
      [direct.surfaceId, 'create_entities', { entities: [{ name: marker, entityType: 't', observations: [huge] }] }],
      [direct.surfaceId, 'create_entities', { entities: 'not a list' }],
      [direct.surfaceId, 'create_entities', 'null'],
    ];
    for (const [sid, name, args] of cases) {
      const r = await g.clients.call(sid, name, args);
      expect({ name, isError: r.isError, reason: r.reason }).toEqual({ name, isError: true, reason: 'INVALID_ARGUMENTS' });
      expect(r.message.length).toBeGreaterThan(10);
    }
    const graph = await g.clients.call(direct.surfaceId, 'read_graph', {});
    expect(graph.isError).toBe(false);
    expect(textOf(graph.contentJson)).not.toContain(marker);
    const ok = (sid: string) => audits(sid).filter((a) => a.outcome === 'ok' && a.toolName !== 'read_graph');
    expect([...ok(disc.surfaceId), ...ok(uni.surfaceId), ...ok(direct.surfaceId)]).toEqual([]);
  });

  it('garbage bytes on the wire get INVALID_ARGUMENT with a reason, and every service stays SERVING', async () => {
    const targets: Array<[string, string]> = [
      [g.stack.addresses.resolver, '/toolsurface.v1.SurfaceService/OpenSurface'],
      [g.stack.addresses.resolver, '/toolsurface.v1.PresentationService/ApplyConfig'],
      [g.stack.addresses.dispatch, '/toolsurface.v1.DispatchService/CallTool'],
      [g.stack.addresses.discovery, '/toolsurface.v1.DiscoveryService/DiscoverTools'],
      [g.stack.addresses.unified, '/toolsurface.v1.UnifiedService/MapRequest'],
    ];
    for (const [addr, path] of targets) {
      const client = new GrpcClient(addr, credentials.createInsecure());
      // Field 1 with wire type 7 (invalid), then a truncated length-delimited field.
      const garbage = Buffer.from([0x0f, 0xff, 0xff, 0x12, 0x80]);
      const err = await new Promise<ServiceError | null>((resolve) =>
        client.makeUnaryRequest(
          path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          garbage,
          (e) => resolve(e),
        ),
      );
      client.close();
      expect({ path, code: err?.code, reason: err?.metadata?.get('toolsurface-reason')[0] }).toEqual({
        path,
        code: status.INVALID_ARGUMENT,
        reason: 'INVALID_REQUEST',
      });
    }
    for (const addr of [g.stack.addresses.resolver, g.stack.addresses.dispatch, g.stack.addresses.discovery, g.stack.addresses.unified]) {
      expect(await checkHealth(addr)).toBe('SERVING');
    }
  });
});

describe('state lives in NATS', () => {
  it('restarted services lose nothing: surfaces, snapshots, settings, catalog and the journal', async () => {
    const direct = await g.clients.open('agent:small');
    const disc = await g.clients.open('agent:big');
    const p = principalOf(`agent:restart-${Date.now()}`);
    await unaryCall(g.clients.presentation, 'setPresentation', {
      principal: p,
      mode: PresentationMode.PRESENTATION_MODE_DISCOVERY,
      autonomy: 0,
    });
    const note = `before the restart ${Date.now()}`;
    expect((await g.clients.call(direct.surfaceId, 'journal_append', { entry: note })).isError).toBe(false);

    for (const name of ['surface-resolver', 'discovery', 'dispatch', 'unified-mapper'] as const) await g.stack.restart(name);

    const got = await unaryCall<{ presentation: { mode: number } }>(g.clients.presentation, 'getPresentation', { principal: p });
    expect(got.presentation.mode).toBe(PresentationMode.PRESENTATION_MODE_DISCOVERY);
    const again = await unaryCall<{ surface: Surface }>(g.clients.surface, 'getSurface', { surfaceId: disc.surfaceId });
    expect(again.surface.snapshotId).toBe(disc.snapshotId);
    const graph = await g.clients.call(direct.surfaceId, 'read_graph', {});
    expect(graph.isError, graph.message).toBe(false);
    expect(textOf((await g.clients.call(direct.surfaceId, 'journal_read', { limit: 10 })).contentJson)).toContain(note);
    const d = await g.clients.call(disc.surfaceId, 'discover_tools', { query: 'read a text file', limit: 5 });
    expect(d.isError, d.message).toBe(false);
    expect(textOf(d.contentJson)).toContain('read_text_file');
    const fresh = await g.clients.open('agent:big');
    expect(fresh.snapshotId).toBe(disc.snapshotId);
  }, 120_000);
});
