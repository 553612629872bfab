import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHealth, ensureNats, findFreePort, isPortOpen, liveGroupMembers, type NatsHandle } from '@toolsurface/devkit';
import { serviceEntry, startStack, STACK_SERVICES, type RunningStack } from './stack';

/** A value no environment holds by chance. */
const LEAK_PROBE = `leak-probe-${process.pid}-${Date.now()}`;

const missing = STACK_SERVICES.map((s) => serviceEntry(s.name)).filter((p) => !existsSync(p));
if (missing.length > 0) console.log(`stack.int.test skipped: service entry files do not exist yet: ${missing.join(', ')}`);

/** True while a process with this PID exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(missing.length > 0)('startStack (real nats-server, the four services, server-everything)', () => {
  let dir: string;
  let nats: NatsHandle;
  let stack: RunningStack;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsurface-stack-'));
    // Its own nats-server on a free port, never the shared one on 4222.
    const port = await findFreePort();
    nats = await ensureNats({ url: `nats://127.0.0.1:${port}`, dataDir: join(dir, 'nats'), logPath: join(dir, 'logs', 'nats.log') });
    // a secret exported before `npm start` (the MCP server's get-env tool must not hand it to agents)
    process.env.TOOLSURFACE_LEAK_PROBE = LEAK_PROBE;
    try {
      stack = await startStack({ natsUrl: nats.url, freePorts: true, logDir: join(dir, 'logs') });
    } finally {
      delete process.env.TOOLSURFACE_LEAK_PROBE;
    }
  });

  afterAll(async () => {
    await stack?.stop();
    await nats?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts its own nats-server for a URL nobody answers', () => {
    expect(nats.startedByUs).toBe(true);
    expect(nats.url).not.toContain(':4222');
  });

  it('brings every service to SERVING on the gRPC health service, overall and per service name', async () => {
    for (const s of STACK_SERVICES) {
      const address = stack.addresses[s.port];
      expect(await checkHealth(address, ''), `${s.name} ""`).toBe('SERVING');
      for (const name of s.healthServices) expect(await checkHealth(address, name), `${s.name} ${name}`).toBe('SERVING');
    }
  });

  it('serves the MCP server on the picked port and points the config copy at it', async () => {
    expect(await isPortOpen('127.0.0.1', stack.ports.everythingHttp)).toBe(true);
    expect(stack.configPath).toBe(join(dir, 'logs', 'toolsurface.yaml'));
    expect(readFileSync(stack.configPath, 'utf8')).toContain(`http://127.0.0.1:${stack.ports.everythingHttp}/mcp`);
    expect(new Set(Object.values(stack.ports)).size).toBe(6);
  });

  it("serves dispatch's MCP endpoint on its own port, loopback only without keys", async () => {
    expect(stack.addresses.mcp).toBe(`http://127.0.0.1:${stack.ports.mcp}`);
    const res = await fetch(`${stack.addresses.mcp}/mcp/agent/researcher`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stack-test', version: '0' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^mcp_[0-9a-f]{32}$/);
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('toolsurface');
  });

  it('serves the MCP server on 127.0.0.1 only, as the services are, not on the network', async (ctx) => {
    // (server-everything listens on its port alone, every interface; listen-host.mjs holds it to 127.0.0.1)
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && !a.internal && a.family === 'IPv4');
    if (external === undefined) {
      console.log('skipped: this machine has no non-loopback IPv4 address to probe');
      ctx.skip();
      return;
    }
    expect(await isPortOpen('127.0.0.1', stack.ports.everythingHttp)).toBe(true);
    expect(await isPortOpen(external.address, stack.ports.everythingHttp), `${external.address}:${stack.ports.everythingHttp}`).toBe(false);
  });

  it("starts the MCP server without this process's environment: its get-env tool shows no secret", async () => {
    const client = new Client({ name: 'stack-int-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${stack.ports.everythingHttp}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const getEnv = tools.find((t) => /get.?env/i.test(t.name));
      expect(getEnv, 'server-everything has a get-env tool').toBeDefined();
      const out = JSON.stringify(await client.callTool({ name: getEnv!.name, arguments: {} }));
      expect(out).toContain('PATH');
      expect(out).not.toContain(LEAK_PROBE);
    } finally {
      await client.close();
    }
  });

  it('stops everything it started, in reverse order, leaving no process behind', async () => {
    const pids = stack.processes.map((p) => p.pid);
    expect(pids).toHaveLength(5);
    expect(pids.every(alive)).toBe(true);
    await stack.stop();
    expect(pids.filter(alive)).toEqual([]);
    // Nothing the services started either (dispatch's stdio MCP servers, tsx's esbuild): zombies awaiting init do not count.
    expect(pids.flatMap(liveGroupMembers)).toEqual([]);
    const natsPid = nats.pid!;
    await nats.stop();
    expect(alive(natsPid)).toBe(false);
    for (const s of STACK_SERVICES) expect(await checkHealth(stack.addresses[s.port], '', 300)).toBe('UNREACHABLE');
  });
});
