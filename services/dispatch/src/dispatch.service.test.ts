import { describe, expect, it, beforeEach } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  AppError,
  ReasonCode,
  UNIFIED_NO_CLOSE_TOOL_PREFIX,
  type AdmissionPolicy,
  type Autonomy,
  type BoundToolDefinition,
  type PrincipalRef,
  type ResolvedMode,
} from '@toolsurface/core';
import type { Snapshot, SurfaceRecord } from '@toolsurface/state';
import { DispatchService, RESPONSE_MARGIN_MS } from './dispatch.service';
import type { CallResult, DispatchPorts, ToolCalledEvent, ToolResult, UnifiedInfo } from './domain/ports';

const NOW = 1_700_000_000_000;
const SNAP = 'snap_' + 'a'.repeat(64);

const echoSchema = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false };
const tools: BoundToolDefinition[] = [
  { name: 'echo', description: 'Echoes', inputSchema: echoSchema, capability: 'everything', originalName: 'echo' },
  {
    name: 'memory.read_graph',
    description: 'Reads the graph',
    inputSchema: { type: 'object', properties: {} },
    capability: 'memory',
    originalName: 'read_graph',
  },
  { name: 'delete_all', description: 'Deletes', inputSchema: { type: 'object' }, capability: 'memory', originalName: 'delete_all' },
];
const snapshot: Snapshot = { snapshotId: SNAP, tools, byName: new Map(tools.map((t) => [t.name, t])) };

function surface(
  id: string,
  mode: ResolvedMode,
  principal: PrincipalRef = { kind: 'agent', id: 'alice' },
  extra: Partial<SurfaceRecord> = {},
): SurfaceRecord {
  return {
    surfaceId: id,
    principal,
    configuredMode: mode,
    resolvedMode: mode,
    snapshotId: SNAP,
    autonomy: 'autonomous',
    boundToolCount: tools.length,
    presentedTokens: 0,
    collisions: [],
    openedAtMs: NOW - 1000,
    expiresAtMs: NOW + 60_000,
    ...extra,
  };
}

interface World {
  dispatcher: DispatchService;
  audits: ToolCalledEvent[];
  /** Start records (AuditPort.toolStarting), with how many tools had run when each was made. */
  starting: Array<{ event: ToolCalledEvent; invocationsBefore: number }>;
  /** Thrown by toolStarting when set (the spool refused the record). */
  startError?: Error;
  /** The dispatcher's clock, ms. */
  clock: number;
  invocations: Array<{ capability: string; tool: string; args: Record<string, unknown>; timeoutMs: number }>;
  system: Array<{ name: string; args: Record<string, unknown> }>;
  exporter: InMemorySpanExporter;
  policy: AdmissionPolicy;
  autonomy: Map<string, Autonomy>;
  toolResult: (tool: string) => Promise<ToolResult>;
  mapResult: { decision: string; metadata: UnifiedInfo | undefined; explanation: string };
  discoverCalls: Array<{ snapshotId: string; query: string; limit: number }>;
  discoveryError?: AppError;
  /** Names published by a bound capability but hidden from the principal, with the rule that hides them. */
  hidden: Map<string, string>;
}

function makeWorld(): World {
  const surfaces = new Map<string, SurfaceRecord>([
    ['s-direct', surface('s-direct', 'direct')],
    ['s-disc', surface('s-disc', 'discovery')],
    ['s-uni', surface('s-uni', 'unified')],
    ['s-gw', surface('s-gw', 'unified', { kind: 'gateway', id: 'gw' }, { autonomy: 'autonomous' })],
    ['s-mallory', surface('s-mallory', 'discovery', { kind: 'agent', id: 'mallory' })],
    ['s-expired', surface('s-expired', 'direct', undefined, { expiresAtMs: NOW - 1 })],
    ['s-closed', surface('s-closed', 'direct', undefined, { closedAtMs: NOW - 5 })],
  ]);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const w: World = {
    audits: [],
    starting: [],
    clock: NOW,
    invocations: [],
    system: [],
    exporter,
    policy: {
      default: 'allow',
      rules: [{ id: 'no-mallory-echo', effect: 'deny', principals: ['agent:mallory'], capabilities: ['*'], tools: ['echo'] }],
    },
    autonomy: new Map(),
    hidden: new Map(),
    toolResult: async (tool) => ({ content: [{ type: 'text', text: `ran ${tool}` }], isError: false }),
    mapResult: {
      decision: 'execute',
      metadata: {
        tool: 'echo',
        confidence: 0.91,
        argumentsJson: '{"message":"hi"}',
        candidates: [],
        missingArguments: [],
        executed: false,
      },
      explanation: '',
    },
    discoverCalls: [],
    dispatcher: undefined as unknown as DispatchService,
  };
  const ports: DispatchPorts = {
    surfaces: { get: async (id) => surfaces.get(id) },
    snapshots: {
      get: async (id) => {
        if (id !== SNAP) throw new AppError(ReasonCode.SNAPSHOT_NOT_FOUND, 'no such snapshot');
        return snapshot;
      },
    },
    settings: {
      admissionPolicy: () => w.policy,
      autonomy: (p) => w.autonomy.get(`${p.kind}:${p.id}`),
      isBoundToolName: (_p, name) => name === 'get-sum' || name === 'everything.get-sum',
      hiddenBy: (_p, name) => w.hidden.get(name),
    },
    discovery: {
      discoverTools: async (req) => {
        if (w.discoveryError) throw w.discoveryError;
        w.discoverCalls.push(req);
        return {
          hits: [
            { name: 'echo', description: 'Echoes', score: 2 },
            { name: 'memory.read_graph', description: 'Reads', score: 1 },
          ],
          totalTools: 3,
          emptyReason: '',
          hint: '',
        };
      },
      getToolSchema: async (req) => {
        const t = snapshot.byName.get(req.name)!;
        return { name: t.name, description: t.description, inputSchema: t.inputSchema };
      },
    },
    unified: { mapRequest: async () => w.mapResult },
    capabilities: {
      call: async (capability, tool, args, timeoutMs) => {
        w.invocations.push({ capability, tool, args, timeoutMs });
        return w.toolResult(tool);
      },
      timeoutMs: (c) => (c === 'everything' ? 1500 : undefined),
    },
    systemTools: {
      run: async (name, _p, args) => {
        w.system.push({ name, args });
        return { content: [{ type: 'text', text: `system ${name}` }], isError: false };
      },
    },
    audit: {
      toolCalled: (e) => w.audits.push(e),
      toolStarting: (e) => {
        if (w.startError) throw w.startError;
        w.starting.push({ event: e, invocationsBefore: w.invocations.length });
      },
    },
    now: () => w.clock,
  };
  w.dispatcher = new DispatchService(ports, { maxArgumentsBytes: 1024, tracer: provider.getTracer('test') });
  return w;
}

function call(w: World, surfaceId: string, name: string, args: unknown = {}, callId = 'call-1'): Promise<CallResult> {
  return w.dispatcher.callTool({ surfaceId, name, argumentsJson: typeof args === 'string' ? args : JSON.stringify(args), callId });
}

async function callerError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a caller error');
}

function expectModelError(r: CallResult, reason: ReasonCode, messagePart: string | RegExp) {
  expect(r.isError).toBe(true);
  expect(r.reason).toBe(reason);
  expect(r.message).toMatch(messagePart);
  expect(JSON.parse(r.contentJson)).toEqual([{ type: 'text', text: r.message }]);
}

let w: World;
beforeEach(() => {
  w = makeWorld();
});

describe('step 1: the request and the surface', () => {
  it('refuses a malformed request as a caller error', async () => {
    expect((await callerError(call(w, '', 'echo'))).code).toBe(ReasonCode.INVALID_REQUEST);
    expect((await callerError(call(w, 's-direct', ''))).code).toBe(ReasonCode.INVALID_REQUEST);
    const long = await callerError(call(w, 's-direct', 'x'.repeat(257)));
    expect(long.code).toBe(ReasonCode.INVALID_REQUEST);
    expect(long.message).toMatch('256');
  });

  it('refuses an unknown, a closed and an expired surface as caller errors', async () => {
    expect((await callerError(call(w, 'nope', 'echo'))).code).toBe(ReasonCode.SURFACE_NOT_FOUND);
    const closed = await callerError(call(w, 's-closed', 'echo'));
    expect(closed.code).toBe(ReasonCode.SURFACE_NOT_FOUND);
    expect(closed.message).toMatch('was closed');
    expect((await callerError(call(w, 's-expired', 'echo'))).code).toBe(ReasonCode.SURFACE_EXPIRED);
    // Each still leaves its audit event; the unknown surface has no principal to record.
    expect(w.audits.map((a) => [a.surfaceId, a.outcome, a.reason, a.principal?.id])).toEqual([
      ['nope', 'refused', 'SURFACE_NOT_FOUND', undefined],
      ['s-closed', 'refused', 'SURFACE_NOT_FOUND', undefined],
      ['s-expired', 'refused', 'SURFACE_EXPIRED', undefined],
    ]);
    expect(w.invocations).toHaveLength(0);
  });
});

describe('direct mode', () => {
  it('runs a bound tool under its original name and audits it', async () => {
    const r = await call(w, 's-direct', 'memory.read_graph');
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.contentJson)).toEqual([{ type: 'text', text: 'ran read_graph' }]);
    expect(r.toolName).toBe('memory.read_graph');
    expect(r.via).toBe('direct');
    expect(w.invocations).toEqual([{ capability: 'memory', tool: 'read_graph', args: {}, timeoutMs: 30_000 }]);
    expect(w.audits).toEqual([
      expect.objectContaining({
        surfaceId: 's-direct',
        calledName: 'memory.read_graph',
        toolName: 'memory.read_graph',
        capability: 'memory',
        via: 'direct',
        outcome: 'ok',
        reason: '',
        admission: { decision: 'allow', rule: 'default' },
        callId: 'call-1',
        snapshotId: SNAP,
      }),
    ]);
  });

  it('uses the capability timeout', async () => {
    await call(w, 's-direct', 'echo', { message: 'hi' });
    expect(w.invocations[0].timeoutMs).toBe(1500);
  });

  it('refuses an unknown name with TOOL_NOT_FOUND and a name bound after the surface opened with TOOL_NOT_IN_SNAPSHOT', async () => {
    expectModelError(
      await call(w, 's-direct', 'nope'),
      ReasonCode.TOOL_NOT_FOUND,
      'There is no tool named "nope" on this surface; call one of the tools listed on this surface.',
    );
    expectModelError(await call(w, 's-direct', 'get-sum'), ReasonCode.TOOL_NOT_IN_SNAPSHOT, 'was not available when this surface opened');
    expect(w.audits.map((a) => [a.outcome, a.reason])).toEqual([
      ['refused', 'TOOL_NOT_FOUND'],
      ['refused', 'TOOL_NOT_IN_SNAPSHOT'],
    ]);
    expect(w.invocations).toHaveLength(0);
  });

  it('answers a tool hidden by a deny rule exactly as a name that does not exist; only the audit names the rule', async () => {
    const unknown = await call(w, 's-direct', 'drop_database', {}, 'c-unknown');
    w.hidden.set('drop_database', 'no-drops');
    const hidden = await call(w, 's-direct', 'drop_database', {}, 'c-hidden');
    expect(hidden).toEqual(unknown);
    expectModelError(hidden, ReasonCode.TOOL_NOT_FOUND, 'There is no tool named "drop_database" on this surface');
    expect(w.audits.map((a) => [a.reason, a.admission])).toEqual([
      ['TOOL_NOT_FOUND', undefined],
      ['TOOL_NOT_FOUND', { decision: 'deny', rule: 'no-drops' }],
    ]);
    // Through execute_tool too: the same answer as for a name nobody publishes.
    const viaMeta = await call(w, 's-disc', 'execute_tool', { name: 'drop_database', arguments: {} });
    w.hidden.clear();
    expect(await call(w, 's-disc', 'execute_tool', { name: 'drop_database', arguments: {} })).toEqual(viaMeta);
    expect(w.invocations).toHaveLength(0);
  });

  it('refuses meta-tools of other modes with TOOL_NOT_FOUND', async () => {
    for (const meta of ['execute_tool', 'discover_tools', 'get_tool_schema', 'unified_tool']) {
      expectModelError(await call(w, 's-direct', meta, { name: 'echo', query: 'x', request: 'x' }), ReasonCode.TOOL_NOT_FOUND, `"${meta}"`);
    }
    expectModelError(await call(w, 's-disc', 'unified_tool', { request: 'x' }), ReasonCode.TOOL_NOT_FOUND, 'discover_tools');
    expectModelError(await call(w, 's-uni', 'execute_tool', { name: 'echo' }), ReasonCode.TOOL_NOT_FOUND, 'unified_tool');
    expect(w.invocations).toHaveLength(0);
  });
});

describe('discovery mode', () => {
  it('refuses a bound tool by its own name', async () => {
    const r = await call(w, 's-disc', 'echo', { message: 'hi' });
    expectModelError(
      r,
      ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE,
      '"echo" cannot be called directly on this surface; call discover_tools first, then execute_tool.',
    );
    expect(w.audits[0]).toMatchObject({ outcome: 'refused', reason: 'TOOL_NOT_DIRECTLY_CALLABLE', toolName: 'echo', via: 'direct' });
    expect(w.invocations).toHaveLength(0);
  });

  it('runs a snapshot tool through execute_tool', async () => {
    const r = await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 'hi' } });
    expect(r.isError).toBe(false);
    expect(r.via).toBe('execute_tool');
    expect(r.toolName).toBe('echo');
    expect(w.invocations).toEqual([{ capability: 'everything', tool: 'echo', args: { message: 'hi' }, timeoutMs: 1500 }]);
    expect(w.audits[0]).toMatchObject({ calledName: 'execute_tool', toolName: 'echo', via: 'execute_tool', outcome: 'ok' });
  });

  it('validates execute_tool against the snapshot, whatever is bound now', async () => {
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'get-sum', arguments: {} }),
      ReasonCode.TOOL_NOT_IN_SNAPSHOT,
      '"get-sum" is not among the tools of this surface; call discover_tools to find a tool that is.',
    );
    expectModelError(await call(w, 's-disc', 'execute_tool', { name: 'made-up' }), ReasonCode.TOOL_NOT_IN_SNAPSHOT, 'call discover_tools');
  });

  it('records the inner name a refused meta-tool call tried', async () => {
    await call(w, 's-disc', 'execute_tool', { name: 'drop_database', arguments: {} });
    await call(w, 's-disc', 'execute_tool', { name: 'drop_database', arguments: 'not an object' });
    await call(w, 's-disc', 'get_tool_schema', { name: 'drop_database' });
    await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 'hi' } });
    expect(w.audits.map((a) => [a.calledName, a.attemptedName, a.outcome, a.reason])).toEqual([
      ['execute_tool', 'drop_database', 'refused', 'TOOL_NOT_IN_SNAPSHOT'],
      ['execute_tool', 'drop_database', 'refused', 'INVALID_ARGUMENTS'],
      ['get_tool_schema', 'drop_database', 'refused', 'TOOL_NOT_IN_SNAPSHOT'],
      ['execute_tool', 'echo', 'ok', ''],
    ]);
    // Bounded like every name in the event.
    await call(w, 's-disc', 'execute_tool', { name: 'x'.repeat(600), arguments: {} });
    expect(w.audits.at(-1)?.attemptedName).toHaveLength(256);
  });

  it('refuses recursion and system tools behind execute_tool', async () => {
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'execute_tool', arguments: { name: 'echo' } }),
      ReasonCode.TOOL_NOT_IN_SNAPSHOT,
      'cannot be run through execute_tool',
    );
    // Says it is a system tool, then how to call it.
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'journal_append', arguments: { entry: 'x' } }),
      ReasonCode.TOOL_NOT_IN_SNAPSHOT,
      /system tool.*call it directly/,
    );
    expect(w.system).toHaveLength(0);
    expect(w.invocations).toHaveLength(0);
  });

  it('refuses and audits malformed execute_tool arguments', async () => {
    expectModelError(await call(w, 's-disc', 'execute_tool', { arguments: {} }), ReasonCode.INVALID_ARGUMENTS, '/name is required');
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: [1] }),
      ReasonCode.INVALID_ARGUMENTS,
      '/arguments must be object',
    );
    expect(w.audits.map((a) => [a.calledName, a.via, a.outcome, a.reason])).toEqual([
      ['execute_tool', 'execute_tool', 'refused', 'INVALID_ARGUMENTS'],
      ['execute_tool', 'execute_tool', 'refused', 'INVALID_ARGUMENTS'],
    ]);
    expect(w.invocations).toHaveLength(0);
  });

  it('checks the inner arguments against the tool schema', async () => {
    const r = await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 5, extra: true } });
    expectModelError(
      r,
      ReasonCode.INVALID_ARGUMENTS,
      '"echo" do not match its input schema (/extra is not allowed; /message must be string); call get_tool_schema',
    );
    expect(w.audits[0]).toMatchObject({ outcome: 'refused', reason: 'INVALID_ARGUMENTS', via: 'execute_tool' });
  });

  it('asks discovery with the surface snapshot and drops tools admission refuses outright', async () => {
    const r = await call(w, 's-mallory', 'discover_tools', { query: 'echo things', limit: 5 });
    expect(r.isError).toBe(false);
    expect(r.via).toBe('meta');
    expect(w.discoverCalls).toEqual([{ snapshotId: SNAP, query: 'echo things', limit: 5 }]);
    const body = JSON.parse(r.structuredContentJson);
    expect(body.hits.map((h: { name: string }) => h.name)).toEqual(['memory.read_graph']);
    expect(JSON.parse(JSON.parse(r.contentJson)[0].text)).toEqual(body);
    expect(w.audits).toEqual([
      expect.objectContaining({
        calledName: 'discover_tools',
        toolName: 'discover_tools',
        capability: 'meta',
        via: 'direct',
        outcome: 'ok',
        admission: undefined,
      }),
    ]);
  });

  it('returns one tool schema and refuses names outside the snapshot', async () => {
    const r = await call(w, 's-disc', 'get_tool_schema', { name: 'echo' });
    expect(JSON.parse(r.structuredContentJson)).toMatchObject({ name: 'echo', inputSchema: echoSchema });
    expectModelError(await call(w, 's-disc', 'get_tool_schema', { name: 'nope' }), ReasonCode.TOOL_NOT_IN_SNAPSHOT, 'discover_tools');
  });

  it('passes model-facing discovery errors to the model and keeps the others for the caller', async () => {
    expectModelError(await call(w, 's-disc', 'discover_tools', { query: '  ' }), ReasonCode.INVALID_ARGUMENTS, 'discover_tools is blank');
    w.discoveryError = new AppError(ReasonCode.INVALID_ARGUMENTS, 'query is empty; send a query.');
    expectModelError(
      await call(w, 's-disc', 'discover_tools', { query: 'x' }),
      ReasonCode.INVALID_ARGUMENTS,
      'query is empty; send a query.',
    );
    w.discoveryError = new AppError(ReasonCode.UNAVAILABLE, 'service unavailable');
    expect((await callerError(call(w, 's-disc', 'discover_tools', { query: 'x' }))).code).toBe(ReasonCode.UNAVAILABLE);
  });
});

describe('unified mode', () => {
  it('refuses a bound tool by its own name', async () => {
    expectModelError(
      await call(w, 's-uni', 'echo', { message: 'x' }),
      ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE,
      '"echo" cannot be called directly on this surface; use unified_tool.',
    );
  });

  it('runs the mapped tool for an autonomous principal', async () => {
    const r = await call(w, 's-uni', 'unified_tool', { request: 'say hi', preferred_tools: ['echo'] });
    expect(r.isError).toBe(false);
    expect(r.via).toBe('unified_tool');
    expect(r.unified).toMatchObject({ tool: 'echo', confidence: 0.91, argumentsJson: '{"message":"hi"}', executed: true });
    expect(w.invocations).toEqual([{ capability: 'everything', tool: 'echo', args: { message: 'hi' }, timeoutMs: 1500 }]);
    expect(w.audits[0]).toMatchObject({ calledName: 'unified_tool', via: 'unified_tool', outcome: 'ok' });
  });

  it("runs nothing when the mapper's execute carries arguments the schema refuses, whatever its confidence", async () => {
    // (a mapper's number past Number.MAX_VALUE reaches here as null: JSON has no Infinity)
    for (const argumentsJson of ['{"message":5}', '{"message":null}', '{}']) {
      w.mapResult = { ...w.mapResult, metadata: { ...w.mapResult.metadata!, confidence: 1, argumentsJson } };
      const r = await call(w, 's-uni', 'unified_tool', { request: 'say hi' });
      expectModelError(r, ReasonCode.INVALID_ARGUMENTS, /message/);
    }
    expect(w.invocations).toEqual([]);
  });

  it('proposes and runs nothing for a supervised gateway (current presentation record wins)', async () => {
    w.autonomy.set('gateway:gw', 'supervised');
    const r = await call(w, 's-gw', 'unified_tool', { request: 'say hi' });
    expect(r.isError).toBe(false);
    expect(r.reason).toBe('');
    expect(r.unified).toMatchObject({ tool: 'echo', confidence: 0.91, argumentsJson: '{"message":"hi"}', executed: false });
    expect(JSON.parse(r.structuredContentJson)).toEqual({ proposal: { tool: 'echo', arguments: { message: 'hi' }, confidence: 0.91 } });
    expect(w.invocations).toHaveLength(0);
    expect(w.audits).toEqual([
      expect.objectContaining({ calledName: 'unified_tool', toolName: 'echo', via: 'unified_tool', outcome: 'proposed', reason: '' }),
    ]);
    w.autonomy.set('gateway:gw', 'autonomous');
    expect((await call(w, 's-gw', 'unified_tool', { request: 'say hi' })).unified?.executed).toBe(true);
  });

  it('refuses, rather than proposes, a call admission would refuse for a supervised gateway', async () => {
    w.autonomy.set('gateway:gw', 'supervised');
    w.policy = {
      default: 'allow',
      rules: [
        {
          id: 'no-secret-echo',
          effect: 'deny',
          principals: ['*'],
          capabilities: ['everything'],
          tools: ['echo'],
          arguments: { message: '*secret*' },
        },
      ],
    };
    w.mapResult = { ...w.mapResult, metadata: { ...w.mapResult.metadata!, argumentsJson: '{"message":"the secret"}' } };
    expectModelError(await call(w, 's-gw', 'unified_tool', { request: 'say the secret' }), ReasonCode.PERMISSION_DENIED, '"echo"');
    expect(w.audits.map((a) => [a.outcome, a.reason, a.admission?.rule])).toEqual([['refused', 'PERMISSION_DENIED', 'no-secret-echo']]);
    expect(w.invocations).toHaveLength(0);
  });

  describe('a call a person answered for (MCP elicitation)', () => {
    const answered = (surfaceId: string, name: string, args: unknown, person: 'approved' | 'chose') =>
      w.dispatcher.callAnsweredByPerson({ surfaceId, name, argumentsJson: JSON.stringify(args), callId: 'call-2' }, person);

    it('runs on a supervised gateway through the call path, via unified_tool, audited with the person', async () => {
      w.autonomy.set('gateway:gw', 'supervised');
      const r = await answered('s-gw', 'echo', { message: 'hi' }, 'approved');
      expect(r.isError).toBe(false);
      expect(r.via).toBe('unified_tool');
      expect(w.invocations).toEqual([{ capability: 'everything', tool: 'echo', args: { message: 'hi' }, timeoutMs: 1500 }]);
      expect(w.audits).toEqual([
        expect.objectContaining({ calledName: 'echo', toolName: 'echo', via: 'unified_tool', outcome: 'ok', person: 'approved' }),
      ]);
    });

    it('checks the schema and admission again: what they refuse does not run', async () => {
      w.policy = {
        default: 'allow',
        rules: [
          {
            id: 'no-secret-echo',
            effect: 'deny',
            principals: ['*'],
            capabilities: ['everything'],
            tools: ['echo'],
            arguments: { message: '*secret*' },
          },
        ],
      };
      expectModelError(await answered('s-gw', 'echo', { message: 'the secret' }, 'chose'), ReasonCode.PERMISSION_DENIED, '"echo"');
      expectModelError(await answered('s-gw', 'echo', { message: 7 }, 'chose'), ReasonCode.INVALID_ARGUMENTS, 'message');
      expect(w.invocations).toHaveLength(0);
      expect(w.audits.map((a) => [a.outcome, a.reason, a.person])).toEqual([
        ['refused', 'PERMISSION_DENIED', 'chose'],
        ['refused', 'INVALID_ARGUMENTS', 'chose'],
      ]);
    });

    it('a person’s no runs nothing and is one event of its own, with the tool, its capability and the reason kept', async () => {
      await w.dispatcher.auditPersonRefused({ surfaceId: 's-gw', callId: 'call-3', tool: 'echo', reason: '' }, 'declined');
      await w.dispatcher.auditPersonRefused(
        { surfaceId: 's-gw', callId: 'call-4', tool: 'echo', reason: ReasonCode.LOW_CONFIDENCE },
        'cancelled',
      );
      // A surface gone by the time the person answered still leaves the event.
      await w.dispatcher.auditPersonRefused({ surfaceId: 's-gone', callId: 'call-5', tool: '', reason: '' }, 'cancelled');
      expect(w.invocations).toHaveLength(0);
      expect(
        w.audits.map((a) => [a.surfaceId, a.principal?.id, a.calledName, a.toolName, a.capability, a.outcome, a.reason, a.person]),
      ).toEqual([
        ['s-gw', 'gw', 'unified_tool', 'echo', 'everything', 'declined', '', 'declined'],
        ['s-gw', 'gw', 'unified_tool', 'echo', 'everything', 'cancelled', 'LOW_CONFIDENCE', 'cancelled'],
        ['s-gone', undefined, 'unified_tool', '', '', 'cancelled', '', 'cancelled'],
      ]);
      expect(w.audits.map((a) => [a.via, a.callId, a.attemptedName])).toEqual([
        ['unified_tool', 'call-3', 'echo'],
        ['unified_tool', 'call-4', 'echo'],
        ['unified_tool', 'call-5', undefined],
      ]);
    });

    it('is refused where the surface does not present unified_tool', async () => {
      expectModelError(await answered('s-disc', 'echo', { message: 'hi' }, 'approved'), ReasonCode.TOOL_NOT_FOUND, 'unified_tool');
      expect(w.invocations).toHaveLength(0);
    });
  });

  it('refuses low confidence and lists the candidates', async () => {
    w.mapResult = {
      decision: 'low_confidence',
      explanation: '',
      metadata: {
        tool: 'echo',
        confidence: 0.4,
        argumentsJson: '',
        missingArguments: [],
        executed: false,
        candidates: [
          { name: 'memory.read_graph', confidence: 0.31, argumentsJson: '', missingArguments: [] },
          { name: 'echo', confidence: 0.4, argumentsJson: '', missingArguments: [] },
        ],
      },
    };
    const r = await call(w, 's-uni', 'unified_tool', { request: 'do something' });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      'No tool fits this request with confidence 0.7 or more (best: echo 0.40, memory.read_graph 0.31); rephrase',
    );
    expect(r.unified?.candidates.map((c) => c.name)).toEqual(['echo', 'memory.read_graph']);
    expect(r.unified?.executed).toBe(false);
    expect(w.invocations).toHaveLength(0);
  });

  it('says what the best tool still needs, and suggests preferred_tools only where the request named none', async () => {
    const lacking = (missing: string[]) => ({
      decision: 'low_confidence',
      explanation: '',
      metadata: {
        tool: 'echo',
        confidence: 0.45,
        argumentsJson: '{}',
        missingArguments: missing,
        executed: false,
        candidates: [{ name: 'echo', confidence: 0.45, argumentsJson: '{}', missingArguments: missing }],
      },
    });
    w.mapResult = lacking(['message']);
    let r = await call(w, 's-uni', 'unified_tool', { request: 'Echo', preferred_tools: ['echo'] });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      'No tool fits this request with confidence 0.7 or more (best: echo 0.45); echo would also need "message", which the request does not give; give that value in the request or context.',
    );
    r = await call(w, 's-uni', 'unified_tool', { request: 'Echo' });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      'echo would also need "message", which the request does not give; give that value in the request or context, and name the tool in preferred_tools if it is the one meant.',
    );
    w.mapResult = lacking([]);
    r = await call(w, 's-uni', 'unified_tool', { request: 'Echo it', preferred_tools: ['echo'] });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      '(best: echo 0.45); give the values the tool takes explicitly (name: value), or rephrase the request with more detail.',
    );
    expect(w.invocations).toHaveLength(0);
  });

  it('says that no bound tool seems to serve a request no candidate is close to, and asks for no argument', async () => {
    w.mapResult = {
      decision: 'low_confidence',
      explanation: `${UNIFIED_NO_CLOSE_TOOL_PREFIX} (the closest, get-sum, is the tool meant with probability 0.106); rephrase the request if a tool was meant, or name it in preferred_tools.`,
      metadata: {
        tool: 'get-sum',
        confidence: 0.106,
        argumentsJson: '{}',
        missingArguments: ['a', 'b'],
        executed: false,
        candidates: [{ name: 'get-sum', confidence: 0.106, argumentsJson: '{}', missingArguments: ['a', 'b'] }],
      },
    };
    const r = await call(w, 's-uni', 'unified_tool', { request: 'Book a table for two at an Italian restaurant tonight' });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      "No bound tool seems to serve this request (closest: get-sum 0.10); rephrase the request if one of this surface's tools was meant, or tell the user this surface has no tool for it.",
    );
    expect(r.message).not.toMatch(/"a"|would also need/);
    expect(r.unified?.candidates.map((c) => c.name)).toEqual(['get-sum']);
    expect(w.invocations).toHaveLength(0);
  });

  it('passes on why the mapper held back a call it was confident of, and reads 0.699 as 0.69', async () => {
    w.mapResult = {
      decision: 'low_confidence',
      explanation:
        'Not run: get-sum would leave out "3" of the request; ask for one call per value, or give the values its parameters take.',
      metadata: {
        tool: 'get-sum',
        confidence: 0.699,
        argumentsJson: '{"a":17,"b":25}',
        missingArguments: [],
        executed: false,
        candidates: [{ name: 'get-sum', confidence: 0.699, argumentsJson: '{"a":17,"b":25}', missingArguments: [] }],
      },
    };
    const r = await call(w, 's-uni', 'unified_tool', { request: 'sum of 17 and 25 and 3' });
    expectModelError(
      r,
      ReasonCode.LOW_CONFIDENCE,
      'Not run: get-sum would leave out "3" of the request; ask for one call per value, or give the values its parameters take (confidence 0.69, below 0.7.)',
    );
    expect(w.invocations).toHaveLength(0);
  });

  it('names missing arguments', async () => {
    w.mapResult = {
      decision: 'missing_arguments',
      explanation: '',
      metadata: { tool: 'echo', confidence: 0.8, argumentsJson: '{}', missingArguments: ['message'], candidates: [], executed: false },
    };
    expectModelError(
      await call(w, 's-uni', 'unified_tool', { request: 'echo' }),
      ReasonCode.MISSING_ARGUMENTS,
      '"echo" needs "message"; call unified_tool again',
    );
  });

  it('still validates and admits the mapped call', async () => {
    w.mapResult = { ...w.mapResult, metadata: { ...w.mapResult.metadata!, argumentsJson: '{"message":1}' } };
    const r = await call(w, 's-uni', 'unified_tool', { request: 'say hi' });
    expectModelError(r, ReasonCode.INVALID_ARGUMENTS, '/message must be string');
    expect(r.unified?.executed).toBe(false);
  });
});

describe('arguments', () => {
  it('treats "" as {} and refuses non-objects, bad JSON and oversize arguments', async () => {
    expect((await call(w, 's-direct', 'memory.read_graph', '')).isError).toBe(false);
    expectModelError(
      await call(w, 's-direct', 'echo', '[1]'),
      ReasonCode.INVALID_ARGUMENTS,
      'The arguments must be a JSON object, not an array; send them as one JSON object.',
    );
    expectModelError(await call(w, 's-direct', 'echo', '{"message":'), ReasonCode.INVALID_ARGUMENTS, 'not valid JSON');
    expectModelError(
      await call(w, 's-direct', 'echo', { message: 'x'.repeat(2000) }),
      ReasonCode.INVALID_ARGUMENTS,
      'over the limit of 1024 bytes',
    );
    expectModelError(await call(w, 's-direct', 'echo', {}), ReasonCode.INVALID_ARGUMENTS, '/message is required');
    expect(w.audits.map((a) => a.reason)).toEqual(['', 'INVALID_ARGUMENTS', 'INVALID_ARGUMENTS', 'INVALID_ARGUMENTS', 'INVALID_ARGUMENTS']);
  });

  it('refuses an unknown name before complaining about its arguments', async () => {
    expectModelError(await call(w, 's-direct', 'nope', '[1]'), ReasonCode.TOOL_NOT_FOUND, 'nope');
  });
});

describe('admission', () => {
  it('refuses on every path with the same decision and names nothing secret', async () => {
    const direct = await call(w, 's-direct', 'echo', { message: 'x' });
    expect(direct.isError).toBe(false);
    const viaExecute = await call(w, 's-mallory', 'execute_tool', { name: 'echo', arguments: { message: 'x' } });
    expectModelError(
      viaExecute,
      ReasonCode.PERMISSION_DENIED,
      'You are not permitted to call "echo"; use another tool or ask the user for help.',
    );
    expect(viaExecute.message).not.toMatch('no-mallory-echo');
    expect(w.audits[1]).toMatchObject({
      outcome: 'refused',
      reason: 'PERMISSION_DENIED',
      admission: { decision: 'deny', rule: 'no-mallory-echo' },
    });
    w.policy = { default: 'deny', rules: [] };
    expectModelError(await call(w, 's-uni', 'unified_tool', { request: 'say hi' }), ReasonCode.PERMISSION_DENIED, '"echo"');
    expectModelError(await call(w, 's-direct', 'journal_read', {}), ReasonCode.PERMISSION_DENIED, '"journal_read"');
    expect(w.invocations).toHaveLength(1);
    expect(w.system).toHaveLength(0);
  });
});

describe('conditional admission', () => {
  it('decides on the arguments the same way directly, through execute_tool and through unified_tool', async () => {
    w.policy = {
      default: 'allow',
      rules: [
        {
          id: 'no-secret-echo',
          effect: 'deny',
          principals: ['*'],
          capabilities: ['everything'],
          tools: ['echo'],
          arguments: { message: '*secret*' },
        },
      ],
    };
    expect((await call(w, 's-direct', 'echo', { message: 'hello' })).isError).toBe(false);
    expectModelError(await call(w, 's-direct', 'echo', { message: 'the secret plan' }), ReasonCode.PERMISSION_DENIED, '"echo"');
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 'my secret' } }),
      ReasonCode.PERMISSION_DENIED,
      '"echo"',
    );
    w.mapResult = { ...w.mapResult, metadata: { ...w.mapResult.metadata!, argumentsJson: '{"message":"secret"}' } };
    expectModelError(await call(w, 's-uni', 'unified_tool', { request: 'say the secret' }), ReasonCode.PERMISSION_DENIED, '"echo"');
    expect(w.audits.slice(1).map((a) => [a.via, a.admission])).toEqual([
      ['direct', { decision: 'deny', rule: 'no-secret-echo' }],
      ['execute_tool', { decision: 'deny', rule: 'no-secret-echo' }],
      ['unified_tool', { decision: 'deny', rule: 'no-secret-echo' }],
    ]);
    // A conditional deny does not hide the tool from discovery.
    const found = await call(w, 's-disc', 'discover_tools', { query: 'echo' });
    expect(JSON.parse(found.structuredContentJson).hits.map((h: { name: string }) => h.name)).toContain('echo');
  });
});

describe('deadlines', () => {
  it("does not start a tool when too little of the caller's deadline is left, and says so", async () => {
    const req = { surfaceId: 's-direct', name: 'echo', argumentsJson: '{"message":"x"}', callId: 'late' };
    expectModelError(
      await w.dispatcher.callTool(req, NOW + RESPONSE_MARGIN_MS + 5),
      ReasonCode.TOOL_TIMEOUT,
      'Too little time was left to run "echo", so it did not run',
    );
    expect(w.invocations).toHaveLength(0);
    expect(w.audits).toEqual([expect.objectContaining({ outcome: 'refused', reason: 'TOOL_TIMEOUT' })]);
    // With enough time the tool gets what is left of the deadline, less the margin.
    expect((await w.dispatcher.callTool(req, NOW + RESPONSE_MARGIN_MS + 500)).isError).toBe(false);
    expect(w.invocations.map((i) => i.timeoutMs)).toEqual([500]);
  });
});

describe('admission limits', () => {
  const echoCalls = (w: World) => w.invocations.filter((i) => i.tool === 'echo').length;

  it('refuses a call over the rate on every path, tells the model when to retry, and lets it through once the bucket refills', async () => {
    w.policy = {
      default: 'allow',
      rules: [],
      limits: [
        {
          id: 'echo-2-per-10s',
          principals: ['agent:*'],
          capabilities: ['everything'],
          tools: ['echo'],
          rate: { calls: 2, perSeconds: 10, per: 'tool' },
        },
      ],
    };
    expect((await call(w, 's-direct', 'echo', { message: 'a' })).isError).toBe(false);
    expect((await call(w, 's-direct', 'echo', { message: 'b' })).isError).toBe(false);
    expectModelError(
      await call(w, 's-direct', 'echo', { message: 'c' }),
      ReasonCode.RATE_LIMITED,
      'Too many calls to "echo" for now; wait 5 s',
    );
    // The bucket belongs to the principal, not to the surface or the path.
    expectModelError(
      await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 'd' } }),
      ReasonCode.RATE_LIMITED,
      '"echo"',
    );
    // Another tool has its own bucket.
    expect((await call(w, 's-direct', 'memory.read_graph', {})).isError).toBe(false);
    expect(echoCalls(w)).toBe(2);
    expect(w.audits.filter((a) => a.reason === 'RATE_LIMITED').map((a) => [a.via, a.admission])).toEqual([
      ['direct', { decision: 'deny', rule: 'echo-2-per-10s' }],
      ['execute_tool', { decision: 'deny', rule: 'echo-2-per-10s' }],
    ]);
    w.clock += 5_000;
    expect((await call(w, 's-direct', 'echo', { message: 'e' })).isError).toBe(false);
    expectModelError(await call(w, 's-direct', 'echo', { message: 'f' }), ReasonCode.RATE_LIMITED, '"echo"');
    expect(echoCalls(w)).toBe(3);
  });

  it('shares one bucket across tools when the limit is per principal', async () => {
    w.policy = {
      default: 'allow',
      rules: [],
      limits: [
        { id: 'one-call', principals: ['*'], capabilities: ['*'], tools: ['*'], rate: { calls: 1, perSeconds: 60, per: 'principal' } },
      ],
    };
    expect((await call(w, 's-direct', 'echo', { message: 'a' })).isError).toBe(false);
    expectModelError(await call(w, 's-direct', 'memory.read_graph', {}), ReasonCode.RATE_LIMITED, 'read_graph');
    expectModelError(await call(w, 's-direct', 'journal_read', {}), ReasonCode.RATE_LIMITED, 'journal_read');
    expect(w.system).toHaveLength(0);
  });

  it('refuses arguments over the size limit before they run, and withholds a result over it after', async () => {
    w.policy = {
      default: 'allow',
      rules: [],
      limits: [{ id: 'small', principals: ['*'], capabilities: ['everything'], tools: ['*'], maxArgumentBytes: 40, maxResultBytes: 60 }],
    };
    expectModelError(
      await call(w, 's-direct', 'echo', { message: 'x'.repeat(50) }),
      ReasonCode.ARGUMENTS_TOO_LARGE,
      'over the limit of 40 bytes',
    );
    expect(echoCalls(w)).toBe(0);
    w.toolResult = async () => ({ content: [{ type: 'text', text: 'y'.repeat(60) }], isError: false });
    const big = await call(w, 's-direct', 'echo', { message: 'y' });
    expectModelError(big, ReasonCode.RESULT_TOO_LARGE, 'over the limit of 60 bytes, so it is withheld');
    expect(big.contentJson).not.toMatch('yyyy');
    expect(echoCalls(w)).toBe(1);
    w.toolResult = async () => ({ content: [{ type: 'text', text: 'short' }], isError: false });
    expect((await call(w, 's-direct', 'echo', { message: 'z' })).isError).toBe(false);
    expect(w.audits.map((a) => [a.outcome, a.reason, a.admission?.rule])).toEqual([
      ['refused', 'ARGUMENTS_TOO_LARGE', 'small'],
      ['error', 'RESULT_TOO_LARGE', 'small'],
      ['ok', '', 'default'],
    ]);
  });

  it('checks admission rules before limits: a denied call is PERMISSION_DENIED and takes no token', async () => {
    w.policy = {
      default: 'allow',
      rules: [{ id: 'no-mallory-echo', effect: 'deny', principals: ['agent:mallory'], capabilities: ['everything'], tools: ['echo'] }],
      limits: [
        { id: 'one-call', principals: ['*'], capabilities: ['*'], tools: ['*'], rate: { calls: 1, perSeconds: 60, per: 'principal' } },
      ],
    };
    expectModelError(
      await call(w, 's-mallory', 'execute_tool', { name: 'echo', arguments: { message: 'x' } }),
      ReasonCode.PERMISSION_DENIED,
      '"echo"',
    );
    expect((await call(w, 's-mallory', 'execute_tool', { name: 'memory.read_graph', arguments: {} })).isError).toBe(false);
  });
});

describe('system tools', () => {
  it('run in every mode by their own name after validation and admission', async () => {
    for (const s of ['s-direct', 's-disc', 's-uni']) {
      const r = await call(w, s, 'journal_append', { entry: 'note', tags: ['a'] });
      expect(r.isError).toBe(false);
      expect(r.toolName).toBe('journal_append');
    }
    expect(w.system).toHaveLength(3);
    expect(w.audits.every((a) => a.capability === 'system' && a.outcome === 'ok')).toBe(true);
    expectModelError(await call(w, 's-direct', 'journal_append', { tags: [] }), ReasonCode.INVALID_ARGUMENTS, '/entry is required');
  });
});

describe('step 6 outcomes', () => {
  it('returns the tool error content with TOOL_ERROR', async () => {
    w.toolResult = async () => ({ content: [{ type: 'text', text: 'Entity with name\nX not found' }], isError: true });
    const r = await call(w, 's-direct', 'echo', { message: 'x' });
    expect(r.isError).toBe(true);
    expect(r.reason).toBe('TOOL_ERROR');
    expect(r.message).toBe('"echo" returned an error (Entity with name X not found); check the arguments or try another tool.');
    expect(JSON.parse(r.contentJson)).toEqual([{ type: 'text', text: 'Entity with name\nX not found' }]);
    expect(w.audits[0]).toMatchObject({ outcome: 'error', reason: 'TOOL_ERROR' });
  });

  it('maps a timeout and an unavailable capability', async () => {
    w.toolResult = async () => {
      throw new AppError(ReasonCode.TOOL_TIMEOUT, 'timed out');
    };
    expectModelError(
      await call(w, 's-direct', 'echo', { message: 'x' }),
      ReasonCode.TOOL_TIMEOUT,
      '"echo" did not finish within 1500 ms; try again later or with a smaller request.',
    );
    w.toolResult = async () => {
      throw new AppError(ReasonCode.CAPABILITY_UNAVAILABLE, 'not connected');
    };
    expectModelError(
      await call(w, 's-direct', 'echo', { message: 'x' }),
      ReasonCode.CAPABILITY_UNAVAILABLE,
      'unavailable right now; try again later',
    );
    expect(w.audits.map((a) => [a.outcome, a.reason])).toEqual([
      ['error', 'TOOL_TIMEOUT'],
      ['error', 'CAPABILITY_UNAVAILABLE'],
    ]);
  });

  it('caps the capability timeout by the caller deadline, less a margin for the refusal to reach the model', async () => {
    await w.dispatcher.callTool({ surfaceId: 's-direct', name: 'echo', argumentsJson: '{"message":"x"}', callId: '' }, NOW + 1200);
    expect(w.invocations[0].timeoutMs).toBe(1200 - RESPONSE_MARGIN_MS);
  });

  it('opens an execute_tool span with the GenAI and toolsurface attributes', async () => {
    await call(w, 's-disc', 'execute_tool', { name: 'echo', arguments: { message: 'x' } }, 'call-42');
    await call(w, 's-mallory', 'execute_tool', { name: 'echo', arguments: { message: 'x' } });
    const spans = w.exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['execute_tool echo', 'execute_tool echo']);
    expect(spans[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'call-42',
      'toolsurface.mode': 'discovery',
      'toolsurface.snapshot_id': SNAP,
      'toolsurface.via': 'execute_tool',
      'toolsurface.capability': 'everything',
      'toolsurface.admission.decision': 'allow',
      'toolsurface.admission.rule': 'default',
    });
    expect(spans[1].attributes).toMatchObject({ 'toolsurface.admission.decision': 'deny', 'toolsurface.reason': 'PERMISSION_DENIED' });
  });
});

describe('the audit start record (docs/operations.md, "Audit trail")', () => {
  it('is made before the tool runs, with the event that stands for the call, under the id its event gets', async () => {
    await call(w, 's-direct', 'echo', { message: 'hi' });
    expect(w.starting).toHaveLength(1);
    const [{ event, invocationsBefore }] = w.starting;
    expect(invocationsBefore).toBe(0);
    expect(event).toMatchObject({ toolName: 'echo', capability: 'everything', outcome: 'error', reason: 'INTERNAL' });
    expect(w.audits).toEqual([expect.objectContaining({ outcome: 'ok', eventId: event.eventId })]);
    expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is not made for a refused call', async () => {
    await call(w, 's-direct', 'nope');
    expect(w.starting).toEqual([]);
    expect(w.audits).toHaveLength(1);
  });

  it('when it cannot be made, the tool does not run: UNAVAILABLE to the caller, one event naming the tool', async () => {
    w.startError = new AppError(ReasonCode.UNAVAILABLE, 'the audit record could not be written');
    const e = await callerError(call(w, 's-direct', 'echo', { message: 'hi' }));
    expect(e.code).toBe(ReasonCode.UNAVAILABLE);
    expect(w.invocations).toEqual([]);
    expect(w.audits).toEqual([expect.objectContaining({ toolName: 'echo', outcome: 'error', reason: 'UNAVAILABLE' })]);
  });
});
