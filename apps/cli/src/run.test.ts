import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { AppError, ReasonCode } from '@toolsurface/core';
import { startGrpcServer, toServiceError, type GrpcServerHandle } from '@toolsurface/platform';
import {
  Autonomy,
  DispatchServiceService,
  PresentationMode,
  PresentationServiceService,
  PrincipalKind,
  ResolvedMode,
  SurfaceServiceService,
  ToolKind,
  type CallToolRequest,
  type CallToolResponse,
  type Surface,
} from '@toolsurface/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run';

// A real gRPC server on port 0 with canned answers: the CLI's wire behaviour, not the services' logic.
const surfaces = new Map<string, Surface>();
const calls: CallToolRequest[] = [];

function baseSurface(id: string, mode: ResolvedMode): Surface {
  const meta = (name: string) => ({
    name,
    title: '',
    description: `${name} meta-tool`,
    inputSchemaJson: '{"type":"object"}',
    outputSchemaJson: '',
    annotationsJson: '',
    kind: ToolKind.TOOL_KIND_META,
    capability: '',
    originalName: '',
  });
  const echo = {
    ...meta('echo'),
    description: 'Echoes back the input string',
    kind: ToolKind.TOOL_KIND_BOUND,
    capability: 'everything',
    inputSchemaJson: '{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}',
  };
  return {
    surfaceId: id,
    principal: { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'researcher' },
    configuredMode: PresentationMode.PRESENTATION_MODE_ADAPTIVE,
    resolvedMode: mode,
    snapshotId: 'snap_1',
    tools: mode === ResolvedMode.RESOLVED_MODE_DIRECT ? [echo] : [meta('discover_tools'), meta('get_tool_schema'), meta('execute_tool')],
    openedAtMs: Date.now(),
    expiresAtMs: Date.now() + 3_600_000,
    boundToolCount: 36,
    collisions: [],
    autonomy: Autonomy.AUTONOMY_AUTONOMOUS,
    presentedTokens: 485,
  };
}

const reply = (over: Partial<CallToolResponse>): CallToolResponse => ({
  contentJson: '[]',
  structuredContentJson: '',
  isError: false,
  reason: '',
  message: '',
  toolName: '',
  via: '',
  unified: undefined,
  durationMs: 0,
  ...over,
});

const fail = (cb: sendUnaryData<unknown>, code: ReasonCode, message: string) =>
  cb(toServiceError(new AppError(code, message)) as never, null);

const surfaceImpl = {
  openSurface: (call: ServerUnaryCall<{ principal: { id: string } }, unknown>, cb: sendUnaryData<unknown>) => {
    const mode = call.request.principal.id === 'notetaker' ? ResolvedMode.RESOLVED_MODE_DIRECT : ResolvedMode.RESOLVED_MODE_DISCOVERY;
    const s = baseSurface(`srf_${surfaces.size + 1}`, mode);
    surfaces.set(s.surfaceId, s);
    cb(null, { surface: s });
  },
  getSurface: (call: ServerUnaryCall<{ surfaceId: string }, unknown>, cb: sendUnaryData<unknown>) => {
    const s = surfaces.get(call.request.surfaceId);
    if (!s) return fail(cb, ReasonCode.SURFACE_NOT_FOUND, `surface "${call.request.surfaceId}" does not exist; open a new one`);
    cb(null, { surface: s });
  },
  closeSurface: (call: ServerUnaryCall<{ surfaceId: string }, unknown>, cb: sendUnaryData<unknown>) => {
    if (!surfaces.delete(call.request.surfaceId)) return fail(cb, ReasonCode.SURFACE_NOT_FOUND, 'no such surface');
    cb(null, {});
  },
};

const presentationImpl = {
  getPresentation: (call: ServerUnaryCall<{ principal: unknown }, unknown>, cb: sendUnaryData<unknown>) =>
    cb(null, {
      presentation: {
        principal: call.request.principal,
        mode: PresentationMode.PRESENTATION_MODE_ADAPTIVE,
        autonomy: Autonomy.AUTONOMY_AUTONOMOUS,
      },
    }),
  setPresentation: (call: ServerUnaryCall<{ principal: unknown; mode: number; autonomy: number }, unknown>, cb: sendUnaryData<unknown>) =>
    cb(null, {
      presentation: {
        principal: call.request.principal,
        mode: call.request.mode,
        autonomy: call.request.autonomy || Autonomy.AUTONOMY_AUTONOMOUS,
      },
    }),
  getBindings: (call: ServerUnaryCall<{ principal: unknown }, unknown>, cb: sendUnaryData<unknown>) =>
    cb(null, { principal: call.request.principal, capabilities: ['everything', 'memory'] }),
  setBindings: (call: ServerUnaryCall<{ principal: unknown; capabilities: string[] }, unknown>, cb: sendUnaryData<unknown>) => {
    const unknownCap = call.request.capabilities.find((c) => c === 'nope');
    if (unknownCap) return fail(cb, ReasonCode.INVALID_REQUEST, 'unknown capability "nope"');
    cb(null, { principal: call.request.principal, capabilities: call.request.capabilities });
  },
  applyConfig: (_call: unknown, cb: sendUnaryData<unknown>) => cb(null, {}),
  listPrincipals: (call: ServerUnaryCall<{ kind: number }, unknown>, cb: sendUnaryData<unknown>) => {
    const all = [
      {
        principal: { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'researcher' },
        configuredMode: PresentationMode.PRESENTATION_MODE_ADAPTIVE,
        resolvedMode: ResolvedMode.RESOLVED_MODE_DISCOVERY,
        autonomy: Autonomy.AUTONOMY_AUTONOMOUS,
        capabilities: ['everything', 'memory'],
        boundToolCount: 36,
        adaptiveThreshold: 30,
        inConfig: true,
      },
      {
        principal: { kind: PrincipalKind.PRINCIPAL_KIND_GATEWAY, id: 'front' },
        configuredMode: PresentationMode.PRESENTATION_MODE_UNIFIED,
        resolvedMode: ResolvedMode.RESOLVED_MODE_UNIFIED,
        autonomy: Autonomy.AUTONOMY_SUPERVISED,
        capabilities: ['memory'],
        boundToolCount: 9,
        adaptiveThreshold: 30,
        inConfig: true,
      },
    ];
    cb(null, { principals: all.filter((p) => !call.request.kind || p.principal.kind === call.request.kind) });
  },
};

const dispatchImpl = {
  callTool: (call: ServerUnaryCall<CallToolRequest, CallToolResponse>, cb: sendUnaryData<CallToolResponse>) => {
    const req = call.request;
    calls.push(req);
    if (!surfaces.has(req.surfaceId)) return fail(cb as never, ReasonCode.SURFACE_NOT_FOUND, `surface "${req.surfaceId}" does not exist`);
    const args = JSON.parse(req.argumentsJson || '{}') as Record<string, unknown>;
    switch (req.name) {
      case 'discover_tools':
        return cb(
          null,
          reply({
            structuredContentJson: JSON.stringify({ hits: [{ name: 'echo', description: 'Echoes back the input string', score: 3.2 }] }),
            via: 'meta',
          }),
        );
      case 'get_tool_schema':
        return cb(
          null,
          reply({
            structuredContentJson: JSON.stringify({
              name: args.name,
              description: 'Echoes',
              inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
            }),
            via: 'meta',
          }),
        );
      case 'execute_tool':
        return cb(
          null,
          reply({
            contentJson: JSON.stringify([{ type: 'text', text: `Echo: ${(args.arguments as { message: string }).message}` }]),
            toolName: String(args.name),
            via: 'execute_tool',
            durationMs: 0.4,
          }),
        );
      default:
        return cb(
          null,
          reply({
            isError: true,
            reason: 'TOOL_NOT_DIRECTLY_CALLABLE',
            message: `"${req.name}" cannot be called directly on this surface; call discover_tools first, then execute_tool.`,
            toolName: req.name,
          }),
        );
    }
  },
};

let server: GrpcServerHandle;
let address: string;

beforeAll(async () => {
  server = await startGrpcServer('127.0.0.1', 0, [
    { name: 'toolsurface.v1.SurfaceService', definition: SurfaceServiceService, implementation: surfaceImpl as never },
    { name: 'toolsurface.v1.PresentationService', definition: PresentationServiceService, implementation: presentationImpl as never },
    { name: 'toolsurface.v1.DispatchService', definition: DispatchServiceService, implementation: dispatchImpl as never },
  ]);
  address = `127.0.0.1:${server.port}`;
});
afterAll(async () => server?.stop(100));

/** Runs the CLI against the test server; resolves exit code, stdout and stderr. */
async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(
    ['--resolver', address, '--dispatch', address, ...argv],
    { out: (s) => (out += s), err: (s) => (err += s) },
    { env: {}, width: 100 },
  );
  return { code, out, err };
}

describe('toolsurface against a gRPC server', () => {
  it('open prints the surface and what the model sees; exit 0', async () => {
    const r = await cli('open', 'agent:researcher');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^surface {4}srf_\d+\n/);
    expect(r.out).toContain('mode       adaptive → discovery');
    expect(r.out).toContain('tokens     485 for what the model sees');
    expect(r.out).toContain('what the model sees (3 tools)\n  discover_tools   meta  discover_tools meta-tool');
  });

  it('--json prints one JSON document', async () => {
    const r = await cli('--json', 'open', 'agent:researcher');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Record<string, unknown>;
    expect(doc).toMatchObject({ principal: 'agent:researcher', resolvedMode: 'discovery', boundToolCount: 36, presentedTokens: 485 });
  });

  it('a caller error prints one line `error: REASON: message` on stderr and exits 1', async () => {
    const r = await cli('surface', 'srf_missing');
    expect(r).toEqual({ code: 1, out: '', err: 'error: SURFACE_NOT_FOUND: surface "srf_missing" does not exist; open a new one\n' });
    const bad = await cli('bindings', 'set', 'agent:a', 'nope');
    expect(bad).toEqual({ code: 1, out: '', err: 'error: INVALID_REQUEST: unknown capability "nope"\n' });
  });

  it('discover, schema and call go through DispatchService.CallTool with the meta-tools', async () => {
    const id = JSON.parse((await cli('--json', 'open', 'agent:researcher')).out).surfaceId as string;
    const d = await cli('discover', id, 'say', 'it', 'back', '--limit', '3');
    expect(d).toMatchObject({ code: 0, err: '' });
    expect(d.out).toBe('#  tool  score  description\n1  echo  3.20   Echoes back the input string\n');
    expect(calls.at(-1)).toMatchObject({ surfaceId: id, name: 'discover_tools', argumentsJson: '{"query":"say it back","limit":3}' });

    const s = await cli('schema', id, 'echo');
    expect(s.out).toBe('echo\n  Echoes\n\narguments\n  message  string  required\n');
    expect(calls.at(-1)).toMatchObject({ name: 'get_tool_schema', argumentsJson: '{"name":"echo"}' });

    const c = await cli('call', id, 'execute_tool', '{"name":"echo","arguments":{"message":"hi"}}', '--call-id', 'c-7');
    expect(c).toEqual({ code: 0, err: '', out: 'tool  echo  via execute_tool  0.4 ms in the tool\nresult\n  Echo: hi\n' });
    expect(calls.at(-1)).toMatchObject({ callId: 'c-7' });
  });

  it('a refused call prints the reason and the sentence for the model, and exits 1', async () => {
    const id = JSON.parse((await cli('--json', 'open', 'agent:researcher')).out).surfaceId as string;
    const r = await cli('call', id, 'echo', '{"message":"hi"}');
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      'tool     echo\nrefused  TOOL_NOT_DIRECTLY_CALLABLE: "echo" cannot be called directly on this surface; call\n         discover_tools first, then execute_tool.\n',
    );
    const j = await cli('--json', 'call', id, 'echo', '{"message":"hi"}');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toMatchObject({ isError: true, reason: 'TOOL_NOT_DIRECTLY_CALLABLE' });
  });

  it('schema on a direct surface reads the presented tool, without a meta-tool call', async () => {
    const id = JSON.parse((await cli('--json', 'open', 'agent:notetaker')).out).surfaceId as string;
    const before = calls.length;
    const r = await cli('schema', id, 'echo');
    expect(r.out).toBe('echo\n  Echoes back the input string\n\narguments\n  message  string  required\n');
    expect(calls.length).toBe(before);
    const missing = await cli('schema', id, 'nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('error: TOOL_NOT_FOUND: "nope" is not presented on this direct surface');
  });

  it('mode and bindings get/set', async () => {
    expect((await cli('mode', 'get', 'agent:a')).out).toBe('principal  agent:a\nmode       adaptive\nautonomy   autonomous\n');
    expect((await cli('mode', 'set', 'gateway:g', 'unified', '--autonomy', 'supervised')).out).toBe(
      'principal  gateway:g\nmode       unified\nautonomy   supervised\n',
    );
    expect((await cli('bindings', 'get', 'agent:a')).out).toBe('principal     agent:a\ncapabilities  everything, memory\n');
    expect(JSON.parse((await cli('--json', 'bindings', 'set', 'agent:a', 'memory')).out)).toEqual({
      principal: 'agent:a',
      capabilities: ['memory'],
    });
  });

  it('principals: a table of modes, resolved modes and bound tools against 30, or JSON; --kind narrows it', async () => {
    expect((await cli('principals')).out).toBe(
      [
        'PRINCIPAL         MODE      RESOLVES TO  BOUND TOOLS        AUTONOMY    CAPABILITIES',
        'agent:researcher  adaptive  discovery    36 (switch at 30)  -           everything,memory',
        'gateway:front     unified   unified      9                  supervised  memory',
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await cli('--json', 'principals', '--kind', 'gateway')).out) as { principals: unknown[] };
    expect(json.principals).toEqual([
      {
        principal: 'gateway:front',
        kind: 'gateway',
        id: 'front',
        configuredMode: 'unified',
        resolvedMode: 'unified',
        autonomy: 'supervised',
        capabilities: ['memory'],
        boundToolCount: 9,
        adaptiveThreshold: 30,
        inConfig: true,
      },
    ]);
  });

  it('close, then the surface is gone', async () => {
    const id = JSON.parse((await cli('--json', 'open', 'agent:researcher')).out).surfaceId as string;
    expect(await cli('close', id)).toEqual({ code: 0, out: `closed ${id}\n`, err: '' });
    expect((await cli('close', id)).code).toBe(1);
  });
});

describe('toolsurface without a gateway', () => {
  it('says the stack is not reachable and how to start it; exit 1', async () => {
    let err = '';
    const code = await runCli(
      ['--resolver', '127.0.0.1:1', 'open', 'agent:a'],
      { out: () => undefined, err: (s) => (err += s) },
      { env: {} },
    );
    expect(code).toBe(1);
    expect(err).toMatch(
      /^error: UNAVAILABLE: service unavailable: .*\(is the stack running\? resolver 127\.0\.0\.1:1, dispatch 127\.0\.0\.1:50053; start it with `npm start`; if the gateway speaks TLS, pass --tls-ca\)\n$/,
    );
    expect(err.split('Last error:')).toHaveLength(2);
  });

  it('says a call that got no answer in time went past --timeout, not that the stack is down; exit 1', async () => {
    // a real server whose OpenSurface answers after the CLI's deadline
    const slow = await startGrpcServer('127.0.0.1', 0, [
      {
        name: 'toolsurface.v1.SurfaceService',
        definition: SurfaceServiceService,
        implementation: {
          openSurface: (_c: unknown, cb: sendUnaryData<unknown>) =>
            void setTimeout(() => cb(null, { surface: baseSurface('s_late', ResolvedMode.RESOLVED_MODE_DIRECT) }), 400),
        } as never,
      },
    ]);
    try {
      let err = '';
      const code = await runCli(
        ['--resolver', `127.0.0.1:${slow.port}`, '--timeout', '100', 'open', 'agent:a'],
        { out: () => undefined, err: (s) => (err += s) },
        { env: {} },
      );
      expect(code).toBe(1);
      expect(err).toMatch(
        /^error: UNAVAILABLE: .*\(no answer within --timeout 100 ms: raise --timeout, or check that the stack at resolver 127\.0\.0\.1:\d+, dispatch 127\.0\.0\.1:50053 is up\)\n$/,
      );
      expect(err).not.toMatch(/is the stack running/);
    } finally {
      await slow.stop(100);
    }
  });

  it('says a server that answers DEADLINE_EXCEEDED itself is no --timeout of the CLI', async () => {
    const upstream = await startGrpcServer('127.0.0.1', 0, [
      {
        name: 'toolsurface.v1.SurfaceService',
        definition: SurfaceServiceService,
        implementation: {
          openSurface: (_c: unknown, cb: sendUnaryData<unknown>) => cb({ code: 4, details: 'upstream request timeout' } as never, null),
        } as never,
      },
    ]);
    try {
      let err = '';
      const code = await runCli(
        ['--resolver', `127.0.0.1:${upstream.port}`, 'open', 'agent:a'],
        { out: () => undefined, err: (s) => (err += s) },
        { env: {} },
      );
      expect(code).toBe(1);
      expect(err).toMatch(/^error: UNAVAILABLE: service unavailable: upstream request timeout/);
      expect(err).not.toMatch(/--timeout/);
    } finally {
      await upstream.stop(100);
    }
  });

  it('names the TLS flag whose file cannot be read, as a usage error (exit 2), before any connection', async () => {
    for (const [argv, flag, file] of [
      [['--tls-ca', '/nonexistent/ca.pem'], '--tls-ca', 'ca.pem'],
      [['--tls-ca', '/nonexistent/ca.pem', '--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/c.key'], '--tls-cert', 'c.pem'],
    ] as const) {
      let err = '';
      const code = await runCli(
        [...argv, 'open', 'agent:a'],
        { out: () => undefined, err: (s) => (err += s) },
        {
          env: {},
          connect: () => {
            throw new Error('must not connect');
          },
        },
      );
      expect(code).toBe(2);
      expect(err).toMatch(new RegExp(`^error: ${flag}: cannot read /nonexistent/${file.replace('.', '\\.')}: ENOENT`));
    }
    let err = '';
    const code = await runCli(
      ['open', 'agent:a'],
      { out: () => undefined, err: (s) => (err += s) },
      { env: { TOOLSURFACE_TLS_CA: '/nonexistent/ca.pem' } },
    );
    expect(code).toBe(2);
    expect(err).toMatch(/^error: --tls-ca: cannot read \/nonexistent\/ca\.pem/);
    // a file that is read but holds no certificate
    const dir = mkdtempSync(join(tmpdir(), 'cli-tls-'));
    try {
      const notPem = join(dir, 'ca.pem');
      writeFileSync(notPem, 'not a certificate\n');
      let err2 = '';
      expect(await runCli(['--tls-ca', notPem, 'open', 'agent:a'], { out: () => undefined, err: (s) => (err2 += s) }, { env: {} })).toBe(2);
      expect(err2).toBe(`error: TLS files (--tls-ca ${notPem}): the CA bundle file holds no PEM certificate\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage errors exit 2 before any connection', async () => {
    let err = '';
    const code = await runCli(
      ['open', 'bob'],
      { out: () => undefined, err: (s) => (err += s) },
      {
        env: {},
        connect: () => {
          throw new Error('must not connect');
        },
      },
    );
    expect(code).toBe(2);
    expect(err).toBe('error: principal "bob" needs a kind: write agent:bob or gateway:bob\n');
  });
});
