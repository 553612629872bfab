import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { GatewayClient, principalSummaryToJson } from '@toolsurface/client';
import { isAppError, ReasonCode, tokenDigest, type McpTool } from '@toolsurface/core';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { Buckets, connectNats, openBucket } from '@toolsurface/platform';
import { createApp, type App } from './app';
import { loadConfig } from './config';

// ListPrincipals and GetEffectiveConfig over real gRPC, against a real nats-server: what the
// portal's lists and `toolsurface principals` show.

// Tokens of the suite's two orchestrators (their SHA-256 digests are in the config below).
const ADMIN = 'portal-admin-token-0123456789';
const TEAM = 'portal-team-token-0123456789';
const sha = tokenDigest;

let dir: string;
let nats: NatsHandle;
let app: App;
let nc: NatsConnection;
let admin: GatewayClient;
let team: GatewayClient;

const tools = (prefix: string, n: number): McpTool[] =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${i}`, description: `tool ${i}`, inputSchema: { type: 'object' } }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-principals-'));
  nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });
  writeFileSync(
    join(dir, 'config.yaml'),
    `capabilities:
  many: { transport: stdio, command: node, args: ["many.js"], env: { API_KEY: "secret-value-1" } }
  few: { transport: streamable-http, url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer secret-value-2" } }
orchestrators:
  - { id: ops, token_sha256: "${sha(ADMIN)}", principals: ["*"], admin: true }
  - { id: team, token_sha256: "${sha(TEAM)}", principals: ["agent:a-*"] }
principals:
  - { kind: agent, id: a-big, mode: adaptive, capabilities: [many] }
  - { kind: agent, id: a-small, mode: adaptive, capabilities: [few] }
  - { kind: agent, id: b-uni, mode: unified, capabilities: [many, few] }
  - { kind: gateway, id: g1, mode: unified, autonomy: supervised, capabilities: [few] }
admission:
  default: allow
  rules:
    - { id: hide-one, effect: deny, principals: ["agent:a-big"], capabilities: [many], tools: [many_0] }
`,
  );
  // The catalog as dispatch would list it: 31 tools in "many", 2 in "few".
  nc = await connectNats(nats.url, 'principals-test');
  const catalog = await openBucket(nc, Buckets.catalog);
  const now = Date.now();
  await catalog.put('many', JSON.stringify({ capability: 'many', status: 'ok', tools: tools('many', 31), listedAtMs: now }));
  await catalog.put('few', JSON.stringify({ capability: 'few', status: 'ok', tools: tools('few', 2), listedAtMs: now }));
  app = createApp(
    loadConfig({ NATS_URL: nats.url, GRPC_PORT: '0', TOOLSURFACE_CONFIG: join(dir, 'config.yaml'), LOG_LEVEL: 'silent' }),
    trace.getTracer('test'),
  );
  await app.start();
  const addr = { resolver: `127.0.0.1:${app.port()}`, dispatch: '127.0.0.1:1' };
  admin = new GatewayClient(addr, { controlMs: 30_000 }, ADMIN);
  team = new GatewayClient(addr, { controlMs: 30_000 }, TEAM);
}, 60_000);

afterAll(async () => {
  admin?.close();
  team?.close();
  await app?.stop();
  await nc?.close().catch(() => undefined);
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PresentationService.ListPrincipals', () => {
  it('lists every principal with its configured mode, resolved mode, bound-tool count against 30, autonomy and bindings', async () => {
    const list = (await admin.listPrincipals()).map(principalSummaryToJson);
    expect(list.map((p) => p.principal)).toEqual(['agent:a-big', 'agent:a-small', 'agent:b-uni', 'gateway:g1']);
    const by = Object.fromEntries(list.map((p) => [p.principal, p]));
    // 31 published, one hidden by hide-one: 30 bound, the threshold, so adaptive resolves to discovery.
    expect(by['agent:a-big']).toMatchObject({
      configuredMode: 'adaptive',
      resolvedMode: 'discovery',
      boundToolCount: 30,
      adaptiveThreshold: 30,
    });
    expect(by['agent:a-small']).toMatchObject({ configuredMode: 'adaptive', resolvedMode: 'direct', boundToolCount: 2 });
    expect(by['agent:b-uni']).toMatchObject({
      configuredMode: 'unified',
      resolvedMode: 'unified',
      boundToolCount: 33,
      autonomy: 'autonomous',
    });
    expect(by['gateway:g1']).toMatchObject({ configuredMode: 'unified', autonomy: 'supervised', capabilities: ['few'], inConfig: true });
  });

  it('narrows to one kind, and follows a SetPresentation at once', async () => {
    expect((await admin.listPrincipals('gateway')).map((p) => principalSummaryToJson(p).principal)).toEqual(['gateway:g1']);
    await admin.setPresentation({ kind: 'agent', id: 'a-small' }, 'discovery');
    const small = (await admin.listPrincipals('agent')).map(principalSummaryToJson).find((p) => p.id === 'a-small');
    expect(small).toMatchObject({ configuredMode: 'discovery', resolvedMode: 'discovery' });
  });

  it('shows an orchestrator only the principals it may act for', async () => {
    const list = (await team.listPrincipals()).map((p) => principalSummaryToJson(p).principal);
    expect(list).toEqual(['agent:a-big', 'agent:a-small']);
  });

  it('refuses a call without a valid token', async () => {
    const anon = new GatewayClient({ resolver: `127.0.0.1:${app.port()}`, dispatch: '127.0.0.1:1' }, { controlMs: 30_000 });
    try {
      const e = await anon.listPrincipals().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isAppError(e, ReasonCode.UNAUTHENTICATED)).toBe(true);
    } finally {
      anon.close();
    }
  });
});

describe('PresentationService.GetEffectiveConfig', () => {
  it('reads back the config in effect with API changes, without secrets or token digests', async () => {
    await admin.setPresentation({ kind: 'gateway', id: 'g1' }, 'direct', 'autonomous');
    const c = await admin.getEffectiveConfig();
    expect(c.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(c.appliedAtMs).toBeGreaterThan(0);
    const principals = c.config.principals as Array<Record<string, unknown>>;
    expect(principals.find((p) => p.id === 'g1')).toEqual({
      kind: 'gateway',
      id: 'g1',
      mode: 'direct',
      autonomy: 'autonomous',
      capabilities: ['few'],
    });
    expect(c.config.orchestrators).toEqual([
      { id: 'ops', principals: ['*'], admin: true },
      { id: 'team', principals: ['agent:a-*'], admin: false },
    ]);
    expect((c.config.capabilities as Record<string, { env?: string[]; headers?: string[] }>).many.env).toEqual(['API_KEY']);
    const text = JSON.stringify(c.config);
    for (const secret of ['secret-value-1', 'secret-value-2', sha(ADMIN)]) expect(text).not.toContain(secret);
  });

  it('is for admins only', async () => {
    const e = await team.getEffectiveConfig().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isAppError(e, ReasonCode.PERMISSION_DENIED)).toBe(true);
  });
});

describe('PresentationService.PreviewPresentation', () => {
  it("lists each mode's tools and tokens, equal to what OpenSurface reports for the same principal", async () => {
    const preview = await admin.previewPresentation({ kind: 'agent', id: 'a-big' });
    expect(preview.tokenizer).toBe('o200k_base');
    expect(preview.boundToolCount).toBe(30);
    const [direct, discovery, unified] = preview.modes;
    // many_0 is hidden by hide-one; the system tools follow each mode's own tools.
    expect(direct.toolNames.slice(0, 2)).toEqual(['many_1', 'many_10']);
    expect(direct.toolNames).not.toContain('many_0');
    expect(discovery.toolNames.slice(0, 3)).toEqual(['discover_tools', 'get_tool_schema', 'execute_tool']);
    expect(unified.toolNames[0]).toBe('unified_tool');
    expect(direct.tokens).toBeGreaterThan(discovery.tokens);
    expect(preview.hidden).toEqual([{ capability: 'many', name: 'many_0', rule: 'hide-one' }]);
    expect(preview.collisions).toEqual([]);
    // adaptive with 30 bound tools opens in discovery: the same count as the preview's.
    const surface = await admin.openSurface({ kind: 'agent', id: 'a-big' });
    expect(surface.presentedTokens).toBe(discovery.tokens);
  });

  it('is refused for a principal the orchestrator may not act for', async () => {
    const e = await team.previewPresentation({ kind: 'agent', id: 'b-uni' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isAppError(e, ReasonCode.PERMISSION_DENIED)).toBe(true);
  });
});
