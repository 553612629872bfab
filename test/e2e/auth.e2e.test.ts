import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kvm } from '@nats-io/kv';
import { PresentationMode } from '@toolsurface/proto';
import { checkHealth } from '@toolsurface/devkit';
import { CONFIG_DOCUMENT_KEY } from '@toolsurface/state';
import { Clients, callError, principalOf, startGateway, textOf, unaryCall, type GatewayFixture } from '../support';

// Caller authentication: bearer tokens of orchestrators, each mapped to the principals it may act for.
const OPS = 'ops-token-0123456789';
const TEAM_A = 'team-a-token-0123456789';
let g: GatewayFixture;
let ops: Clients;
let teamA: Clients;
let forged: Clients;

beforeAll(async () => {
  g = await startGateway(join(import.meta.dirname, '..', 'fixtures', 'auth.yaml'), ['memory']);
  ops = new Clients(g.stack.addresses, OPS);
  teamA = new Clients(g.stack.addresses, TEAM_A);
  forged = new Clients(g.stack.addresses, 'not-a-token-of-anyone');
}, 180_000);
afterAll(async () => {
  for (const c of [ops, teamA, forged]) c?.close();
  await g?.stop();
}, 60_000);

describe('caller authentication', () => {
  it('refuses every API without a valid bearer token, and the health service stays open', async () => {
    for (const clients of [g.clients, forged]) {
      // Thunks: each call starts only when awaited, so no rejection waits unobserved.
      for (const p of [
        () => clients.open('agent:a-1'),
        () => clients.call('srf_00000000000000000000000000000000', 'read_graph', {}),
        () => unaryCall(clients.presentation, 'getPresentation', { principal: principalOf('agent:a-1') }),
        () => unaryCall(clients.presentation, 'setBindings', { principal: principalOf('agent:a-1'), capabilities: [] }),
      ]) {
        const e = await callError(p());
        expect({ code: e.code, reason: e.reason }).toEqual({ code: status.UNAUTHENTICATED, reason: 'UNAUTHENTICATED' });
      }
    }
    expect(await checkHealth(g.stack.addresses.resolver)).toBe('SERVING');
  });

  it('an orchestrator opens surfaces and calls tools only for its own principals', async () => {
    const own = await teamA.open('agent:a-1');
    const r = await teamA.call(own.surfaceId, 'read_graph', {});
    expect(r.isError, r.message).toBe(false);
    const e = await callError(teamA.open('agent:b-1'));
    expect({ code: e.code, reason: e.reason }).toEqual({ code: status.PERMISSION_DENIED, reason: 'PERMISSION_DENIED' });
  });

  it("another orchestrator's surface is unknown to it: no call, no read, no close", async () => {
    const theirs = await ops.open('agent:b-1');
    for (const p of [
      () => teamA.call(theirs.surfaceId, 'read_graph', {}),
      () => unaryCall(teamA.surface, 'getSurface', { surfaceId: theirs.surfaceId }),
      () => unaryCall(teamA.surface, 'closeSurface', { surfaceId: theirs.surfaceId }),
    ]) {
      const e = await callError(p());
      expect({ code: e.code, reason: e.reason }).toEqual({ code: status.NOT_FOUND, reason: 'SURFACE_NOT_FOUND' });
    }
    const still = await ops.call(theirs.surfaceId, 'read_graph', {});
    expect(still.isError, still.message).toBe(false);
    expect(textOf(still.contentJson)).toContain('entities');
  });

  it('only an admin orchestrator changes settings, bindings or the config, and no API call changes orchestrators', async () => {
    const p = principalOf('agent:a-2');
    const set = { principal: p, mode: PresentationMode.PRESENTATION_MODE_DISCOVERY, autonomy: 0 };
    const e = await callError(unaryCall(teamA.presentation, 'setPresentation', set));
    expect({ code: e.code, reason: e.reason }).toEqual({ code: status.PERMISSION_DENIED, reason: 'PERMISSION_DENIED' });
    const bindings = await callError(unaryCall(teamA.presentation, 'setBindings', { principal: p, capabilities: ['memory'] }));
    expect(bindings.code).toBe(status.PERMISSION_DENIED);
    await unaryCall(ops.presentation, 'setPresentation', set);
    const got = await unaryCall<{ presentation: { mode: number } }>(teamA.presentation, 'getPresentation', { principal: p });
    expect(got.presentation.mode).toBe(PresentationMode.PRESENTATION_MODE_DISCOVERY);
    const mint = await callError(
      unaryCall(ops.presentation, 'applyConfig', {
        configYaml: `capabilities: { memory: { transport: stdio, command: node, args: ["x"] } }\norchestrators: [{ id: me, token_sha256: "${'0'.repeat(64)}", principals: ["*"], admin: true }]\nprincipals: []`,
      }),
    );
    expect(mint.code).toBe(status.PERMISSION_DENIED);
  });

  it('a malformed stored orchestrators record refuses every caller instead of switching authentication off', async () => {
    // The applied config is one record (libs/state ConfigView); its orchestrators are broken in place.
    const kv = await new Kvm(g.nc).open('toolsurface_config');
    const original = (await kv.get(CONFIG_DOCUMENT_KEY))!.string();
    const own = await ops.open('agent:a-1');
    await kv.put(CONFIG_DOCUMENT_KEY, JSON.stringify({ ...(JSON.parse(original) as object), orchestrators: { not: 'a list' } }));
    try {
      // Both services read the record through a KV watch: wait until each refuses.
      const refused = async (p: () => Promise<unknown>) => {
        const deadline = Date.now() + 5000;
        for (;;) {
          try {
            await p();
          } catch (e) {
            const se = e as { code?: number };
            if (se.code === status.UNAUTHENTICATED) return;
            throw e;
          }
          if (Date.now() > deadline) throw new Error('still answering with a malformed orchestrators record');
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      for (const c of [ops, g.clients]) {
        await refused(() => c.open('agent:a-1'));
        await refused(() => c.call(own.surfaceId, 'read_graph', {}));
      }
    } finally {
      await kv.put(CONFIG_DOCUMENT_KEY, original);
    }
    const deadline = Date.now() + 5000;
    while ((await ops.call(own.surfaceId, 'read_graph', {}).catch(() => undefined)) === undefined) {
      if (Date.now() > deadline) throw new Error('authentication did not come back after the record was restored');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
