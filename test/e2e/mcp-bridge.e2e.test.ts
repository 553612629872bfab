import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PresentationMode } from '@toolsurface/proto';
import { Kvm } from '@nats-io/kv';
import { findFreePort } from '@toolsurface/devkit';
import { callError, Clients, type GatewayFixture, mcpTextOf, principalOf, startMcpGateway, unaryCall } from '../support';

// MCP clients other than the SDK's Client used directly, against the whole gateway's MCP endpoint:
// the CLI's stdio bridge (`toolsurface mcp`), launched by the SDK's StdioClientTransport as a
// desktop assistant would launch it, and supergateway (npm), a second, independent bridge,
// driven over stdio with JSON-RPC lines.
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures');
const sample = join(fixtures, 'sample');
const bin = join(root, 'apps', 'cli', 'bin', 'toolsurface.js');
const supergateway = join(root, 'node_modules', 'supergateway', 'dist', 'index.js');
// test/fixtures/mcp.yaml: one key for every agent, another for gateway:other only.
const KEY = 'mcp-key-agents-0123456789';
const OTHER_KEY = 'mcp-key-other-0123456789';
let g: GatewayFixture;
let ops: Clients;

beforeAll(async () => {
  g = await startMcpGateway(join(fixtures, 'mcp.yaml'), ['everything', 'filesystem', 'memory']);
  ops = new Clients(g.stack.addresses, 'ops-token-0123456789');
}, 180_000);
afterAll(async () => {
  ops?.close();
  await g?.stop();
}, 60_000);

/** The bridge's environment: this process's, without a key of its own unless given. */
function bridgeEnv(key?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TOOLSURFACE_MCP_KEY') env[k] = v;
  return key ? { ...env, TOOLSURFACE_MCP_KEY: key } : env;
}

interface Bridged {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/** The SDK's Client launching `toolsurface mcp` over stdio. */
async function bridge(principal: string, key = KEY): Promise<Bridged> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--principal', principal, '--url', g.stack.addresses.mcp],
    env: bridgeEnv(key),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'bridge-e2e', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** The SDK's Client straight to the endpoint over HTTP, to compare with. */
async function direct(principal: string): Promise<{ client: Client; end(): Promise<void> }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${g.stack.addresses.mcp}/mcp/${principal.replace(':', '/')}`), {
    requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
  });
  const client = new Client({ name: 'direct-e2e', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    async end() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

/** The MCP sessions in NATS, by ID: the surface of each. */
async function sessions(): Promise<Map<string, string>> {
  const kv = await new Kvm(g.nc).open('toolsurface_mcp_sessions');
  const out = new Map<string, string>();
  for await (const k of await kv.keys()) {
    const e = await kv.get(k);
    if (e && e.operation === 'PUT') out.set(k, (JSON.parse(e.string()) as { surfaceId: string }).surfaceId);
  }
  return out;
}

/** A child speaking JSON-RPC lines on stdio: requests by id, every stdout line kept. */
class LineRpc {
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private nextId = 1;
  private readonly waiting = new Map<number, (msg: Record<string, unknown>) => void>();

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (typeof msg.id === 'number') this.waiting.get(msg.id)?.(msg);
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => this.waiting.set(id, resolve));
    this.notify(method, params, id);
    return answer;
  }

  notify(method: string, params?: Record<string, unknown>, id?: number): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...(id ? { id } : {}), method, ...(params ? { params } : {}) })}\n`);
  }

  async initialize(): Promise<Record<string, unknown>> {
    const res = await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'line-e2e', version: '0' },
    });
    this.notify('notifications/initialized');
    return res;
  }
}

const spawnBridge = (args: string[], key?: string) =>
  new LineRpc(spawn(process.execPath, [bin, 'mcp', ...args], { env: bridgeEnv(key), stdio: ['pipe', 'pipe', 'pipe'] }));

describe('toolsurface mcp: the stdio bridge, launched by the SDK’s StdioClientTransport', () => {
  it('lists the principal’s tools and calls one, results as the endpoint gives them', async () => {
    const b = await bridge('agent:small');
    try {
      expect(b.client.getServerVersion()?.name).toBe('toolsurface');
      const { tools } = await b.client.listTools();
      const surface = await ops.open('agent:small');
      expect(tools.map((t) => t.name)).toEqual(surface.tools.map((t) => t.name));
      const entity = `bridge-e2e-${Date.now()}`;
      const made = (await b.client.callTool({
        name: 'create_entities',
        arguments: { entities: [{ name: entity, entityType: 'test', observations: ['over stdio'] }] },
      })) as CallToolResult;
      expect(made.isError, mcpTextOf(made)).toBe(false);
      const graph = (await b.client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult;
      expect(JSON.stringify(graph)).toContain(entity);
      // The same list as the SDK's Client gets over HTTP.
      const d = await direct('agent:small');
      expect((await d.client.listTools()).tools).toEqual(tools);
      await d.end();
    } finally {
      await b.client.close();
    }
    expect(b.stderr()).toContain('connected to');
  });

  it('forwards the endpoint’s tools/list_changed to the stdio client; its next list shows the new mode', async () => {
    const b = await bridge('agent:notify2');
    let notices = 0;
    b.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notices++;
    });
    const setMode = (mode: PresentationMode) =>
      unaryCall(ops.presentation, 'setPresentation', { principal: principalOf('agent:notify2'), mode, autonomy: 0 });
    try {
      expect((await b.client.listTools()).tools.map((t) => t.name)).not.toContain('discover_tools');
      // (the bridge's HTTP client opens the endpoint's GET stream on its own after initialize: a
      // change made before it is open reaches the next list but not the stream, so change again)
      const deadline = Date.now() + 20_000;
      let mode = PresentationMode.PRESENTATION_MODE_DIRECT;
      while (notices === 0 && Date.now() < deadline) {
        mode =
          mode === PresentationMode.PRESENTATION_MODE_DISCOVERY
            ? PresentationMode.PRESENTATION_MODE_DIRECT
            : PresentationMode.PRESENTATION_MODE_DISCOVERY;
        await setMode(mode);
        for (const until = Date.now() + 1500; notices === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 25));
      }
      expect(notices, b.stderr()).toBeGreaterThan(0);
      const names = (await b.client.listTools()).tools.map((t) => t.name);
      expect(names.includes('discover_tools')).toBe(mode === PresentationMode.PRESENTATION_MODE_DISCOVERY);
    } finally {
      await setMode(PresentationMode.PRESENTATION_MODE_ADAPTIVE);
      await b.client.close();
    }
  });

  it('passes a refusal through as an isError result with the reason in _meta, unchanged', async () => {
    const [b, d] = await Promise.all([bridge('agent:fsdirect'), direct('agent:fsdirect')]);
    try {
      const args = { name: 'read_text_file', arguments: { path: join(sample, 'secret.txt') } };
      const viaBridge = (await b.client.callTool(args)) as CallToolResult;
      expect(viaBridge.isError).toBe(true);
      expect(mcpTextOf(viaBridge)).toMatch(/^PERMISSION_DENIED: .{10,}/);
      expect(viaBridge._meta?.['io.toolsurface/reason']).toBe('PERMISSION_DENIED');
      expect(viaBridge).toEqual(await d.client.callTool(args));
      const ok = { name: 'read_text_file', arguments: { path: join(sample, 'hello.txt') } };
      const read = (await b.client.callTool(ok)) as CallToolResult;
      expect(mcpTextOf(read)).toContain('Hello from the cross-service suite.');
      expect(read).toEqual(await d.client.callTool(ok));
    } finally {
      await Promise.all([b.client.close(), d.end()]);
    }
  });

  it('closes the HTTP session, and its surface, when the client disconnects; the process exits 0', async () => {
    const before = await sessions();
    const b = await bridge('agent:small');
    await b.client.listTools();
    const mine = [...(await sessions())].filter(([id]) => !before.has(id));
    expect(mine).toHaveLength(1);
    const [sessionId, surfaceId] = mine[0];
    expect((await unaryCall<{ surface?: { surfaceId: string } }>(ops.surface, 'getSurface', { surfaceId })).surface?.surfaceId).toBe(
      surfaceId,
    );
    const pid = b.transport.pid!;
    const started = Date.now();
    await b.client.close(); // ends the bridge's stdin; SIGTERM only after 2 s
    expect(Date.now() - started).toBeLessThan(2000);
    expect(() => process.kill(pid, 0)).toThrow();
    expect((await sessions()).has(sessionId)).toBe(false);
    expect((await callError(unaryCall(ops.surface, 'getSurface', { surfaceId }))).reason).toBe('SURFACE_NOT_FOUND');
    expect(b.stderr()).toContain('session closed');
  });

  it('writes nothing but JSON-RPC to stdout, and exits 0 when stdin ends', async () => {
    const rpc = spawnBridge(['--principal', 'agent:small', '--url', g.stack.addresses.mcp], KEY);
    const init = await rpc.initialize();
    expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe('toolsurface');
    const list = await rpc.request('tools/list');
    expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(2);
    const unknown = await rpc.request('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(JSON.stringify(unknown.result)).toContain('TOOL_NOT_FOUND');
    rpc.child.stdin!.end();
    expect(await rpc.exited).toBe(0);
    expect(rpc.lines.length).toBe(3);
    for (const line of rpc.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});

// Each case starts a bridge process (tsx); on a loaded machine a start alone can take 10 s or more.
describe('toolsurface mcp: failures reaching the endpoint', { timeout: 120_000 }, () => {
  it('a wrong key, no key, or another principal’s key: a clear message on stderr, exit 1, nothing on stdout', async () => {
    const keys = ['not-a-key', undefined, OTHER_KEY];
    const runs = keys.map((key) => spawnBridge(['--principal', 'agent:small', '--url', g.stack.addresses.mcp], key));
    for (const [i, rpc] of runs.entries()) {
      expect(await rpc.exited, rpc.stderr).toBe(1);
      expect(rpc.stderr).toMatch(
        keys[i] ? /refused the API key \(401: .*agent:small.*\); check --key or TOOLSURFACE_MCP_KEY/ : /wants an API key/,
      );
      expect(rpc.lines).toEqual([]);
    }
    // The SDK's client sees the server go away.
    await expect(bridge('agent:small', 'not-a-key')).rejects.toThrow();
  });

  it('an endpoint that is not running: a clear message on stderr, exit 1', async () => {
    const port = await findFreePort();
    const rpc = spawnBridge(['--principal', 'agent:small', '--url', `http://127.0.0.1:${port}`], KEY);
    expect(await rpc.exited).toBe(1);
    expect(rpc.stderr).toMatch(
      /cannot reach the MCP endpoint at http:\/\/127\.0\.0\.1:\d+\/mcp\/agent\/small \(ECONNREFUSED\): .*npm start/,
    );
    expect(rpc.lines).toEqual([]);
  });
});

describe('a second client: supergateway (npm) in streamableHttp→stdio mode', () => {
  it('lists and calls tools through the endpoint, driven with JSON-RPC lines', async () => {
    const rpc = new LineRpc(
      spawn(
        process.execPath,
        [
          supergateway,
          '--streamableHttp',
          `${g.stack.addresses.mcp}/mcp/agent/fsdirect`,
          '--oauth2Bearer',
          KEY,
          '--protocolVersion',
          '2025-06-18',
          '--logLevel',
          'none',
        ],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      ),
    );
    try {
      const init = await rpc.initialize();
      expect(init.error, JSON.stringify(init)).toBeUndefined();
      const list = await rpc.request('tools/list');
      const names = (list.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(names).toContain('read_text_file');
      const read = await rpc.request('tools/call', { name: 'read_text_file', arguments: { path: join(sample, 'hello.txt') } });
      expect((read.result as CallToolResult).isError).toBe(false);
      expect(mcpTextOf(read.result as CallToolResult)).toContain('Hello from the cross-service suite.');
      const refused = await rpc.request('tools/call', { name: 'read_text_file', arguments: { path: join(sample, 'secret.txt') } });
      expect((refused.result as CallToolResult).isError).toBe(true);
      expect(mcpTextOf(refused.result as CallToolResult)).toMatch(/^PERMISSION_DENIED: /);
    } finally {
      rpc.child.kill('SIGTERM');
      await rpc.exited;
    }
  });
});
