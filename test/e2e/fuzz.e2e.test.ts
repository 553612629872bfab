import { copyFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as GrpcClient, Metadata, credentials, status, type ServiceError } from '@grpc/grpc-js';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCOVERY_META_TOOLS,
  JOURNAL_ENTRY_MAX_CHARS,
  META_TOOL_NAMES,
  QUERY_MAX_CHARS,
  ReasonCode,
  SYSTEM_TOOLS,
  UNIFIED_META_TOOL,
} from '@toolsurface/core';
import {
  ApplyConfigRequest,
  CallToolRequest,
  CloseSurfaceRequest,
  DiscoverToolsRequest,
  DiscoveryServiceService,
  DispatchServiceService,
  GetBindingsRequest,
  GetPresentationRequest,
  GetSurfaceRequest,
  GetToolSchemaRequest,
  MapRequestRequest,
  OpenSurfaceRequest,
  PresentationServiceService,
  SetBindingsRequest,
  SetPresentationRequest,
  SurfaceServiceService,
  ToolCalled,
  UnifiedServiceService,
  type CallToolResponse,
  type Principal,
  type Surface,
} from '@toolsurface/proto';
import { checkHealth } from '@toolsurface/devkit';
import { CONFIG_DOCUMENT_KEY } from '@toolsurface/state';
import { Clients, startGateway, textOf, type GatewayFixture } from '../support';
import * as A from '../support/fuzz-arbitraries';

// Property-based fuzzing of every RPC and every meta-tool against the whole gateway (four services
// as processes, a nats-server of its own, the real MCP servers). Every generated input is bad by
// construction; each must settle with a clear error (a caller error with a known reason, or a tool
// result with is_error and a known reason), run nothing, and leave every service SERVING.
//
// Reproduce: FUZZ_SEED=<seed> npx vitest run test/e2e/fuzz.e2e.test.ts. FUZZ_SCALE multiplies the
// runs (0.1 for a quick look); FUZZ_TRACE=1 prints every input to stderr and copies the services'
// logs to the temp folder (fuzz-<service>.log) at the end.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_521);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Every call must settle within this; a DEADLINE_EXCEEDED fails the property ("no hang"). */
const CALL_DEADLINE_MS = 10_000;
const MIN_INPUTS = 10_000;

fc.configureGlobal({ seed: SEED });

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const SYSTEM_NAMES = SYSTEM_TOOLS.map((t) => t.name);
const KNOWN_CAPABILITIES = ['everything', 'everything2', 'filesystem', 'memory'];
const REASONS: ReadonlySet<string> = new Set(Object.values(ReasonCode));
/** Caller errors a bad request may get (never INTERNAL, UNKNOWN, UNAVAILABLE or DEADLINE_EXCEEDED). */
const CALLER_CODES = [status.INVALID_ARGUMENT, status.NOT_FOUND, status.FAILED_PRECONDITION, status.PERMISSION_DENIED] as const;
// Model-facing refusals a bad tool call may get are listed per input; TOOL_ERROR, TOOL_TIMEOUT and
// CAPABILITY_UNAVAILABLE are never among them (they mean the tool was called).
const R = ReasonCode;
const INVALID = [R.INVALID_ARGUMENTS] as const;

let g: GatewayFixture;
let inputs = 0;
const perProperty = new Map<string, number>();
const raw = new Map<string, GrpcClient>();

type SurfaceKey = 'disc' | 'uni' | 'small' | 'fs';
const surfaces = {} as Record<SurfaceKey, Surface>;
interface SnapshotTool {
  name: string;
  inputSchema: Record<string, unknown>;
}
/** Bound tools of each fuzz surface's snapshot, with their input schemas. */
const snapshotTools = {} as Record<SurfaceKey, SnapshotTool[]>;
let closedSurfaceId = '';
let expiredSurfaceId = '';

beforeAll(async () => {
  g = await startGateway(join(fixtures, 'e2e.yaml'), KNOWN_CAPABILITIES);
  const objects = await new Objm(g.nc).open('toolsurface_snapshots');
  for (const [key, principal] of [
    ['disc', 'agent:big'],
    ['uni', 'agent:uni'],
    ['small', 'agent:small'],
    ['fs', 'agent:fsdirect'],
  ] as const) {
    surfaces[key] = await g.clients.open(principal);
    const blob = await objects.getBlob(surfaces[key].snapshotId);
    snapshotTools[key] = JSON.parse(new TextDecoder().decode(blob!)) as SnapshotTool[];
  }
  const expiresSoon = await g.clients.open('agent:small', 1);
  const closed = await g.clients.open('agent:small');
  await new Promise<void>((resolve, reject) =>
    g.clients.surface.closeSurface({ surfaceId: closed.surfaceId }, (e) => (e ? reject(e) : resolve())),
  );
  closedSurfaceId = closed.surfaceId;
  expiredSurfaceId = expiresSoon.surfaceId;
  await new Promise((r) => setTimeout(r, Math.max(0, expiresSoon.expiresAtMs - Date.now() + 100)));
  for (const addr of [g.stack.addresses.resolver, g.stack.addresses.discovery, g.stack.addresses.dispatch, g.stack.addresses.unified])
    raw.set(addr, new GrpcClient(addr, credentials.createInsecure()));
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED to change), scale ${SCALE}`);
}, 180_000);

afterAll(async () => {
  for (const c of raw.values()) c.close();
  g?.clients.close();
  if (process.env.FUZZ_TRACE && g) for (const p of g.stack.processes) copyFileSync(p.logPath, join(tmpdir(), `fuzz-${p.name}.log`));
  await g?.stop();
}, 60_000);

const SERVICES = { resolver: 'surface-resolver', discovery: 'discovery', dispatch: 'dispatch', unified: 'unified-mapper' } as const;

/**
 * Restarts every service that does not answer SERVING, with fresh channels (the old ones sit in
 * reconnect backoff); returns what was down and the end of its log.
 */
async function restartDeadServices(): Promise<string[]> {
  const down: string[] = [];
  for (const [key, name] of Object.entries(SERVICES) as Array<[keyof typeof SERVICES, (typeof SERVICES)[keyof typeof SERVICES]]>) {
    const health = await checkHealth(g.stack.addresses[key], '', 3000);
    if (health === 'SERVING') continue;
    const log = g.stack.processes.find((p) => p.name === name)?.logPath;
    const tail = log
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '' && !l.startsWith('{'))
          .slice(-10)
          .join('\n')
      : '';
    down.push(`${name} is ${health}${tail ? `; the end of its log:\n${tail}` : ''}`);
    await g.stack.restart(name);
    g.clients.close();
    g.clients = new Clients(g.stack.addresses);
    raw.get(g.stack.addresses[key])?.close();
    raw.set(g.stack.addresses[key], new GrpcClient(g.stack.addresses[key], credentials.createInsecure()));
  }
  return down;
}

afterEach(async () => {
  // After each property: every service still answers its health check with SERVING (one that died
  // is restarted, so the next property starts clean).
  const down = await restartDeadServices();
  if (down.length > 0) throw new Error(`services not SERVING after the property (restarted for the next one):\n${down.join('\n')}`);
}, 120_000);

// ---------------------------------------------------------------------------------------------
// Calls and checks

type Outcome<T> = { ok: true; res: T } | { ok: false; code: number; details: string; reason: string };

/** One unary call with the per-call deadline; settles with the response or the status. */
function rpc<T>(client: object, method: string, req: unknown): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    (client as Record<string, (...a: unknown[]) => void>)[method].call(
      client,
      req,
      new Metadata(),
      { deadline: Date.now() + CALL_DEADLINE_MS },
      (err: ServiceError | null, res: T) =>
        resolve(
          err
            ? { ok: false, code: err.code, details: err.details ?? '', reason: String(err.metadata?.get('toolsurface-reason')?.[0] ?? '') }
            : { ok: true, res },
        ),
    );
  });
}

/** Raw bytes to a method path, bypassing every serializer. */
function rawCall(addr: string, path: string, bytes: Buffer): Promise<Outcome<Buffer>> {
  return new Promise((resolve) => {
    raw.get(addr)!.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      new Metadata(),
      { deadline: Date.now() + CALL_DEADLINE_MS },
      (err, res) =>
        resolve(
          err
            ? { ok: false, code: err.code, details: err.details ?? '', reason: String(err.metadata?.get('toolsurface-reason')?.[0] ?? '') }
            : { ok: true, res: res! },
        ),
    );
  });
}

const statusName = (code: number) => status[code] ?? String(code);
const short = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'string' && x.length > 200
      ? `${x.slice(0, 80)}…(${x.length} chars)`
      : x instanceof Uint8Array
        ? Buffer.from(x).toString('hex').slice(0, 200)
        : x,
  );

/** A caller error: a status of `codes`, non-empty details, and a known reason in the `toolsurface-reason` trailer. */
function expectCallerError(o: Outcome<unknown>, codes: readonly number[] = CALLER_CODES): void {
  if (o.ok) throw new Error(`expected a caller error, the call succeeded: ${short(o.res)}`);
  if (!codes.includes(o.code))
    throw new Error(
      `status ${statusName(o.code)} ("${o.details}", reason "${o.reason}") is not one of ${codes.map(statusName).join(', ')}`,
    );
  if (o.details.trim() === '') throw new Error(`status ${statusName(o.code)} without details`);
  if (!REASONS.has(o.reason))
    throw new Error(`status ${statusName(o.code)} ("${o.details}") without a known toolsurface-reason trailer (got "${o.reason}")`);
}

/** A model-facing refusal: is_error, a reason of `reasons`, a message, and the message as content. */
function expectRefusal(o: Outcome<CallToolResponse>, reasons: readonly string[]): void {
  if (!o.ok)
    throw new Error(
      `expected a tool result with is_error (${reasons.join('|')}), got status ${statusName(o.code)} ("${o.details}", reason "${o.reason}")`,
    );
  const r = o.res;
  if (!r.isError)
    throw new Error(
      `expected a refusal (${reasons.join('|')}), the call succeeded: ${short({ tool: r.toolName, via: r.via, content: r.contentJson })}`,
    );
  if (!reasons.includes(r.reason)) throw new Error(`reason ${r.reason} ("${r.message}") is not one of ${reasons.join(', ')}`);
  if (r.message.trim().length < 10) throw new Error(`reason ${r.reason} with no useful message: "${r.message}"`);
  if (textOf(r.contentJson).trim() === '') throw new Error(`reason ${r.reason} with empty content`);
}

/**
 * Runs a property with a fixed seed, counting inputs; failures report a readable counterexample.
 * An input that kills a service fails with the end of that service's log (the service is
 * restarted); one whose call hangs fails at the per-call deadline (the channels are replaced, a
 * hung call can take its HTTP/2 connection with it). Either way shrinking stops there, as
 * shrinking against restarts and deadlines would take minutes: the counterexample is the input
 * that did it. `shrink: false` reports the first failing input as it is.
 */
async function property<T>(
  label: string,
  arb: fc.Arbitrary<T>,
  runs: number,
  predicate: (v: T) => Promise<void>,
  opts: { shrink?: boolean } = {},
): Promise<void> {
  const numRuns = Math.max(1, Math.round(runs * SCALE));
  let stop = false;
  await fc.assert(
    fc.asyncProperty(arb, async (v) => {
      if (stop) return;
      inputs++;
      perProperty.set(label, (perProperty.get(label) ?? 0) + 1);
      if (process.env.FUZZ_TRACE) console.error(`[${label}] #${perProperty.get(label)} ${short(v).slice(0, 300)}`);
      try {
        await predicate(v);
      } catch (e) {
        const message = String((e as Error)?.message);
        const down = await restartDeadServices();
        if (down.length > 0) {
          stop = true;
          throw new Error(`this input killed a service (restarted); the call got: ${message}\n${down.join('\n')}`);
        }
        if (/DEADLINE_EXCEEDED/.test(message)) {
          stop = true;
          g.clients.close();
          g.clients = new Clients(g.stack.addresses);
          throw new Error(`this input's call hung until the ${CALL_DEADLINE_MS} ms deadline: ${message}`);
        }
        throw e;
      }
    }),
    {
      numRuns,
      seed: SEED,
      endOnFailure: opts.shrink === false,
      reporter: (d) => {
        if (!d.failed) return;
        const err = d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance);
        throw new Error(
          `[${label}] failed after ${d.numRuns} run(s) and ${d.numShrinks} shrink(s); seed ${d.seed}, path "${d.counterexamplePath}"\ncounterexample: ${short(d.counterexample)}\n${err}`,
        );
      },
    },
  );
  // After each property: every service answers SERVING.
  const down = await restartDeadServices();
  if (down.length > 0) throw new Error(`[${label}] passed, but services are not SERVING after it (restarted):\n${down.join('\n')}`);
}

// ---------------------------------------------------------------------------------------------
// JSON Schema helpers: generated tool arguments are checked to be invalid before they are sent.

const AJV_OPTIONS = { strict: false, allErrors: true, addUsedSchema: false, logger: false } as const;
const ajv2020 = new Ajv2020(AJV_OPTIONS);
const ajv07 = new Ajv(AJV_OPTIONS);
addFormats(ajv2020);
addFormats(ajv07);

/** A validator like dispatch's (2020-12, then draft-07), or undefined when no draft compiles the schema. */
function compile(schema: Record<string, unknown>): ValidateFunction | undefined {
  const { $schema: _s, $id: _i, ...rest } = schema;
  for (const a of [ajv2020, ajv07]) {
    try {
      return a.compile(rest);
    } catch {
      // Next draft.
    }
  }
  return undefined;
}

type Json = Record<string, unknown>;
type Prop = { type?: unknown };

/** Values of the right JSON type for a property (formats, enums and bounds may still fail, which is fine). */
function ofType(type: unknown): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return A.text(12);
    case 'integer':
      return fc.integer({ min: -5, max: 100 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(A.text(6), { maxLength: 2 });
    case 'object':
      return fc.constant({});
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/**
 * Arguments objects that `schema` refuses: one required property missing, one property of the
 * wrong type, or an extra property where additionalProperties is false; filtered through the
 * schema itself so none is a valid call. Undefined when the schema admits no such object.
 */
function schemaInvalidArgs(schema: Json): fc.Arbitrary<Json> | undefined {
  const validate = compile(schema);
  if (!validate) return undefined;
  const props = (schema.properties ?? {}) as Record<string, Prop>;
  const names = Object.keys(props);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const typed = names.filter((n) => typeof props[n].type === 'string');
  const base: fc.Arbitrary<Json> =
    names.length === 0
      ? fc.constant({})
      : (fc.record(Object.fromEntries(names.map((n) => [n, ofType(props[n].type)])), {
          requiredKeys: required.filter((n) => n in props),
        }) as fc.Arbitrary<Json>);
  const options: Array<fc.Arbitrary<Json>> = [];
  if (required.length > 0) {
    options.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([b, k]) => {
        const o = { ...b };
        delete o[k];
        return o;
      }),
    );
  }
  if (typed.length > 0)
    options.push(
      fc.tuple(base, fc.constantFrom(...typed)).chain(([b, k]) => A.notOfType(String(props[k].type)).map((v) => ({ ...b, [k]: v }))),
    );
  if (schema.additionalProperties === false) {
    options.push(
      fc
        .tuple(
          base,
          A.extraKey.filter((k) => !(k in props)),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(([b, k, v]) => ({ ...b, [k]: v })),
    );
  }
  if (options.length === 0) return undefined;
  return fc.oneof(...options).filter((a) => !validate(a));
}

/** JSON text that is no arguments object at all: malformed, not an object, too deep, or over 1 MiB. */
const notAnArgumentsObject: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: A.malformedJson },
  { weight: 4, arbitrary: A.nonObjectJson },
  { weight: 2, arbitrary: A.anythingAsJson.filter((j) => !j.startsWith('{') && j.trim() !== '') },
  { weight: 1, arbitrary: A.deepJson(65, 100_000) },
  { weight: 1, arbitrary: fc.tuple(A.deepJson(65, 5000), A.text(6)).map(([d, k]) => JSON.stringify({ [k]: 0 }).replace(/0}$/, `${d}}`)) },
  { weight: 1, arbitrary: A.hugeText(1024 * 1024 + 1, 1_200_000).map((s) => JSON.stringify({ pad: s })) },
);

/** Any arguments text at all (for calls refused by name before their arguments are read). */
const anyArgs: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(A.text(10), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: notAnArgumentsObject },
  { weight: 2, arbitrary: A.anythingAsJson },
);

// ---------------------------------------------------------------------------------------------
// Tool calls

interface ToolCase {
  surface: SurfaceKey;
  name: string;
  args: string;
  /** Refusals this input may get. */
  reasons: readonly string[];
  callId?: string;
}

/** Sends one tool call and checks it was refused: a caller error only for a name the RPC itself refuses. */
async function expectToolRefused(c: ToolCase): Promise<void> {
  const o = await rpc<CallToolResponse>(
    g.clients.dispatch,
    'callTool',
    CallToolRequest.fromPartial({ surfaceId: surfaces[c.surface].surfaceId, name: c.name, argumentsJson: c.args, callId: c.callId ?? '' }),
  );
  if (c.name === '' || c.name.length > 256) expectCallerError(o, [status.INVALID_ARGUMENT]);
  else expectRefusal(o, c.reasons);
}

const namesOf = (k: SurfaceKey) => snapshotTools[k].map((t) => t.name);
const reservedFor = (k: SurfaceKey) => new Set([...namesOf(k), ...SYSTEM_NAMES, ...META_TOOL_NAMES]);
const obj = (o: Json) => JSON.stringify(o);
/** A reason for a name given inside a meta-tool's arguments: too long is a schema error. */
const nameReason = (name: string, reason: string) => ([...name].length > 256 ? [R.INVALID_ARGUMENTS] : [reason]);
/** A tool's schema-invalid arguments, for every tool of a snapshot that has any. */
function invalidArgsByTool(k: SurfaceKey): Array<[string, fc.Arbitrary<Json>]> {
  return snapshotTools[k].flatMap((t) => {
    const a = schemaInvalidArgs(t.inputSchema);
    return a ? [[t.name, a] as [string, fc.Arbitrary<Json>]] : [];
  });
}
/** Path-like strings that contain "secret" (refused by the suite's admission rules), never a real file. */
const secretPath = fc.tuple(A.text(10), A.text(10)).map(([a, b]) => `/nonexistent-fuzz/${a}secret${b}`);

describe('fuzz: every RPC refuses bad requests with a clear caller error', () => {
  const principal = (kind: number, id: string): Principal => ({ kind, id });
  /** A principal the RPCs must refuse: missing, of no valid kind, or with a bad ID. */
  const badPrincipal: fc.Arbitrary<Principal | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.tuple(fc.oneof(fc.constant(0), A.badEnum(2)), fc.oneof(A.goodPrincipalId, A.badPrincipalId)).map(([k, id]) => principal(k, id)),
    fc.tuple(fc.constantFrom(1, 2), A.badPrincipalId).map(([k, id]) => principal(k, id)),
  );
  const goodPrincipal = fc.tuple(fc.constantFrom(1, 2), A.goodPrincipalId).map(([k, id]) => principal(k, id));

  it('SurfaceService: OpenSurface, GetSurface and CloseSurface', async () => {
    const open = fc.oneof(
      fc.record({ principal: badPrincipal, ttlSeconds: fc.nat() }),
      // Beyond the largest TTL any deployment may configure (7 days).
      fc.record({ principal: goodPrincipal, ttlSeconds: fc.integer({ min: 7 * 24 * 3600 + 1, max: 2 ** 32 - 1 }) }),
    );
    await property('OpenSurface', open, 500, async (req) =>
      expectCallerError(await rpc(g.clients.surface, 'openSurface', OpenSurfaceRequest.fromPartial(req)), [status.INVALID_ARGUMENT]),
    );

    const real = surfaces.small.surfaceId;
    const surfaceId = fc.oneof(
      A.anyText,
      fc.stringMatching(/^srf_[0-9a-f]{32}$/),
      A.nearName([real], new Set([real])),
      fc.constantFrom(closedSurfaceId, expiredSurfaceId, `${real}\u0000`, real.toUpperCase(), ` ${real}`),
    );
    await property(
      'GetSurface/CloseSurface',
      fc.tuple(fc.constantFrom('getSurface', 'closeSurface'), surfaceId),
      700,
      async ([method, id]) => {
        const o = await rpc(
          g.clients.surface,
          method,
          (method === 'getSurface' ? GetSurfaceRequest : CloseSurfaceRequest).fromPartial({ surfaceId: id }),
        );
        expectCallerError(o, [status.INVALID_ARGUMENT, status.NOT_FOUND, status.FAILED_PRECONDITION]);
        if (id === expiredSurfaceId && !o.ok) expect(o.reason).toBe('SURFACE_EXPIRED');
      },
    );
  }, 120_000);

  it('PresentationService: GetPresentation, SetPresentation, GetBindings, SetBindings', async () => {
    await property(
      'GetPresentation/GetBindings',
      fc.tuple(fc.constantFrom('getPresentation', 'getBindings'), badPrincipal),
      500,
      async ([method, p]) => {
        const req = (method === 'getPresentation' ? GetPresentationRequest : GetBindingsRequest).fromPartial({ principal: p });
        expectCallerError(await rpc(g.clients.presentation, method, req), [status.INVALID_ARGUMENT]);
      },
    );

    const set = fc.oneof(
      fc.record({ principal: badPrincipal, mode: fc.integer({ min: -5, max: 8 }), autonomy: fc.integer({ min: -2, max: 4 }) }),
      fc.record({ principal: goodPrincipal, mode: A.badEnum(4), autonomy: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ principal: goodPrincipal, mode: fc.integer({ min: 0, max: 4 }), autonomy: A.badEnum(2) }),
      // An expectation (compare-and-set) that is no value of its enum.
      fc.record({ principal: goodPrincipal, mode: fc.integer({ min: 0, max: 4 }), autonomy: fc.constant(0), expectedMode: A.badEnum(4) }),
      fc.record({
        principal: goodPrincipal,
        mode: fc.integer({ min: 0, max: 4 }),
        autonomy: fc.constant(0),
        expectedAutonomy: A.badEnum(2),
      }),
      // Only gateways can be supervised.
      fc.record({
        principal: A.goodPrincipalId.map((id) => principal(1, id)),
        mode: fc.integer({ min: 0, max: 4 }),
        autonomy: fc.constant(2),
      }),
    );
    await property('SetPresentation', set, 500, async (req) =>
      expectCallerError(await rpc(g.clients.presentation, 'setPresentation', SetPresentationRequest.fromPartial(req)), [
        status.INVALID_ARGUMENT,
      ]),
    );

    const unknownCapability = A.anyText.filter((c) => !KNOWN_CAPABILITIES.includes(c));
    const bindings = fc.oneof(
      fc.record({
        principal: badPrincipal,
        capabilities: fc.array(fc.oneof(fc.constantFrom(...KNOWN_CAPABILITIES), A.text(12)), { maxLength: 4 }),
      }),
      fc
        .tuple(
          goodPrincipal,
          fc.array(fc.constantFrom(...KNOWN_CAPABILITIES), { maxLength: 4 }),
          fc.array(unknownCapability, { minLength: 1, maxLength: 3 }),
          fc.nat(),
        )
        .map(([p, known, unknown, r]) => ({
          principal: p,
          capabilities: [...known.slice(0, r % (known.length + 1)), ...unknown, ...known.slice(r % (known.length + 1))],
        })),
      fc
        .tuple(
          goodPrincipal,
          fc.constantFrom(
            'toString',
            'constructor',
            '__proto__',
            'hasOwnProperty',
            'Memory',
            'memory ',
            'memory.',
            'filesystem*',
            '>',
            'everything\u0000',
          ),
        )
        .map(([p, c]) => ({ principal: p, capabilities: ['memory', c] })),
      // Thousands of unknown names: a long list to report.
      fc
        .tuple(goodPrincipal, fc.integer({ min: 100, max: 12_000 }))
        .map(([p, n]) => ({ principal: p, capabilities: Array.from({ length: n }, (_, i) => `nope-${i}`) })),
    );
    await property('SetBindings', bindings, 500, async (req) =>
      expectCallerError(await rpc(g.clients.presentation, 'setBindings', SetBindingsRequest.fromPartial(req)), [status.INVALID_ARGUMENT]),
    );
  }, 120_000);

  it('PresentationService: ApplyConfig never takes a bad config, nor one that changes capabilities', async () => {
    const badPrincipalEntry = fc.record(
      {
        kind: fc.oneof(fc.constantFrom('agent', 'gateway'), A.text(8)),
        id: fc.oneof(A.goodPrincipalId, A.badPrincipalId),
        mode: fc.oneof(fc.constantFrom('direct', 'discovery', 'unified', 'adaptive'), A.text(8)),
        autonomy: fc.oneof(fc.constantFrom('autonomous', 'supervised'), A.text(8)),
        capabilities: fc.array(fc.oneof(fc.constantFrom(...KNOWN_CAPABILITIES), A.text(8)), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const capabilityEntry = fc.oneof(
      fc.record({
        transport: fc.constant('stdio'),
        command: fc.constantFrom('sh', 'node', 'curl', '/bin/true'),
        args: fc.array(A.text(10), { maxLength: 3 }),
      }),
      fc.record({ transport: fc.constant('streamable-http'), url: fc.oneof(fc.constant('http://127.0.0.1:1/mcp'), A.text(20)) }),
      fc.dictionary(A.text(8), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    );
    const structured = fc
      .record(
        {
          version: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 0 })),
          capabilities: fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_CAPABILITIES, 'pwn', 'toString'), A.text(8)), capabilityEntry, {
            maxKeys: 3,
          }),
          principals: fc.array(badPrincipalEntry, { maxLength: 3 }),
          admission: fc.oneof(
            fc.record({
              default: fc.constantFrom('allow', 'deny', 'maybe'),
              rules: fc.array(fc.dictionary(A.text(6), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }),
            }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
        },
        { requiredKeys: [] },
      )
      .map((c) => JSON.stringify(c));
    const yaml = fc.oneof(
      { weight: 4, arbitrary: structured },
      { weight: 3, arbitrary: A.anyText },
      { weight: 2, arbitrary: A.anythingAsJson },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((d) => `capabilities: ${'['.repeat(d)}\nprincipals: []`) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 1, max: 12 }).map(
          (n) =>
            `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from(
              { length: n },
              (_, i) =>
                `b${i}: &b${i} [${Array(9)
                  .fill(i === 0 ? '*a' : `*b${i - 1}`)
                  .join(',')}]`,
            ).join('\n')}\ncapabilities: {}\nprincipals: []`,
        ),
      },
      { weight: 1, arbitrary: A.hugeText(1024 * 1024 + 1, 1_100_000).map((s) => `# ${s}\ncapabilities: {}\nprincipals: []`) },
      { weight: 1, arbitrary: A.blankText },
      // Thousands of bad entries: thousands of problems to report.
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 100, max: 15_000 })
          .map((n) => JSON.stringify({ capabilities: {}, principals: Array.from({ length: n }, () => ({ kind: 1 })) })),
      },
      // Escapes that decode to half a surrogate pair, in keys and values that error messages may quote.
      {
        weight: 1,
        arbitrary: fc.tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.constantFrom('key', 'id', 'cap')).map(([u, where]) => {
          const lone = `\\u${u.toString(16)}`;
          if (where === 'key') return `{"capabilities":{"x${lone}":{}},"principals":[]}`;
          if (where === 'id') return `{"capabilities":{},"principals":[{"kind":"agent","id":"a${lone}"}]}`;
          return `capabilities: {}\nprincipals: [{kind: agent, id: a, capabilities: ["${lone}"]}]`;
        }),
      },
    );
    await property('ApplyConfig', yaml, 500, async (configYaml) =>
      expectCallerError(await rpc(g.clients.presentation, 'applyConfig', ApplyConfigRequest.fromPartial({ configYaml })), [
        status.INVALID_ARGUMENT,
        status.PERMISSION_DENIED,
      ]),
    );
  }, 120_000);

  it('PresentationService: ApplyConfig refuses the current config with a principal bound to an unknown capability', async () => {
    // The stored config, written back as a config file: capabilities and admission exactly as they are.
    const kv = await new Kvm(g.nc).open('toolsurface_config');
    const doc = JSON.parse((await kv.get(CONFIG_DOCUMENT_KEY))!.string()) as {
      capabilities: Record<string, Json & { timeoutMs: number }>;
      admission: Json;
    };
    const capabilities: Json = {};
    for (const [name, { timeoutMs, ...spec }] of Object.entries(doc.capabilities)) capabilities[name] = { ...spec, timeout_ms: timeoutMs };
    const admission = doc.admission;
    const configWith = (id: string, caps: string[]) =>
      JSON.stringify({ version: 1, capabilities, principals: [{ kind: 'agent', id, capabilities: caps }], admission });
    // Control: with known capabilities only, the same config is taken (changing nothing but adding one principal).
    const control = await rpc(
      g.clients.presentation,
      'applyConfig',
      ApplyConfigRequest.fromPartial({ configYaml: configWith('fuzz-config-control', ['memory']) }),
    );
    expect(control.ok, control.ok ? '' : control.details).toBe(true);
    const unknown = fc
      .oneof(
        fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'Memory', 'memory '),
        A.text(12, 1),
      )
      .filter((c) => !KNOWN_CAPABILITIES.includes(c));
    await property(
      'ApplyConfig (unknown binding)',
      fc.tuple(A.goodPrincipalId, fc.subarray(KNOWN_CAPABILITIES), unknown),
      60,
      async ([id, known, cap]) =>
        expectCallerError(
          await rpc(g.clients.presentation, 'applyConfig', ApplyConfigRequest.fromPartial({ configYaml: configWith(id, [...known, cap]) })),
          [status.INVALID_ARGUMENT],
        ),
    );
  }, 120_000);

  it('DiscoveryService: DiscoverTools and GetToolSchema', async () => {
    const snapshot = surfaces.disc.snapshotId;
    const badSnapshotId = fc.oneof(
      A.anyText,
      fc.stringMatching(/^snap_[0-9a-f]{64}$/),
      A.nearName([snapshot], new Set([snapshot])),
      fc.constantFrom(
        snapshot.toUpperCase(),
        `${snapshot}\u0000`,
        snapshot.slice(0, -1),
        snapshot.replace('snap_', 'srf_'),
        surfaces.disc.surfaceId,
      ),
    );
    const discover = fc.oneof(
      fc.record({ snapshotId: badSnapshotId, query: A.anyText, limit: fc.nat() }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        query: fc.oneof(fc.constant(''), A.blankText, A.hugeText(QUERY_MAX_CHARS + 1, QUERY_MAX_CHARS + 50_000)),
        limit: fc.nat(),
      }),
    );
    await property('DiscoverTools', discover, 500, async (req) =>
      expectCallerError(await rpc(g.clients.discovery, 'discoverTools', DiscoverToolsRequest.fromPartial(req)), [
        status.INVALID_ARGUMENT,
        status.NOT_FOUND,
      ]),
    );
    const schema = fc.oneof(
      fc.record({ snapshotId: badSnapshotId, name: fc.oneof(A.anyText, fc.constantFrom(...namesOf('disc'))) }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        name: fc.oneof(
          fc.constant(''),
          A.nearName(namesOf('disc'), reservedFor('disc')),
          fc.constantFrom(...SYSTEM_NAMES, ...META_TOOL_NAMES),
          A.anyText.filter((n) => !namesOf('disc').includes(n)),
        ),
      }),
    );
    await property('GetToolSchema', schema, 500, async (req) =>
      expectCallerError(await rpc(g.clients.discovery, 'getToolSchema', GetToolSchemaRequest.fromPartial(req)), [
        status.INVALID_ARGUMENT,
        status.NOT_FOUND,
        status.FAILED_PRECONDITION,
      ]),
    );
  }, 120_000);

  it('UnifiedService: MapRequest', async () => {
    const snapshot = surfaces.uni.snapshotId;
    const request = A.text(40, 1).filter((s) => s.trim() !== '');
    const map = fc.oneof(
      fc.record({
        snapshotId: fc.oneof(A.anyText, fc.stringMatching(/^snap_[0-9a-f]{64}$/), fc.constant(snapshot.toUpperCase())),
        request: A.anyText,
        contextJson: A.anyText,
        preferredTools: fc.array(A.text(8), { maxLength: 3 }),
      }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        request: fc.oneof(fc.constant(''), A.blankText, A.hugeText(QUERY_MAX_CHARS + 1, QUERY_MAX_CHARS + 20_000)),
        contextJson: fc.constant(''),
        preferredTools: fc.constant<string[]>([]),
      }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        request,
        contextJson: fc.oneof(
          A.malformedJson,
          A.nonObjectJson.filter((j) => !j.startsWith('"')),
          A.hugeText(64 * 1024 + 1, 100_000).map((s) => JSON.stringify(s)),
        ),
        preferredTools: fc.constant<string[]>([]),
      }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        request,
        contextJson: fc.constant(''),
        preferredTools: fc.array(fc.constantFrom(...namesOf('uni')), { minLength: 21, maxLength: 40 }),
      }),
      fc.record({
        snapshotId: fc.constant(snapshot),
        request,
        contextJson: fc.constant(''),
        preferredTools: fc
          .tuple(fc.array(fc.constantFrom(...namesOf('uni')), { maxLength: 3 }), A.nearName(namesOf('uni'), reservedFor('uni')))
          .map(([ok, bad]) => [...ok, bad]),
      }),
    );
    await property('MapRequest', map, 500, async (req) =>
      expectCallerError(await rpc(g.clients.unified, 'mapRequest', MapRequestRequest.fromPartial(req)), [
        status.INVALID_ARGUMENT,
        status.NOT_FOUND,
        status.FAILED_PRECONDITION,
      ]),
    );
  }, 120_000);

  it('DispatchService: CallTool refuses unknown, closed, expired and malformed surfaces and names', async () => {
    const real = surfaces.small.surfaceId;
    const call = fc.oneof(
      fc.record({
        surfaceId: fc.oneof(
          A.anyText,
          fc.stringMatching(/^srf_[0-9a-f]{32}$/),
          A.nearName([real], new Set([real])),
          fc.constantFrom(closedSurfaceId, expiredSurfaceId, real.toUpperCase()),
        ),
        name: fc.oneof(A.anyText, fc.constantFrom('read_graph', 'journal_read', 'discover_tools')),
        argumentsJson: anyArgs,
        callId: A.anyText,
      }),
      fc.record({
        surfaceId: fc.constantFrom(real, surfaces.disc.surfaceId, surfaces.uni.surfaceId),
        name: fc.oneof(fc.constant(''), A.hugeText(257, 100_000)),
        argumentsJson: anyArgs,
        callId: A.anyText,
      }),
    );
    await property('CallTool (caller errors)', call, 1100, async (req) => {
      const o = await rpc(g.clients.dispatch, 'callTool', CallToolRequest.fromPartial(req));
      expectCallerError(o, [status.INVALID_ARGUMENT, status.NOT_FOUND, status.FAILED_PRECONDITION]);
      // A malformed request (empty or over-long name or call_id) is refused before the surface is looked up.
      if (req.surfaceId === expiredSurfaceId && req.name !== '' && req.name.length <= 256 && req.callId.length <= 256 && !o.ok)
        expect(o.reason).toBe('SURFACE_EXPIRED');
    });
  }, 120_000);

  it('MapRequest: a reference_time_ms beyond 2^53 is a valid int64, refused as INVALID_ARGUMENT', async () => {
    const req = fc.record({
      snapshotId: fc.constant(surfaces.uni.snapshotId),
      request: fc.constantFrom('echo hello', 'what is the sum of 2 and 3'),
      referenceTimeMs: fc.oneof(fc.integer({ min: 2 ** 53, max: 2 ** 62 }), fc.integer({ min: -(2 ** 62), max: -(2 ** 53) })),
    });
    await property('MapRequest (int64)', req, 20, async (r) =>
      expectCallerError(await rpc(g.clients.unified, 'mapRequest', MapRequestRequest.fromPartial(r)), [status.INVALID_ARGUMENT]),
    );
  });

  it('raw bytes on every method: a clear caller error every time, decodable or not', async () => {
    const targets = (
      [
        [g.stack.addresses.resolver, SurfaceServiceService],
        [g.stack.addresses.resolver, PresentationServiceService],
        [g.stack.addresses.discovery, DiscoveryServiceService],
        [g.stack.addresses.dispatch, DispatchServiceService],
        [g.stack.addresses.unified, UnifiedServiceService],
      ] as const
    ).flatMap(([addr, svc]) =>
      Object.values(svc).map((m) => ({ addr, path: m.path as string, decode: m.requestDeserialize as (b: Buffer) => unknown })),
    );
    expect(targets).toHaveLength(15);
    const varint = (n: number): number[] => {
      const out: number[] = [];
      let v = n >>> 0;
      while (v > 0x7f) {
        out.push((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      out.push(v);
      return out;
    };
    // Protobuf-shaped fields: any field number and wire type, lengths that may lie, invalid UTF-8 payloads.
    const field = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 7 }), fc.nat({ max: 400 }), fc.uint8Array({ maxLength: 24 }))
      .map(([f, wt, n, payload]) => {
        const tag = varint((f << 3) | wt);
        switch (wt) {
          case 0:
            return [...tag, ...varint(n)];
          case 1:
            return [...tag, ...payload.slice(0, 8)];
          case 2:
            return [...tag, ...varint(n % 2 === 0 ? payload.length : n), ...payload];
          case 5:
            return [...tag, ...payload.slice(0, 4)];
          default:
            return [...tag, ...payload];
        }
      });
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.array(field, { maxLength: 6 }).map((fs) => Uint8Array.from(fs.flat())),
      fc.uint8Array({ minLength: 1000, maxLength: 20_000 }),
    );
    let decodable = 0;
    const READ_ONLY_OPTIONAL = new Set([
      '/toolsurface.v1.PresentationService/ListPrincipals',
      '/toolsurface.v1.PresentationService/GetEffectiveConfig',
    ]);
    await property('raw bytes', fc.tuple(fc.constantFrom(...targets), bytes), 2000, async ([t, b]) => {
      const buf = Buffer.from(b);
      let decodes = true;
      try {
        t.decode(buf);
      } catch {
        decodes = false;
      }
      const o = await rawCall(t.addr, t.path, buf);
      // Any error would do for garbage; undecodable requests get INVALID_ARGUMENT with a reason, so hold both to that.
      if (decodes) decodable++;
      // ListPrincipals' and GetEffectiveConfig's requests have only optional fields: bytes that decode
      // are a real request, and reading is what it asks for (this stack has no orchestrators, so
      // every caller may read; nothing changes).
      if (decodes && READ_ONLY_OPTIONAL.has(t.path)) return;
      expectCallerError(o);
    });
    console.log(`fuzz: raw bytes: ${decodable} of the inputs decoded as protobuf`);
  }, 120_000);
});

describe('fuzz: meta-tools and tool calls refuse bad arguments and run nothing', () => {
  const validQuery = A.text(30, 1).filter((q) => q.trim() !== '');
  const validLimit = fc.integer({ min: 1, max: 50 });
  const badLimit = fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 51 }), A.notOfType('integer'));
  const metaSchemaValid = (name: string) => {
    const schema = [...DISCOVERY_META_TOOLS, UNIFIED_META_TOOL].find((t) => t.name === name)!.inputSchema;
    const v = compile(schema)!;
    return (json: string) => {
      try {
        return v(JSON.parse(json));
      } catch {
        return false;
      }
    };
  };
  /** An extra field next to the given ones. */
  const withExtra = (fields: fc.Arbitrary<Json>, allowed: string[]) =>
    fc
      .tuple(
        fields,
        A.extraKey.filter((k) => !allowed.includes(k)),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .map(([f, k, v]) => obj({ ...f, [k]: v }));
  const randomObject = (without: string[]) =>
    fc.dictionary(
      A.text(10).filter((k) => !without.includes(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    );
  const bad = (reasons: readonly string[]) => (args: fc.Arbitrary<string>) => args.map((a) => ({ args: a, reasons }));

  it('discover_tools', async () => {
    const valid = metaSchemaValid('discover_tools');
    const args = fc.oneof(
      fc.record({ limit: validLimit }, { requiredKeys: [] }).map(obj),
      randomObject(['query']).map(obj),
      fc.record({ query: A.notOfType('string'), limit: validLimit }, { requiredKeys: ['query'] }).map(obj),
      fc.record({ query: fc.oneof(fc.constant(''), A.blankText), limit: validLimit }, { requiredKeys: ['query'] }).map(obj),
      fc.record({ query: A.hugeText(QUERY_MAX_CHARS + 1, QUERY_MAX_CHARS + 10_000) }).map(obj),
      fc.record({ query: validQuery, limit: badLimit }).map(obj),
      withExtra(fc.record({ query: validQuery, limit: validLimit }, { requiredKeys: ['query'] }), ['query', 'limit']),
      notAnArgumentsObject,
      A.anythingAsJson.filter((j) => !valid(j)),
    );
    await property('discover_tools', args, 900, async (a) =>
      expectToolRefused({ surface: 'disc', name: 'discover_tools', args: a, reasons: INVALID }),
    );
  }, 120_000);

  it('discover_tools: a query within maxLength characters but longer in UTF-16 units is answered to the model, not refused as a caller error', async () => {
    // JSON Schema's maxLength counts characters (code points): 16,001 emoji are 16,001 characters, 32,002 UTF-16 units.
    const query = fc
      .integer({ min: QUERY_MAX_CHARS / 2 + 1, max: QUERY_MAX_CHARS })
      .chain((emoji) =>
        fc.tuple(fc.constant(emoji), fc.integer({ min: 0, max: QUERY_MAX_CHARS - emoji }), fc.constantFrom('🙂', '𝔁', '😀', '𠀀')),
      )
      .map(([emoji, ascii, e]) => `read a file ${e.repeat(emoji - 12)}${'x'.repeat(ascii)}`)
      .filter((q) => [...q].length <= QUERY_MAX_CHARS && q.length > QUERY_MAX_CHARS);
    await property('discover_tools (UTF-16 length)', query, 20, async (q) => {
      const o = await rpc<CallToolResponse>(
        g.clients.dispatch,
        'callTool',
        CallToolRequest.fromPartial({ surfaceId: surfaces.disc.surfaceId, name: 'discover_tools', argumentsJson: obj({ query: q }) }),
      );
      if (o.ok && !o.res.isError) return;
      expectRefusal(o, INVALID);
    });
  }, 120_000);

  it('get_tool_schema', async () => {
    const valid = metaSchemaValid('get_tool_schema');
    const near = A.nearName(namesOf('disc'), reservedFor('disc'));
    const cases = fc.oneof(
      bad(INVALID)(
        fc.oneof(
          randomObject(['name']).map(obj),
          fc.record({ name: A.notOfType('string') }).map(obj),
          fc.constant(obj({ name: '' })),
          fc.record({ name: A.hugeText(257, 5000) }).map(obj),
          withExtra(fc.record({ name: fc.constantFrom(...namesOf('disc')) }), ['name']),
          notAnArgumentsObject,
          A.anythingAsJson.filter((j) => !valid(j)),
        ),
      ),
      fc
        .oneof(near, fc.constantFrom(...SYSTEM_NAMES, ...META_TOOL_NAMES), A.blankText)
        .map((name) => ({ args: obj({ name }), reasons: nameReason(name, R.TOOL_NOT_IN_SNAPSHOT) })),
    );
    await property('get_tool_schema', cases, 700, async (c) => expectToolRefused({ surface: 'disc', name: 'get_tool_schema', ...c }));
  }, 120_000);

  it('execute_tool', async () => {
    const valid = metaSchemaValid('execute_tool');
    const real = fc.constantFrom(...namesOf('disc'));
    const near = A.nearName(namesOf('disc'), reservedFor('disc'));
    const objArgs = fc.dictionary(A.text(8), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const perTool = invalidArgsByTool('disc');
    expect(perTool.length).toBeGreaterThan(10);
    const cases = fc.oneof(
      bad(INVALID)(
        fc.oneof(
          fc.record({ arguments: objArgs }, { requiredKeys: [] }).map(obj),
          fc.record({ name: A.notOfType('string'), arguments: objArgs }, { requiredKeys: ['name'] }).map(obj),
          fc.record({ name: fc.oneof(fc.constant(''), A.hugeText(257, 5000)), arguments: objArgs }).map(obj),
          fc.record({ name: real, arguments: A.notOfType('object') }).map(obj),
          withExtra(fc.record({ name: real, arguments: objArgs }), ['name', 'arguments']),
          notAnArgumentsObject,
          A.anythingAsJson.filter((j) => !valid(j)),
        ),
      ),
      // Names not in the snapshot: look-alikes, meta-tools, system tools (never behind a meta-tool).
      fc
        .tuple(fc.oneof(near, fc.constantFrom(...SYSTEM_NAMES, ...META_TOOL_NAMES)), objArgs)
        .map(([name, a]) => ({ args: obj({ name, arguments: a }), reasons: nameReason(name, R.TOOL_NOT_IN_SNAPSHOT) })),
      // Real names with arguments their schema refuses.
      fc.constantFrom(...perTool).chain(([name, a]) => a.map((args) => ({ args: obj({ name, arguments: args }), reasons: INVALID }))),
      // Valid arguments that admission refuses, whatever else they carry.
      fc
        .oneof(
          secretPath.map((path) => ({ name: 'read_text_file', arguments: { path } })),
          fc
            .tuple(fc.array(A.text(10), { maxLength: 2 }), secretPath)
            .map(([ok, s]) => ({ name: 'read_multiple_files', arguments: { paths: [...ok, s] } })),
          fc
            .tuple(secretPath, A.text(10))
            .map(([source, d]) => ({ name: 'move_file', arguments: { source, destination: `/nonexistent-fuzz/${d}` } })),
          fc.tuple(secretPath, A.text(40)).map(([path, content]) => ({ name: 'write_file', arguments: { path, content } })),
          fc
            .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
            .map((b) => ({ name: 'get-sum', arguments: { a: 13, b } })),
        )
        .map((call) => ({ args: obj(call), reasons: [R.PERMISSION_DENIED] })),
    );
    await property('execute_tool', cases, 1400, async (c) => expectToolRefused({ surface: 'disc', name: 'execute_tool', ...c }));
  }, 120_000);

  it('unified_tool', async () => {
    const valid = metaSchemaValid('unified_tool');
    const request = fc.constantFrom('echo hello', 'What is the sum of a=17 and b=25?', 'read the file hello.txt', 'x');
    const near = A.nearName(namesOf('uni'), reservedFor('uni'));
    const cases = fc.oneof(
      bad(INVALID)(
        fc.oneof(
          fc
            .record(
              { context: fc.jsonValue({ maxDepth: 1 }), preferred_tools: fc.array(fc.constantFrom(...namesOf('uni')), { maxLength: 2 }) },
              { requiredKeys: [] },
            )
            .map(obj),
          fc.record({ request: A.notOfType('string') }).map(obj),
          fc.record({ request: fc.oneof(fc.constant(''), A.blankText) }).map(obj),
          fc.record({ request: A.hugeText(QUERY_MAX_CHARS + 1, QUERY_MAX_CHARS + 10_000) }).map(obj),
          fc
            .record({
              request,
              context: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })),
            })
            .map(obj),
          fc.record({ request, context: A.hugeText(64 * 1024 + 1, 200_000) }).map(obj),
          fc.record({ request, preferred_tools: A.notOfType('array') }).map(obj),
          fc.record({ request, preferred_tools: fc.array(fc.constantFrom(...namesOf('uni')), { minLength: 21, maxLength: 30 }) }).map(obj),
          fc
            .record({
              request,
              preferred_tools: fc
                .tuple(
                  fc.array(fc.constantFrom(...namesOf('uni')), { maxLength: 2 }),
                  fc.oneof(A.notOfType('string'), A.hugeText(257, 2000)),
                )
                .map(([ok, x]) => [...ok, x]),
            })
            .map(obj),
          withExtra(fc.record({ request }), ['request', 'context', 'preferred_tools']),
          notAnArgumentsObject,
          A.anythingAsJson.filter((j) => !valid(j)),
        ),
      ),
      // preferred_tools may only name tools of the snapshot.
      fc
        .tuple(
          request,
          fc.array(fc.constantFrom(...namesOf('uni')), { maxLength: 2 }),
          near.filter((n) => [...n].length <= 256),
        )
        .map(([req, ok, n]) => ({ args: obj({ request: req, preferred_tools: [...ok, n] }), reasons: [R.TOOL_NOT_IN_SNAPSHOT] })),
    );
    await property('unified_tool', cases, 900, async (c) => expectToolRefused({ surface: 'uni', name: 'unified_tool', ...c }));
  }, 120_000);

  it('bound tools by their own name: look-alikes, meta-tools of other modes, bad arguments, refused by admission', async () => {
    const invalidBySurface = { small: invalidArgsByTool('small'), fs: invalidArgsByTool('fs') };
    const cases: fc.Arbitrary<ToolCase> = fc.oneof(
      // Discovery and unified: a bound tool by its own name is never directly callable.
      fc
        .tuple(fc.constantFrom<SurfaceKey>('disc', 'uni'), anyArgs)
        .chain(([s, args]) =>
          fc.constantFrom(...namesOf(s)).map((name) => ({ surface: s, name, args, reasons: [R.TOOL_NOT_DIRECTLY_CALLABLE] })),
        ),
      // Look-alike names, and meta-tools of another mode, are not found.
      fc
        .tuple(fc.constantFrom<SurfaceKey>('disc', 'uni', 'small', 'fs'), anyArgs)
        // ("memory.add_observations" is a name memory's tools take on a collision: not in the snapshot rather than unknown.)
        .chain(([s, args]) =>
          A.nearName(namesOf(s), reservedFor(s)).map((name) => ({
            surface: s,
            name,
            args,
            reasons: [R.TOOL_NOT_FOUND, R.TOOL_NOT_IN_SNAPSHOT],
          })),
        ),
      fc
        .tuple(
          fc.constantFrom<[SurfaceKey, string]>(
            ['disc', 'unified_tool'],
            ['uni', 'discover_tools'],
            ['uni', 'get_tool_schema'],
            ['uni', 'execute_tool'],
            ['small', 'execute_tool'],
            ['fs', 'discover_tools'],
            ['small', 'unified_tool'],
          ),
          anyArgs,
        )
        .map(([[s, name], args]) => ({ surface: s, name, args, reasons: [R.TOOL_NOT_FOUND] })),
      // Direct mode: real names with no arguments object, or arguments their schema refuses.
      fc
        .tuple(fc.constantFrom<SurfaceKey>('small', 'fs'), notAnArgumentsObject)
        .chain(([s, args]) => fc.constantFrom(...namesOf(s)).map((name) => ({ surface: s, name, args, reasons: INVALID }))),
      fc
        .constantFrom('small' as const, 'fs' as const)
        .chain((s) =>
          fc
            .constantFrom(...invalidBySurface[s])
            .chain(([name, a]) => a.map((args) => ({ surface: s, name, args: obj(args), reasons: INVALID }))),
        ),
      // Direct mode: admission refuses these whatever else they carry.
      fc
        .oneof(
          secretPath.map((path) => ['read_text_file', { path }] as const),
          secretPath.map((path) => ['get_file_info', { path }] as const),
          fc
            .tuple(fc.array(A.text(10), { maxLength: 2 }), secretPath)
            .map(([ok, s]) => ['read_multiple_files', { paths: [...ok, s] }] as const),
          fc.tuple(secretPath, A.text(40)).map(([path, content]) => ['write_file', { path, content }] as const),
          secretPath.map((path) => ['create_directory', { path }] as const),
        )
        .map(([name, a]) => ({ surface: 'fs' as const, name, args: obj(a), reasons: [R.PERMISSION_DENIED] })),
    );
    await property('bound tools by name', cases, 1500, expectToolRefused);
  }, 120_000);

  it('system tools refuse bad arguments in every mode', async () => {
    const [append, read] = SYSTEM_TOOLS;
    const appendArgs = fc.oneof(
      schemaInvalidArgs(append.inputSchema)!,
      fc.record({ entry: fc.oneof(fc.constant(''), A.hugeText(JOURNAL_ENTRY_MAX_CHARS + 1, JOURNAL_ENTRY_MAX_CHARS + 5000)) }),
      fc.record({
        entry: A.text(10, 1),
        tags: fc.oneof(
          fc.array(A.text(4), { minLength: 11, maxLength: 20 }),
          fc.array(A.hugeText(65, 200), { minLength: 1, maxLength: 2 }),
          A.notOfType('array'),
        ),
      }),
    );
    const readArgs = fc.oneof(
      schemaInvalidArgs(read.inputSchema)!,
      fc.record({ limit: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 }), A.notOfType('integer')) }),
    );
    const cases = fc.tuple(
      fc.constantFrom<SurfaceKey>('disc', 'uni', 'small', 'fs'),
      fc.oneof(
        appendArgs.map((a) => ['journal_append', obj(a)] as const),
        readArgs.map((a) => ['journal_read', obj(a)] as const),
        fc.tuple(fc.constantFrom(...SYSTEM_NAMES), notAnArgumentsObject),
      ),
    );
    await property('system tools', cases, 500, async ([surface, [name, args]]) =>
      expectToolRefused({ surface, name, args, reasons: INVALID }),
    );
  }, 120_000);

  it('every refused call is audited, whatever its call_id (or the call_id is refused)', async () => {
    const callId = fc.oneof({ weight: 6, arbitrary: A.text(40) }, { weight: 1, arbitrary: A.hugeText(100_000, 1_200_000) });
    const near = A.nearName(namesOf('small'), reservedFor('small')).filter((n) => n.length <= 256);
    await property(
      'audit by call_id',
      fc.tuple(near, callId),
      40,
      async ([name, id]) => {
        // A unique prefix, so an audit that keeps only the start of a long call_id still counts.
        const prefix = `fuzz-${inputs}-`;
        const o = await rpc<CallToolResponse>(
          g.clients.dispatch,
          'callTool',
          CallToolRequest.fromPartial({ surfaceId: surfaces.small.surfaceId, name, argumentsJson: '{}', callId: prefix + id }),
        );
        if (!o.ok) return expectCallerError(o, [status.INVALID_ARGUMENT]);
        expectRefusal(o, [R.TOOL_NOT_FOUND, R.TOOL_NOT_IN_SNAPSHOT]);
        const deadline = Date.now() + 3000;
        while (Date.now() < deadline) {
          if (auditsOf('small').some((a) => a.callId.startsWith(prefix))) return;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error(
          `no tool.called event for a refused call with a call_id of ${prefix.length + id.length} characters (${Buffer.byteLength(prefix + id)} bytes)`,
        );
      },
      { shrink: false },
    );
  }, 120_000);
});

const decodedAudits: ToolCalled[] = [];
let eventsSeen = 0;
/** tool.called events of a fuzz surface (decoded once each). */
function auditsOf(k: SurfaceKey): ToolCalled[] {
  for (; eventsSeen < g.events.length; eventsSeen++) {
    const e = g.events[eventsSeen];
    if (e.subject === 'toolsurface.tool.called.v1') decodedAudits.push(ToolCalled.decode(e.data));
  }
  const id = surfaces[k].surfaceId;
  return decodedAudits.filter((e) => e.surfaceId === id);
}

describe('fuzz: totals', () => {
  it('nothing ran on any fuzz surface: every audited real call was refused', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const audits = (['disc', 'uni', 'small', 'fs'] as const).flatMap(auditsOf);
    console.log(
      `fuzz: ${audits.length} audited calls on the fuzz surfaces, ${audits.filter((a) => a.outcome === 'refused').length} refused`,
    );
    expect(audits.length).toBeGreaterThan(100);
    // Every CallTool is audited; a meta-tool answering, or a call that failed before it resolved to
    // a tool (no capability), is not a tool running.
    const ran = audits.filter((a) => (a.outcome === 'ok' || a.outcome === 'error') && a.capability !== 'meta' && a.capability !== '');
    expect(ran.map((a) => ({ tool: a.toolName, via: a.via, outcome: a.outcome, reason: a.reason, called: a.calledName }))).toEqual([]);
  });

  it(`at least ${MIN_INPUTS.toLocaleString('en')} generated inputs were sent`, () => {
    console.log(
      `fuzz: ${inputs} generated inputs (seed ${SEED}, scale ${SCALE}): ${[...perProperty].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
    expect(inputs).toBeGreaterThanOrEqual(Math.round(MIN_INPUTS * Math.min(1, SCALE)));
  });
});
