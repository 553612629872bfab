import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kvm } from '@nats-io/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ADAPTIVE_DISCOVERY_THRESHOLD, Metric } from '@toolsurface/core';
import { checkHealth, findFreePort, waitForPort } from '@toolsurface/devkit';
import { ResolvedMode, type CallToolResponse, type Surface } from '@toolsurface/proto';
import { startGateway, type GatewayFixture } from '../support';

// docs/DESIGN.md product rule 11, "an outage changes no surface": a Streamable HTTP MCP server this
// suite starts and kills itself, bound with two stdio servers to an adaptive agent of 36 tools. While
// it is down (and across a dispatch restart during the outage) new surfaces list the same tools in
// the same mode, and a call to its tools gets CAPABILITY_UNAVAILABLE; once it is back the call runs.

const ROOT = resolve(import.meta.dirname, '../..');
const modules = join(ROOT, 'node_modules/@modelcontextprotocol');
const EVERYTHING = join(modules, 'server-everything/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'toolsurface-outage-'));
let g: GatewayFixture;
let flakyPort: number;
let flaky: ChildProcess | undefined;

async function startFlaky(): Promise<void> {
  flaky = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(flakyPort) }, stdio: 'ignore' });
  await waitForPort('127.0.0.1', flakyPort, { timeoutMs: 30_000 });
}

async function killFlaky(): Promise<void> {
  const child = flaky;
  flaky = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

async function catalogStatus(capability: string): Promise<string | undefined> {
  const kv = await new Kvm(g.nc).open('toolsurface_catalog');
  const e = await kv.get(capability);
  return e && e.operation === 'PUT' ? (JSON.parse(e.string()) as { status: string }).status : undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const echo = (surfaceId: string): Promise<CallToolResponse> =>
  g.clients.call(surfaceId, 'execute_tool', { name: 'echo', arguments: { message: 'still here' } });
const view = (s: Surface) => ({ mode: s.resolvedMode, snapshot: s.snapshotId, bound: s.boundToolCount, tools: s.tools.map((t) => t.name) });

beforeAll(async () => {
  flakyPort = await findFreePort();
  const deadPort = await findFreePort();
  const config = {
    version: 1,
    capabilities: {
      flaky: { transport: 'streamable-http', url: `http://127.0.0.1:${flakyPort}/mcp` },
      // Nothing listens here, ever: the operator must be told, not left to find it missing.
      ghost: { transport: 'streamable-http', url: `http://127.0.0.1:${deadPort}/mcp` },
      filesystem: {
        transport: 'stdio',
        command: 'node',
        args: [join(modules, 'server-filesystem/dist/index.js'), join(ROOT, 'test/fixtures/sample')],
      },
      memory: {
        transport: 'stdio',
        command: 'node',
        args: [join(modules, 'server-memory/dist/index.js')],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      },
    },
    principals: [{ kind: 'agent', id: 'watcher', mode: 'adaptive', capabilities: ['flaky', 'filesystem', 'memory'] }],
    admission: { default: 'allow', rules: [] },
  };
  const configPath = join(dir, 'outage.yaml');
  writeFileSync(configPath, stringify(config));
  await startFlaky();
  g = await startGateway(configPath, ['flaky', 'filesystem', 'memory']);
}, 180_000);

afterAll(async () => {
  await killFlaky();
  await g?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a capability that is down keeps its place', () => {
  it('lists the same tools in the same mode while down, refuses calls as CAPABILITY_UNAVAILABLE, and runs them once back', async () => {
    const before = await g.clients.open('agent:watcher');
    // Enough tools that losing flaky's would flip adaptive to direct.
    expect(before.boundToolCount).toBeGreaterThanOrEqual(ADAPTIVE_DISCOVERY_THRESHOLD);
    expect(before.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DISCOVERY);
    expect((await echo(before.surfaceId)).isError).toBe(false);

    await killFlaky();
    // Streamable HTTP holds no connection between calls: the first call after the kill finds it down.
    expect(await echo(before.surfaceId)).toMatchObject({ isError: true, reason: 'CAPABILITY_UNAVAILABLE' });
    await until('flaky to be unavailable in the catalog', async () =>
      (await catalogStatus('flaky')) === 'unavailable' ? true : undefined,
    );
    const during = await g.clients.open('agent:watcher');
    expect(view(during)).toEqual(view(before));
    const refused = await echo(during.surfaceId);
    expect(refused).toMatchObject({ isError: true, reason: 'CAPABILITY_UNAVAILABLE', toolName: 'echo' });
    expect(refused.message).toMatch(/try again/);
    expect(await checkHealth(g.stack.addresses.dispatch, 'toolsurface.capability.flaky')).toBe('NOT_SERVING');

    // A dispatch restart during the outage: its catalog still holds flaky's last known tools.
    await g.stack.restart('dispatch');
    const afterRestart = await g.clients.open('agent:watcher');
    expect(view(afterRestart)).toEqual(view(before));
    expect(await echo(afterRestart.surfaceId)).toMatchObject({ isError: true, reason: 'CAPABILITY_UNAVAILABLE' });
    expect(await checkHealth(g.stack.addresses.dispatch, 'toolsurface.capability.flaky')).toBe('NOT_SERVING');

    await startFlaky();
    // Dispatch reconnects with backoff (at most 30 s between attempts).
    const ran = await until('a call to flaky to run again', async () => {
      const r = await echo(afterRestart.surfaceId);
      return r.isError ? undefined : r;
    });
    expect(ran.contentJson).toContain('still here');
    expect(await checkHealth(g.stack.addresses.dispatch, 'toolsurface.capability.flaky')).toBe('SERVING');
    expect(view(await g.clients.open('agent:watcher'))).toEqual(view(before));
  }, 240_000);

  it('reports a capability that never connected: health, metric and log', async () => {
    expect(await checkHealth(g.stack.addresses.dispatch, 'toolsurface.capability.ghost')).toBe('NOT_SERVING');
    expect(await checkHealth(g.stack.addresses.dispatch, 'toolsurface.capability.memory')).toBe('SERVING');
    await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === Metric.CAPABILITY_UP.name &&
        p.attributes['toolsurface.capability'] === 'ghost' &&
        p.value === 0,
      30_000,
    );
    await g.otlp.waitForPoint(
      (p) =>
        p.service === 'dispatch' &&
        p.name === Metric.CAPABILITY_UP.name &&
        p.attributes['toolsurface.capability'] === 'memory' &&
        p.value === 1,
      30_000,
    );
    const log = readFileSync(join(g.stack.logDir, 'dispatch.log'), 'utf8');
    expect(log).toMatch(/"capability":"ghost".*never connected/);
  });
});
