import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SYSTEM_TOOLS } from '@toolsurface/core';
import { PresentationMode, ToolCalled } from '@toolsurface/proto';
import { Kvm } from '@nats-io/kv';
import { callError, Clients, type GatewayFixture, mcpTextOf, principalOf, startMcpGateway, unaryCall } from '../support';

// The MCP endpoint (dispatch's second front) against the whole gateway: MCP clients built on the
// official SDK connect to a principal's URL and see that principal's surface.
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const sample = join(fixtures, 'sample');
const KEY = 'mcp-key-agents-0123456789';
const OTHER_KEY = 'mcp-key-other-0123456789';
const systemNames = SYSTEM_TOOLS.map((t) => t.name);
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

const urlOf = (principal: string, base = g.stack.addresses.mcp) => new URL(`${base}/mcp/${principal.replace(':', '/')}`);

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

async function connect(principal: string, opts: { key?: string; fetch?: FetchLike } = {}): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(urlOf(principal), {
    requestInit: { headers: { Authorization: `Bearer ${opts.key ?? KEY}` } },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const client = new Client({ name: 'toolsurface-e2e', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function end(c: Connected): Promise<void> {
  await c.transport.terminateSession();
  await c.client.close();
}

async function call(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await c.client.callTool({ name, arguments: args })) as CallToolResult;
}

function expectRefusal(r: CallToolResult, reason: string): void {
  expect(r.isError, mcpTextOf(r)).toBe(true);
  expect(mcpTextOf(r)).toMatch(new RegExp(`^${reason}: .{10,}`));
  expect(r._meta?.['io.toolsurface/reason']).toBe(reason);
}

/** A raw POST of an initialize request to a principal's URL. */
function initialize(principal: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  return fetch(urlOf(principal), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body:
      body ??
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
  });
}

describe('MCP endpoint: tools/list is the principal’s surface', () => {
  it('direct: every bound tool as itself, then the system tools, in the surface’s order', async () => {
    const c = await connect('agent:small');
    try {
      expect(c.client.getServerVersion()?.name).toBe('toolsurface');
      const { tools } = await c.client.listTools();
      const surface = await ops.open('agent:small');
      expect(tools.map((t) => t.name)).toEqual(surface.tools.map((t) => t.name));
      expect(tools.length).toBe(9 + systemNames.length);
      expect(tools.slice(-systemNames.length).map((t) => t.name)).toEqual(systemNames);
      const create = tools.find((t) => t.name === 'create_entities')!;
      expect((create.inputSchema.properties as Record<string, { type: string }>).entities.type).toBe('array');
      // The same list again: stable.
      expect((await c.client.listTools()).tools).toEqual(tools);
    } finally {
      await end(c);
    }
  });

  it('discovery: the three meta-tools, then the system tools', async () => {
    const c = await connect('agent:big');
    try {
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['discover_tools', 'get_tool_schema', 'execute_tool', ...systemNames]);
    } finally {
      await end(c);
    }
  });

  it('adaptive: direct at 29 bound tools, discovery at 30', async () => {
    const [c29, c30] = await Promise.all([connect('agent:edge29'), connect('agent:edge30')]);
    try {
      const t29 = (await c29.client.listTools()).tools.map((t) => t.name);
      const t30 = (await c30.client.listTools()).tools.map((t) => t.name);
      expect(t29.length).toBe(29 + systemNames.length);
      expect(t29).not.toContain('execute_tool');
      expect(t30).toEqual(['discover_tools', 'get_tool_schema', 'execute_tool', ...systemNames]);
    } finally {
      await Promise.all([end(c29), end(c30)]);
    }
  });
});

describe('MCP endpoint: tools/call enters dispatch’s call path', () => {
  it('runs a bound tool by its name, audited as the MCP key', async () => {
    const c = await connect('agent:small');
    try {
      const entity = `mcp-e2e-${Date.now()}`;
      const made = await call(c, 'create_entities', { entities: [{ name: entity, entityType: 'test', observations: ['over MCP'] }] });
      expect(made.isError, mcpTextOf(made)).toBe(false);
      const graph = await call(c, 'read_graph');
      expect(graph.isError).toBe(false);
      expect(JSON.stringify(graph)).toContain(entity);
      const deadline = Date.now() + 5000;
      let audited: ToolCalled | undefined;
      while (!audited && Date.now() < deadline) {
        audited = g.events
          .filter((e) => e.subject === 'toolsurface.tool.called.v1')
          .map((e) => ToolCalled.decode(e.data))
          .find((e) => e.calledName === 'create_entities' && e.orchestrator === 'mcp:agents');
        if (!audited) await new Promise((r) => setTimeout(r, 50));
      }
      expect(audited?.outcome).toBe('ok');
      expect(audited?.via).toBe('direct');
    } finally {
      await end(c);
    }
  });

  it('runs a tool through execute_tool in discovery mode', async () => {
    const c = await connect('agent:big');
    try {
      const found = await call(c, 'discover_tools', { query: 'read a text file' });
      expect(found.isError).toBe(false);
      expect(JSON.stringify(found.structuredContent)).toContain('read_text_file');
      const r = await call(c, 'execute_tool', { name: 'read_text_file', arguments: { path: join(sample, 'hello.txt') } });
      expect(r.isError, mcpTextOf(r)).toBe(false);
      expect(mcpTextOf(r)).toContain('Hello from the cross-service suite.');
    } finally {
      await end(c);
    }
  });

  it('gives refusals to the model as isError results with the reason and the sentence', async () => {
    const [disc, direct] = await Promise.all([connect('agent:big'), connect('agent:fsdirect')]);
    try {
      expectRefusal(await call(disc, 'read_text_file', { path: join(sample, 'hello.txt') }), 'TOOL_NOT_DIRECTLY_CALLABLE');
      expectRefusal(await call(direct, 'read_text_file', { path: join(sample, 'secret.txt') }), 'PERMISSION_DENIED');
      expectRefusal(
        await call(disc, 'execute_tool', { name: 'read_text_file', arguments: { path: join(sample, 'secret.txt') } }),
        'PERMISSION_DENIED',
      );
      expectRefusal(await call(direct, 'no_such_tool'), 'TOOL_NOT_FOUND');
    } finally {
      await Promise.all([end(disc), end(direct)]);
    }
  });
});

describe('MCP endpoint: authentication and requests', () => {
  it('answers 401 with WWW-Authenticate without a key, with a wrong key, and with another principal’s key', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer not-a-key' },
      { Authorization: `Bearer ${OTHER_KEY}` },
      { Authorization: KEY },
    ];
    for (const headers of variants) {
      const res = await initialize('agent:small', headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    await expect(connect('agent:small', { key: OTHER_KEY })).rejects.toThrow();
    // The other key opens its own principal.
    const other = await connect('gateway:other', { key: OTHER_KEY });
    expect((await other.client.listTools()).tools.length).toBe(9 + systemNames.length);
    await end(other);
  });

  it('refuses unknown principal kinds, malformed requests, unknown sessions, a GET without a session, PUT and a foreign Host', async () => {
    const auth = { Authorization: `Bearer ${KEY}` };
    expect((await fetch(`${g.stack.addresses.mcp}/mcp/robot/x`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(404);
    expect((await initialize('agent:small', auth, '{not json')).status).toBe(400);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const post = (headers: Record<string, string>) =>
      fetch(urlOf('agent:small'), {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: list,
      });
    expect((await post({})).status).toBe(400);
    expect((await post({ 'Mcp-Session-Id': 'mcp_00000000000000000000000000000000' })).status).toBe(404);
    const get = (headers: Record<string, string>) => fetch(urlOf('agent:small'), { headers: { ...auth, ...headers } });
    expect((await get({ Accept: 'text/event-stream' })).status).toBe(400);
    expect((await get({ Accept: 'text/event-stream', 'Mcp-Session-Id': 'mcp_00000000000000000000000000000000' })).status).toBe(404);
    expect((await get({ Accept: 'application/json' })).status).toBe(406);
    const put = await fetch(urlOf('agent:small'), { method: 'PUT', headers: auth, body: list });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    // DNS rebinding: a page of another site whose name resolves to 127.0.0.1.
    const status = await new Promise<number>((resolve, reject) => {
      const u = urlOf('agent:small');
      const req = httpRequest(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...auth, Host: `evil.example:${u.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(list);
    });
    expect(status).toBe(403);
  });
});

describe('MCP endpoint: sessions live in NATS', () => {
  it('DELETE ends the session and closes its surface', async () => {
    const c = await connect('agent:small');
    const sessionId = c.transport.sessionId!;
    expect(sessionId).toMatch(/^mcp_[0-9a-f]{32}$/);
    await c.client.listTools();
    const surfaceId = await sessionSurface(sessionId);
    expect((await unaryCall<{ surface?: { surfaceId: string } }>(ops.surface, 'getSurface', { surfaceId })).surface?.surfaceId).toBe(
      surfaceId,
    );
    await end(c);
    const closed = await callError(unaryCall(ops.surface, 'getSurface', { surfaceId }));
    expect(closed.reason).toBe('SURFACE_NOT_FOUND');
    expect(closed.details).toMatch(/does not exist or was closed/);
    const res = await fetch(urlOf('agent:small'), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${KEY}`,
        'Mcp-Session-Id': sessionId,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });

  it('serves one session from two dispatch replicas alternately, as a load balancer would', async () => {
    const replica = await g.stack.addDispatchReplica();
    const bases = [g.stack.addresses.mcp, replica.mcp];
    const served = [0, 0];
    let next = 0;
    const balanced: FetchLike = async (url, init) => {
      const i = next++ % 2;
      const u = new URL(url);
      u.host = new URL(bases[i]).host;
      const res = await fetch(u, init);
      if (res.ok) served[i]++;
      return res;
    };
    try {
      const c = await connect('agent:small', { fetch: balanced });
      const names: string[][] = [];
      for (let i = 0; i < 4; i++) names.push((await c.client.listTools()).tools.map((t) => t.name));
      expect(new Set(names.map((n) => n.join()))).toHaveProperty('size', 1);
      for (let i = 0; i < 4; i++) expect((await call(c, 'read_graph')).isError).toBe(false);
      await end(c);
      expect(served[0]).toBeGreaterThanOrEqual(4);
      expect(served[1]).toBeGreaterThanOrEqual(4);
    } finally {
      await replica.stop();
    }
  }, 90_000);

  it('keeps a session across a restart of dispatch', async () => {
    const c = await connect('agent:big');
    try {
      const before = (await c.client.listTools()).tools.map((t) => t.name);
      await g.stack.restart('dispatch');
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(before);
      const r = await call(c, 'execute_tool', { name: 'read_text_file', arguments: { path: join(sample, 'hello.txt') } });
      expect(r.isError, mcpTextOf(r)).toBe(false);
    } finally {
      await end(c);
    }
  }, 90_000);
});

describe('MCP endpoint: notifications/tools/list_changed', () => {
  const memoryNames = ['create_entities', 'read_graph', 'search_nodes'];
  const discoveryNames = ['discover_tools', 'get_tool_schema', 'execute_tool', ...systemNames];

  /** Connects, counts list_changed notifications, and resolves once the client's GET stream is open. */
  async function listening(principal: string, base?: FetchLike): Promise<Connected & { notices: () => number }> {
    let opened!: () => void;
    const streamOpen = new Promise<void>((r) => (opened = r));
    const watching: FetchLike = async (url, init) => {
      const res = await (base ?? fetch)(url, init);
      if ((init?.method ?? 'GET') === 'GET' && res.ok) opened();
      return res;
    };
    const c = await connect(principal, { fetch: watching });
    let notices = 0;
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notices++;
    });
    await streamOpen;
    return { ...c, notices: () => notices };
  }

  async function until(what: string, ok: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const setMode = (principal: string, mode: PresentationMode) =>
    unaryCall(ops.presentation, 'setPresentation', { principal: principalOf(principal), mode, autonomy: 0 });
  const setBindings = (principal: string, capabilities: string[]) =>
    unaryCall(ops.presentation, 'setBindings', { principal: principalOf(principal), capabilities });
  const names = async (c: Connected) => (await c.client.listTools()).tools.map((t) => t.name);

  it('announces tools.listChanged', async () => {
    const c = await connect('agent:notify');
    try {
      expect(c.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    } finally {
      await end(c);
    }
  });

  it('a mode change notifies the session; calls keep the old snapshot until the next tools/list opens a new one', async () => {
    const c = await listening('agent:notify');
    try {
      expect(await names(c)).toEqual(expect.arrayContaining(memoryNames));
      const before = await sessionSurface(c.transport.sessionId!);
      await setMode('agent:notify', PresentationMode.PRESENTATION_MODE_DISCOVERY);
      await until('the notification', () => c.notices() === 1);
      // Not listed again yet: a direct call by name is checked against the old (direct) snapshot.
      const direct = await call(c, 'read_graph');
      expect(direct.isError, mcpTextOf(direct)).toBe(false);
      expect(await sessionSurface(c.transport.sessionId!)).toBe(before);
      // The next list opens a new surface, in the new mode.
      expect(await names(c)).toEqual(discoveryNames);
      expect(await sessionSurface(c.transport.sessionId!)).not.toBe(before);
      expectRefusal(await call(c, 'read_graph'), 'TOOL_NOT_DIRECTLY_CALLABLE');
      // Listing again without a change keeps the surface.
      const now = await sessionSurface(c.transport.sessionId!);
      expect(await names(c)).toEqual(discoveryNames);
      expect(await sessionSurface(c.transport.sessionId!)).toBe(now);
      // And back: notified again, direct again.
      await setMode('agent:notify', PresentationMode.PRESENTATION_MODE_ADAPTIVE);
      await until('the second notification', () => c.notices() === 2);
      expect(await names(c)).toEqual(expect.arrayContaining(memoryNames));
    } finally {
      await setMode('agent:notify', PresentationMode.PRESENTATION_MODE_ADAPTIVE);
      await end(c);
    }
  }, 60_000);

  it('a binding change notifies the session; a tool unbound since its surface opened still runs until the next list', async () => {
    const [c, bystander] = await Promise.all([listening('agent:notify'), listening('agent:small')]);
    try {
      await names(c);
      await setBindings('agent:notify', ['filesystem']);
      await until('the notification', () => c.notices() === 1);
      const r = await call(c, 'read_graph');
      expect(r.isError, mcpTextOf(r)).toBe(false);
      const after = await names(c);
      expect(after).not.toContain('read_graph');
      expect(after).toContain('read_text_file');
      expectRefusal(await call(c, 'read_graph'), 'TOOL_NOT_FOUND');
      // Another principal's session heard nothing.
      expect(bystander.notices()).toBe(0);
    } finally {
      await setBindings('agent:notify', ['memory']);
      await Promise.all([end(c), end(bystander)]);
    }
  }, 60_000);

  it('reopens a surface closed under a live session at the next list, with the same notification', async () => {
    const c = await listening('agent:notify');
    try {
      await names(c);
      const surfaceId = await sessionSurface(c.transport.sessionId!);
      await unaryCall(ops.surface, 'closeSurface', { surfaceId });
      const r = await call(c, 'read_graph');
      expectRefusal(r, 'SURFACE_NOT_FOUND');
      expect(mcpTextOf(r)).toMatch(/list the tools again/);
      expect(await names(c)).toEqual(expect.arrayContaining(memoryNames));
      expect(await sessionSurface(c.transport.sessionId!)).not.toBe(surfaceId);
      await until('the notification', () => c.notices() === 1);
      expect((await call(c, 'read_graph')).isError).toBe(false);
    } finally {
      await end(c);
    }
  }, 60_000);

  it('reaches a GET stream on one replica when the change is handled by the other', async () => {
    const replica = await g.stack.addDispatchReplica();
    // The GET stream on the first replica, every POST on the second.
    const split: FetchLike = async (url, init) => {
      const u = new URL(url);
      u.host = new URL((init?.method ?? 'GET') === 'GET' ? g.stack.addresses.mcp : replica.mcp).host;
      return fetch(u, init);
    };
    const c = await listening('agent:notify2', split);
    // One replica (of those sharing the durable consumer) handles each change: change the mode until the second one has.
    const replicaLog = readdirSync(g.stack.logDir)
      .filter((f) => /^dispatch-\d+\.log$/.test(f))
      .map((f) => join(g.stack.logDir, f))
      .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0];
    const handledBySecond = () => readFileSync(replicaLog, 'utf8').split('MCP sessions told their tools changed').length - 1;
    try {
      expect(await names(c)).toEqual(expect.arrayContaining(memoryNames));
      for (let i = 1; i <= 12 && handledBySecond() === 0; i++) {
        const discovery = i % 2 === 1;
        await setMode(
          'agent:notify2',
          discovery ? PresentationMode.PRESENTATION_MODE_DISCOVERY : PresentationMode.PRESENTATION_MODE_ADAPTIVE,
        );
        await until(`notification ${i}`, () => c.notices() === i);
        if (discovery) expect(await names(c)).toEqual(discoveryNames);
        else expect(await names(c)).toEqual(expect.arrayContaining(memoryNames));
        await new Promise((r) => setTimeout(r, 100)); // the log line is written after the marks
      }
      expect(handledBySecond()).toBeGreaterThan(0);
      // A mark written by any other writer (here: this suite, as a replica would) reaches the stream too.
      const kv = await new Kvm(g.nc).open('toolsurface_mcp_sessions');
      const e = (await kv.get(c.transport.sessionId!))!;
      const rec = JSON.parse(e.string()) as { changes?: number };
      const before = c.notices();
      await kv.update(e.key, JSON.stringify({ ...rec, changes: (rec.changes ?? 0) + 1 }), e.revision);
      await until('the last notification', () => c.notices() === before + 1);
    } finally {
      await setMode('agent:notify2', PresentationMode.PRESENTATION_MODE_ADAPTIVE);
      await end(c);
      await replica.stop();
    }
  }, 90_000);
});

/** The surface of a session, read from the sessions bucket. */
async function sessionSurface(sessionId: string): Promise<string> {
  const kv = await new Kvm(g.nc).open('toolsurface_mcp_sessions');
  const e = await kv.get(sessionId);
  return (JSON.parse(e!.string()) as { surfaceId: string }).surfaceId;
}
