import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, makeGenericClientConstructor, Metadata, status, type Client, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor, channelCredentials } from '@toolsurface/platform';
import { MapRequestRequest, ToolCalled, type CallToolResponse, type Surface } from '@toolsurface/proto';
import { Kvm } from '@nats-io/kv';
import { CONFIG_DOCUMENT_KEY } from '@toolsurface/state';
import { Clients, principalOf, rawUnaryMethod, startGateway, textOf, unaryCall, type GatewayFixture } from '../support';
import { writeTestCertificates, type TestCertificates } from '@toolsurface/devkit';

// The bypass suite: every way around the one gate we know of, each refused with the right reason,
// each leaving a tool.called event, and nothing run. The gateway runs with mutual TLS on every
// gRPC API and bearer tokens for two orchestrators. Every capability is a copy of
// test/fixtures/bypass/canary-server.mjs, which logs each call it receives before doing anything.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bypass');
const CONFIG = join(FIXTURES, 'bypass.yaml');
const LOG_DIR = join(import.meta.dirname, '..', '..', '.data', 'bypass');
const CAPABILITIES = ['canary', 'twin', 'vault', 'late'] as const;
const MAIN_TOKEN = 'bypass-main-token-0123456789';
const TENANT_TOKEN = 'bypass-tenant-token-0123456789';

let g: GatewayFixture;
let certs: TestCertificates;
let certDir: string;
let main: Clients;
let tenant: Clients;
let anonymous: Clients;
let forged: Clients;
const s = {} as Record<'disc' | 'uni' | 'direct' | 'other' | 'partner' | 'closed' | 'tenantOwn', Surface>;

/** Every call any capability received so far, in log order. */
function received(): Array<{ capability: string; tool: string; args: unknown }> {
  return CAPABILITIES.flatMap((capability) => {
    let text = '';
    try {
      text = readFileSync(join(LOG_DIR, `${capability}.log`), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ capability, ...(JSON.parse(l) as { tool: string; args: unknown }) }));
  });
}

let seq = 0;
/** CallTool with a call_id of our own, so its audit event can be found. */
async function call(
  clients: Clients,
  surfaceId: string,
  name: string,
  args: unknown = {},
): Promise<{ callId: string; res?: CallToolResponse; err?: ServiceError & { reason: string } }> {
  const callId = `bypass-${++seq}`;
  const argumentsJson = typeof args === 'string' ? args : JSON.stringify(args);
  try {
    const res = await unaryCall<CallToolResponse>(clients.dispatch, 'callTool', { surfaceId, name, argumentsJson, callId }, new Metadata());
    return { callId, res };
  } catch (e) {
    const se = e as ServiceError;
    return { callId, err: Object.assign(se, { reason: String(se.metadata?.get('toolsurface-reason')?.[0] ?? '') }) };
  }
}

/** The one tool.called event of a call, waiting up to 5 s for it. */
async function auditOf(callId: string): Promise<ToolCalled[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = g.events
      .filter((e) => e.subject === 'toolsurface.tool.called.v1')
      .map((e) => ToolCalled.decode(e.data))
      .filter((e) => e.callId === callId);
    if (found.length > 0 || Date.now() > deadline) {
      // Late duplicates would show up here too.
      await new Promise((r) => setTimeout(r, 50));
      return g.events
        .filter((e) => e.subject === 'toolsurface.tool.called.v1')
        .map((e) => ToolCalled.decode(e.data))
        .filter((e) => e.callId === callId);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Asserts the three things every case must show: refused with `reason` (a model-facing result, or a
 * caller error with gRPC `code`), exactly one audit event saying so, and no call reached any capability.
 */
async function expectRefused(
  run: () => Promise<{ callId: string; res?: CallToolResponse; err?: ServiceError & { reason: string } }>,
  reason: string,
  opts: { code?: status; orchestrator?: string; text?: string } = {},
): Promise<ToolCalled> {
  const before = received().length;
  const { callId, res, err } = await run();
  if (opts.code !== undefined) {
    expect(err, `expected a caller error, got ${JSON.stringify(res)}`).toBeDefined();
    expect({ code: err!.code, reason: err!.reason }).toEqual({ code: opts.code, reason });
  } else {
    expect(res, `expected a refusal result, got ${err?.details}`).toBeDefined();
    expect({ isError: res!.isError, reason: res!.reason }, res!.message).toEqual({ isError: true, reason });
    if (opts.text) expect(textOf(res!.contentJson)).toContain(opts.text);
  }
  const audits = await auditOf(callId);
  expect(audits, `audit events of ${callId}`).toHaveLength(1);
  expect(audits[0]).toMatchObject({ outcome: 'refused', reason, orchestrator: opts.orchestrator ?? 'main' });
  // Nothing ran: the capabilities' own logs got no call (their log is written before anything else).
  await new Promise((r) => setTimeout(r, 20));
  expect(received().slice(before)).toEqual([]);
  return audits[0];
}

beforeAll(async () => {
  rmSync(LOG_DIR, { recursive: true, force: true });
  mkdirSync(LOG_DIR, { recursive: true });
  certDir = mkdtempSync(join(tmpdir(), 'toolsurface-bypass-tls-'));
  certs = writeTestCertificates(certDir);
  const tls = { certFile: certs.certFile, keyFile: certs.keyFile, caFile: certs.caFile, clientCaFile: certs.caFile };
  // discovery and unified-mapper answer only the services' certificate (dispatch's); orchestrators hold another one.
  const onlyServices = { GRPC_TLS_ALLOWED_PEERS: 'service' };
  g = await startGateway(CONFIG, [...CAPABILITIES], { tls, serviceEnv: { discovery: onlyServices, 'unified-mapper': onlyServices } });
  const creds = channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile });
  main = new Clients(g.stack.addresses, MAIN_TOKEN, creds);
  tenant = new Clients(g.stack.addresses, TENANT_TOKEN, creds);
  anonymous = new Clients(g.stack.addresses, undefined, creds);
  forged = new Clients(g.stack.addresses, 'bypass-forged-token-0123456789', creds);
  for (const [key, principal] of [
    ['disc', 'agent:disc'],
    ['uni', 'agent:uni'],
    ['direct', 'agent:direct'],
    ['other', 'agent:other'],
    ['partner', 'gateway:partner'],
    ['closed', 'agent:disc'],
  ] as const) {
    s[key] = await main.open(principal);
  }
  s.tenantOwn = await tenant.open('agent:other');
  await unaryCall(main.surface, 'closeSurface', { surfaceId: s.closed.surfaceId });
}, 180_000);

afterAll(async () => {
  for (const c of [main, tenant, anonymous, forged]) c?.close();
  await g?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
}, 60_000);

describe('the gateway under test', () => {
  it('serves only mutual TLS: a plaintext client and a client without a certificate get nowhere', async () => {
    const plain = new Clients(g.stack.addresses, MAIN_TOKEN, credentials.createInsecure());
    const noCert = new Clients(g.stack.addresses, MAIN_TOKEN, channelCredentials({ caFile: certs.caFile }));
    try {
      for (const c of [plain, noCert]) {
        const { err } = await call(c, s.disc.surfaceId, 'discover_tools', { query: 'notes' });
        expect(err?.code).toBe(status.UNAVAILABLE);
      }
    } finally {
      plain.close();
      noCert.close();
    }
  });

  it("an orchestrator's certificate cannot call discovery or unified-mapper around dispatch", async () => {
    for (const p of [
      () => unaryCall(main.discovery, 'discoverTools', { snapshotId: s.disc.snapshotId, query: 'notes', limit: 5 }),
      () => unaryCall(main.discovery, 'getToolSchema', { snapshotId: s.disc.snapshotId, name: 'write_note' }),
      () => unaryCall(main.unified, 'mapRequest', MapRequestRequest.fromPartial({ snapshotId: s.uni.snapshotId, request: 'write a note' })),
    ]) {
      const e = (await p().then(
        () => undefined,
        (err: ServiceError) => err,
      )) as ServiceError | undefined;
      expect(e?.code, e?.details).toBe(status.UNAUTHENTICATED);
    }
  });

  it('lists, discovers and describes only what admission allows (product rule 6)', async () => {
    const found = await call(main, s.disc.surfaceId, 'discover_tools', { query: 'delete every note in the notebook', limit: 50 });
    const names = (JSON.parse(found.res!.structuredContentJson) as { hits: Array<{ name: string }> }).hits.map((h) => h.name);
    expect(names).not.toContain('delete_all');
    expect(names).toContain('write_note');
    const direct = await unaryCall<{ tools: Array<{ name: string }> }>(main.surface, 'getSurface', { surfaceId: s.direct.surfaceId });
    expect(JSON.stringify(direct)).not.toContain('"delete_all"');
  });
});

describe('bypass attempts: each refused with its reason, audited, and nothing runs', () => {
  // A bound tool called by its own name where the surface does not list it.
  it('1. a bound tool called directly by name in discovery mode', () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'write_note', { text: 'hi' }), 'TOOL_NOT_DIRECTLY_CALLABLE'));
  it('2. a bound tool called directly by name in unified mode', () =>
    expectRefused(() => call(main, s.uni.surfaceId, 'write_note', { text: 'hi' }), 'TOOL_NOT_DIRECTLY_CALLABLE'));
  it('3. a collision-prefixed tool called directly in discovery mode', () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'canary.echo', { message: 'hi' }), 'TOOL_NOT_DIRECTLY_CALLABLE'));

  // execute_tool of what the surface does not offer.
  it('4. execute_tool of a denied tool (hidden from the list): the audit names the tool it tried', async () => {
    const audit = await expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'delete_all', arguments: {} }),
      'TOOL_NOT_IN_SNAPSHOT',
    );
    expect(audit).toMatchObject({
      calledName: 'execute_tool',
      attemptedName: 'delete_all',
      admission: { decision: 'deny', rule: 'no-delete-all' },
    });
  });
  it('4b. execute_tool of a name that exists nowhere: the audit names it too', async () => {
    const audit = await expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'drop_database', arguments: {} }),
      'TOOL_NOT_IN_SNAPSHOT',
    );
    expect(audit).toMatchObject({ calledName: 'execute_tool', attemptedName: 'drop_database', toolName: '' });
  });
  it('5. execute_tool of a tool of a capability bound to nobody', () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'late_tool', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT'));
  it("6. execute_tool of a tool in another principal's snapshot", () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'vault_read', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT'));
  it('7. execute_tool of a system tool', () =>
    expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'journal_append', arguments: { entry: 'x' } }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('8. execute_tool of execute_tool (recursion)', () =>
    expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'execute_tool', arguments: { name: 'delete_all', arguments: {} } }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('9. execute_tool of discover_tools', () =>
    expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'discover_tools', arguments: { query: 'x' } }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('10. execute_tool of unified_tool', () =>
    expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'unified_tool', arguments: { request: 'delete all notes' } }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('11. execute_tool of a name two capabilities publish, unprefixed (no shadowing)', () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'echo', arguments: { message: 'hi' } }), 'TOOL_NOT_FOUND', {
      text: '"canary.echo"',
    }));
  it("12. execute_tool of another capability's denied tool under that capability's prefix", () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'canary.delete_all', arguments: {} }), 'TOOL_NOT_FOUND', {
      text: '"twin.canary.delete_all"',
    }));

  // Names that only look like a listed one.
  const lookalikes: Array<[string, string]> = [
    ['13. differs by case', 'Write_Note'],
    ['14. all capitals', 'WRITE_NOTE'],
    ['15. a Cyrillic confusable (е, U+0435)', 'writ\u0435_note'],
    ['16. fullwidth letters', '\uff57rite_note'],
    ['17. leading whitespace', ' write_note'],
    ['18. trailing newline', 'write_note\n'],
    ['19. a zero-width space inside', 'write\u200b_note'],
  ];
  for (const [label, name] of lookalikes) {
    it(`${label}: execute_tool of a look-alike name`, () =>
      expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name, arguments: { text: 'hi' } }), 'TOOL_NOT_IN_SNAPSHOT'));
  }
  it('20. a look-alike name called directly in direct mode', () =>
    expectRefused(() => call(main, s.direct.surfaceId, 'Write_Note', { text: 'hi' }), 'TOOL_NOT_FOUND'));
  it('21. a denied tool called directly in direct mode answers exactly as a name that does not exist', async () => {
    const hidden = await call(main, s.direct.surfaceId, 'delete_all', {});
    const unknown = await call(main, s.direct.surfaceId, 'no_such_tool', {});
    const answer = (r: typeof hidden, name: string) => JSON.stringify(r.res).replaceAll(name, '<name>');
    expect(answer(hidden, 'delete_all')).toBe(answer(unknown, 'no_such_tool'));
    const audit = await expectRefused(() => call(main, s.direct.surfaceId, 'delete_all', {}), 'TOOL_NOT_FOUND');
    // Only the operator's record says why: the rule that hides it.
    expect(audit.admission).toEqual({ decision: 'deny', rule: 'no-delete-all' });
    expect((await auditOf(unknown.callId))[0].admission).toBeUndefined();
  });

  // unified_tool steered at what it may not run.
  it('22. unified_tool with preferred_tools naming a denied tool', () =>
    expectRefused(
      () => call(main, s.uni.surfaceId, 'unified_tool', { request: 'delete all the notes', preferred_tools: ['delete_all'] }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('23. unified_tool with preferred_tools naming an unbound tool', () =>
    expectRefused(
      () => call(main, s.uni.surfaceId, 'unified_tool', { request: 'read the vault', preferred_tools: ['vault_read'] }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('24. unified_tool of a supervised gateway proposes and runs nothing', async () => {
    const before = received().length;
    const { callId, res } = await call(main, s.partner.surfaceId, 'unified_tool', {
      request: 'Echo the message "hello there"',
      preferred_tools: ['echo'],
    });
    expect(res?.isError, res?.message).toBe(false);
    expect(res?.unified?.executed).toBe(false);
    const [audit] = await auditOf(callId);
    expect(audit).toMatchObject({ outcome: 'proposed', via: 'unified_tool' });
    expect(received().slice(before)).toEqual([]);
  });

  // Surface and snapshot IDs that are not the caller's own.
  it('25. a forged surface ID', () =>
    expectRefused(() => call(main, 'srf_0123456789abcdef0123456789abcdef', 'write_note', { text: 'x' }), 'SURFACE_NOT_FOUND', {
      code: status.NOT_FOUND,
    }));
  it('26. a snapshot ID passed as a surface ID', () =>
    expectRefused(
      () => call(main, s.disc.snapshotId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }),
      'SURFACE_NOT_FOUND',
      { code: status.NOT_FOUND },
    ));
  it("27. another orchestrator's surface ID", () =>
    expectRefused(
      () => call(tenant, s.disc.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }),
      'SURFACE_NOT_FOUND',
      { code: status.NOT_FOUND, orchestrator: 'tenant' },
    ));
  it("28. a call injected with another principal's surface ID, for a tool only the first principal has", () =>
    expectRefused(
      () => call(main, s.other.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }),
      'TOOL_NOT_IN_SNAPSHOT',
    ));
  it('29. a call replayed on a closed surface', () =>
    expectRefused(
      () => call(main, s.closed.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }),
      'SURFACE_NOT_FOUND',
      { code: status.NOT_FOUND },
    ));
  it('30. a meta-tool of another mode', () =>
    expectRefused(() => call(main, s.uni.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }), 'TOOL_NOT_FOUND'));

  // Argument constraints, on every path.
  it('31. denied arguments through execute_tool', () =>
    expectRefused(
      () => call(main, s.disc.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'my password is hunter2' } }),
      'PERMISSION_DENIED',
    ));
  it('32. denied arguments called directly', () =>
    expectRefused(() => call(main, s.direct.surfaceId, 'write_note', { text: 'the password' }), 'PERMISSION_DENIED'));
  it('33. one denied element in an array argument', () =>
    expectRefused(
      () => call(main, s.direct.surfaceId, 'write_notes', { texts: ['fine', 'a password here', 'fine too'] }),
      'PERMISSION_DENIED',
    ));
  // Denied arguments spelled another way (issue 38): the deny rule compares a folded form.
  const respelled: Array<[string, string, unknown]> = [
    ['33b. in capitals', 'write_note', { text: 'my PASSWORD is hunter2' }],
    ['33c. in full-width letters', 'write_note', { text: 'my ｐａｓｓｗｏｒｄ is hunter2' }],
    ['33d. with combining marks', 'write_note', { text: 'my pa\u0301sswo\u0308rd is hunter2' }],
    ['33e. with a zero-width space inside', 'write_note', { text: 'my pass\u200bword' }],
    ['33f. split across array elements', 'write_notes', { texts: ['my PASS', 'WORD is hunter2'] }],
    ['33g. split across three elements, full-width and with a mark', 'write_notes', { texts: ['ｐａｓ', 's', 'wo\u0301rd'] }],
  ];
  for (const [label, tool, args] of respelled) {
    it(`${label}: refused directly and through execute_tool, by the rule`, async () => {
      const rule = tool === 'write_note' ? 'no-password-note' : 'no-password-notes';
      const direct = await expectRefused(() => call(main, s.direct.surfaceId, tool, args), 'PERMISSION_DENIED');
      expect(direct.admission).toEqual({ decision: 'deny', rule });
      const meta = await expectRefused(
        () => call(main, s.disc.surfaceId, 'execute_tool', { name: tool, arguments: args }),
        'PERMISSION_DENIED',
      );
      expect(meta).toMatchObject({ admission: { decision: 'deny', rule }, attemptedName: tool });
    });
  }
  it('33h. the same words without the denied one still run (the rule is not a blanket refusal)', async () => {
    const before = received().length;
    const r = await call(main, s.direct.surfaceId, 'write_note', { text: 'my PASSPORT is in the drawer' });
    expect(r.res?.isError, r.res?.message).toBe(false);
    await new Promise((res) => setTimeout(res, 20));
    expect(received().slice(before)).toEqual([expect.objectContaining({ tool: 'write_note' })]);
  });

  it('34. denied arguments chosen by unified_tool', () =>
    expectRefused(
      () =>
        call(main, s.uni.surfaceId, 'unified_tool', {
          request: 'Write a note',
          context: { text: 'the password is hunter2' },
          preferred_tools: ['write_note'],
        }),
      'PERMISSION_DENIED',
    ));

  it('34b. denied arguments a supervised gateway would be proposed: refused, not proposed', () =>
    expectRefused(
      () =>
        call(main, s.partner.surfaceId, 'unified_tool', {
          request: 'Write a note',
          context: { text: 'the password is hunter2' },
          preferred_tools: ['write_note'],
        }),
      'PERMISSION_DENIED',
    ));

  // Limits.
  it('35. arguments over the size limit', () =>
    expectRefused(() => call(main, s.direct.surfaceId, 'write_note', { text: 'n'.repeat(300) }), 'ARGUMENTS_TOO_LARGE'));
  it('36. a call over the rate limit (after the two it allows ran)', async () => {
    for (let i = 0; i < 2; i++)
      expect((await call(main, s.disc.surfaceId, 'execute_tool', { name: 'ping', arguments: {} })).res?.isError).toBe(false);
    const audit = await expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'ping', arguments: {} }), 'RATE_LIMITED');
    expect(audit.admission).toEqual({ decision: 'deny', rule: 'ping-2-per-minute' });
  });

  // Callers that are not who they say.
  it('37. no bearer token', async () => {
    const audit = await expectRefused(
      () => call(anonymous, s.disc.surfaceId, 'execute_tool', { name: 'write_note', arguments: { text: 'x' } }),
      'UNAUTHENTICATED',
      {
        code: status.UNAUTHENTICATED,
        orchestrator: '',
      },
    );
    expect(audit.principal).toBeUndefined();
  });
  it('38. a forged bearer token', () =>
    expectRefused(() => call(forged, s.disc.surfaceId, 'write_note', { text: 'x' }), 'UNAUTHENTICATED', {
      code: status.UNAUTHENTICATED,
      orchestrator: '',
    }));
  it('40. a CallTool request that does not decode as protobuf', async () => {
    const RawClient = makeGenericClientConstructor(
      { callTool: rawUnaryMethod('/toolsurface.v1.DispatchService/CallTool') },
      'DispatchService',
    );
    const creds = channelCredentials({ caFile: certs.caFile, certFile: certs.otherCertFile, keyFile: certs.otherKeyFile });
    const raw = new RawClient(g.stack.addresses.dispatch, creds, { interceptors: [bearerInterceptor(MAIN_TOKEN)] }) as unknown as Client & {
      callTool: (req: Buffer, opts: object, cb: (err: ServiceError | null) => void) => void;
    };
    const undecodable = () =>
      g.events
        .filter((e) => e.subject === 'toolsurface.tool.called.v1')
        .map((e) => ToolCalled.decode(e.data))
        .filter((e) => e.reason === 'INVALID_REQUEST' && e.calledName === '' && e.orchestrator === 'main');
    const before = undecodable().length;
    const received0 = received().length;
    try {
      const err = await new Promise<ServiceError | null>((resolve) =>
        raw.callTool(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), { deadline: Date.now() + 5000 }, resolve),
      );
      expect({ code: err?.code, reason: err?.metadata?.get('toolsurface-reason')?.[0] }).toEqual({
        code: status.INVALID_ARGUMENT,
        reason: 'INVALID_REQUEST',
      });
    } finally {
      raw.close();
    }
    const deadline = Date.now() + 5000;
    while (undecodable().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(undecodable().length - before).toBe(1);
    expect(undecodable().at(-1)).toMatchObject({ outcome: 'refused', principal: undefined });
    expect(received().slice(received0)).toEqual([]);
  });

  it('40b. a CallTool over the gRPC message limit: refused by the transport, audited with its size and no body', async () => {
    const tooLarge = () =>
      g.events
        .filter((e) => e.subject === 'toolsurface.tool.called.v1')
        .map((e) => ToolCalled.decode(e.data))
        .filter((e) => e.reason === 'REQUEST_TOO_LARGE');
    const before = tooLarge().length;
    const received0 = received().length;
    const { err } = await call(main, s.direct.surfaceId, 'write_note', { text: 'x'.repeat(17 * 1024 * 1024) });
    expect(err?.code, err?.details).toBe(status.RESOURCE_EXHAUSTED);
    const deadline = Date.now() + 10_000;
    while (tooLarge().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(tooLarge().length - before).toBe(1);
    const audit = tooLarge().at(-1)!;
    // What is recorded is bounded: who sent it (from the token) and its size; nothing of the body.
    expect(audit).toMatchObject({
      outcome: 'refused',
      orchestrator: 'main',
      surfaceId: '',
      calledName: '',
      callId: '',
      principal: undefined,
    });
    expect(audit.requestBytes).toBeGreaterThan(17 * 1024 * 1024);
    expect(received().slice(received0)).toEqual([]);
  });

  it('39. malformed execute_tool arguments', () =>
    expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'write_note', arguments: 'text=hi' }), 'INVALID_ARGUMENTS'));
});

describe('bypass attempts that need the bindings or the catalog to change', () => {
  it('41. a tool bound after the surface opened, and binding changes racing the calls: refused throughout', async () => {
    const before = received().length;
    const calls: Array<Promise<Awaited<ReturnType<typeof call>>>> = [];
    for (let i = 0; i < 20; i++) calls.push(call(main, s.disc.surfaceId, 'execute_tool', { name: 'late_tool', arguments: {} }));
    await unaryCall(main.presentation, 'setBindings', { principal: principalOf('agent:disc'), capabilities: ['canary', 'twin', 'late'] });
    for (let i = 0; i < 20; i++) calls.push(call(main, s.disc.surfaceId, 'execute_tool', { name: 'late_tool', arguments: {} }));
    const results = await Promise.all(calls);
    try {
      expect(results.map((r) => r.res?.reason)).toEqual(results.map(() => 'TOOL_NOT_IN_SNAPSHOT'));
      for (const r of results)
        expect(await auditOf(r.callId)).toEqual([expect.objectContaining({ outcome: 'refused', reason: 'TOOL_NOT_IN_SNAPSHOT' })]);
      expect(received().slice(before)).toEqual([]);
      // A surface opened now has it, and runs it: the refusals above came from the snapshot, not a broken tool.
      const fresh = await main.open('agent:disc');
      const ran = await call(main, fresh.surfaceId, 'execute_tool', { name: 'late_tool', arguments: {} });
      expect(ran.res?.isError, ran.res?.message).toBe(false);
      // 42. Replayed from history after the binding is gone: a new surface refuses it.
      await unaryCall(main.presentation, 'setBindings', { principal: principalOf('agent:disc'), capabilities: ['canary', 'twin'] });
      const after = await main.open('agent:disc');
      await expectRefused(() => call(main, after.surfaceId, 'execute_tool', { name: 'late_tool', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT');
    } finally {
      await unaryCall(main.presentation, 'setBindings', { principal: principalOf('agent:disc'), capabilities: ['canary', 'twin'] });
    }
  });

  it('43. a deny rule racing calls: each call is decided whole, and once refused, refused from then on', async () => {
    const original = readFileSync(CONFIG, 'utf8');
    const denied = original.replace(
      '  rules:\n',
      '  rules:\n    - { id: no-echo-now, effect: deny, capabilities: [canary], tools: [echo] }\n',
    );
    const ids: string[] = [];
    let stop = false;
    const loop = (async () => {
      while (!stop) ids.push((await call(main, s.direct.surfaceId, 'echo', { message: 'race' })).callId);
    })();
    await new Promise((r) => setTimeout(r, 200));
    await unaryCall(main.presentation, 'applyConfig', { configYaml: denied });
    try {
      // The deny reaches dispatch through a KV watch: wait until a call is refused by it (at most 5 s).
      const deadline = Date.now() + 5000;
      for (;;) {
        const last = ids.length > 0 ? await auditOf(ids[ids.length - 1]) : [];
        if (last[0]?.reason === 'PERMISSION_DENIED' || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300));
      stop = true;
      await loop;
      const audits = (await Promise.all(ids.map(auditOf))).map((a) => {
        expect(a).toHaveLength(1);
        return a[0];
      });
      const firstRefused = audits.findIndex((a) => a.outcome === 'refused');
      expect(firstRefused, 'the deny rule never took effect').toBeGreaterThan(0);
      expect(audits.slice(0, firstRefused).every((a) => a.outcome === 'ok' && a.admission?.rule === 'default')).toBe(true);
      expect(audits.slice(firstRefused).map((a) => [a.outcome, a.reason, a.admission?.rule])).toEqual(
        audits.slice(firstRefused).map(() => ['refused', 'PERMISSION_DENIED', 'no-echo-now']),
      );
      const echoes = received().filter((r) => r.tool === 'echo' && (r.args as { message?: string }).message === 'race');
      expect(echoes).toHaveLength(firstRefused);
      // 44. The listing agrees at once for a new surface.
      const fresh = await main.open('agent:direct');
      expect(JSON.stringify(fresh)).not.toContain('"echo"');
    } finally {
      stop = true;
      await loop;
      await unaryCall(main.presentation, 'applyConfig', { configYaml: original });
    }
  });

  it('46. a principal left out of a new config keeps nothing of what the old one gave it', async () => {
    const original = readFileSync(CONFIG, 'utf8');
    const without = original.replace(/^ {2}- \{ kind: agent, id: other,.*\n/m, '');
    expect(without).not.toBe(original);
    await unaryCall(main.presentation, 'applyConfig', { configYaml: without });
    try {
      const bindings = await unaryCall<{ capabilities: string[] }>(main.presentation, 'getBindings', {
        principal: principalOf('agent:other'),
      });
      expect(bindings.capabilities).toEqual([]);
      const after = await main.open('agent:other');
      expect(JSON.stringify(after)).not.toContain('vault_read');
      await expectRefused(() => call(main, after.surfaceId, 'vault_read', {}), 'TOOL_NOT_FOUND');
    } finally {
      await unaryCall(main.presentation, 'applyConfig', { configYaml: original });
    }
    const back = await main.open('agent:other');
    expect(back.boundToolCount).toBe(1);
  });

  it('47. ApplyConfig calls racing each other leave one config whole, never a mix of them', async () => {
    const original = readFileSync(CONFIG, 'utf8');
    // Each variant adds its own deny rule and its own principal: a mix would show rules and principals of different variants.
    const variant = (k: number) =>
      original
        .replace('  rules:\n', `  rules:\n    - { id: race-${k}, effect: deny, tools: [race_tool_${k}] }\n`)
        .replace('principals:\n', `principals:\n  - { kind: agent, id: race-${k}, mode: direct, capabilities: [canary] }\n`);
    try {
      const outcomes = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((k) =>
          unaryCall(main.presentation, 'applyConfig', { configYaml: variant(k) }).then(
            () => 'ok',
            (e: ServiceError & { reason?: string }) => `${e.code}`,
          ),
        ),
      );
      // Each one is applied whole or refused as a conflict (ABORTED: read again and retry).
      expect(
        outcomes.every((o) => o === 'ok' || o === `${status.ABORTED}`),
        outcomes.join(','),
      ).toBe(true);
      expect(outcomes).toContain('ok');
      const kv = await new Kvm(g.nc).open('toolsurface_config');
      const doc = JSON.parse((await kv.get(CONFIG_DOCUMENT_KEY))!.string()) as {
        admission: { rules: Array<{ id: string }> };
        principals: Array<{ id: string }>;
      };
      const rules = doc.admission.rules.map((r) => r.id).filter((id) => id.startsWith('race-'));
      const principals = doc.principals.map((p) => p.id).filter((id) => id.startsWith('race-'));
      expect(rules).toHaveLength(1);
      expect(principals).toEqual(rules);
      // What the API reports agrees with the stored config: only the winner's principal has bindings.
      for (const k of [1, 2, 3, 4, 5, 6]) {
        const b = await unaryCall<{ capabilities: string[] }>(main.presentation, 'getBindings', {
          principal: principalOf(`agent:race-${k}`),
        });
        expect(b.capabilities, `race-${k}`).toEqual(`race-${k}` === rules[0] ? ['canary'] : []);
      }
    } finally {
      await unaryCall(main.presentation, 'applyConfig', { configYaml: original });
    }
  });

  it('45. a tool a capability starts publishing later reaches no open surface and no unbound principal', async () => {
    const published = await call(main, s.direct.surfaceId, 'publish_tool', { name: 'fresh_tool' });
    expect(published.res?.isError, published.res?.message).toBe(false);
    // Wait until the catalog has it: a new surface of a bound principal lists it.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = await main.open('agent:direct');
      if (JSON.stringify(probe).includes('fresh_tool')) break;
      if (Date.now() > deadline) throw new Error('the catalog never listed fresh_tool');
      await new Promise((r) => setTimeout(r, 200));
    }
    await expectRefused(() => call(main, s.disc.surfaceId, 'execute_tool', { name: 'fresh_tool', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT');
    await expectRefused(() => call(main, s.direct.surfaceId, 'fresh_tool', {}), 'TOOL_NOT_IN_SNAPSHOT');
    const other = await main.open('agent:other');
    await expectRefused(() => call(main, other.surfaceId, 'execute_tool', { name: 'fresh_tool', arguments: {} }), 'TOOL_NOT_IN_SNAPSHOT');
    const found = await call(main, s.disc.surfaceId, 'discover_tools', { query: 'fresh tool published after the surface opened' });
    expect(found.res?.structuredContentJson).not.toContain('fresh_tool');
  });
});

describe('limits on results', () => {
  it('withholds a result over the size limit (the tool ran) and records the limit', async () => {
    const small = await call(main, s.direct.surfaceId, 'dump', { bytes: 100 });
    expect(small.res?.isError, small.res?.message).toBe(false);
    const big = await call(main, s.direct.surfaceId, 'dump', { bytes: 5000 });
    expect({ isError: big.res?.isError, reason: big.res?.reason }).toEqual({ isError: true, reason: 'RESULT_TOO_LARGE' });
    expect(big.res?.contentJson).not.toContain('xxxxxxxxxx');
    const [audit] = await auditOf(big.callId);
    expect(audit).toMatchObject({ outcome: 'error', reason: 'RESULT_TOO_LARGE', admission: { decision: 'deny', rule: 'dump-1-kib' } });
  });
});
