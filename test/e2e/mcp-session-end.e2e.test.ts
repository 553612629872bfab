import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Kvm } from '@nats-io/kv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callError, Clients, MCP_FRONT_TOKEN, startGateway, unaryCall, type GatewayFixture } from '../support';

// The end of an MCP session without a DELETE: idle for MCP_SESSION_IDLE_SECONDS, or its GET stream
// closed by the client and not opened again within MCP_STREAM_GRACE_SECONDS. Either way its
// surface is closed, once, by whichever of two dispatch replicas ends it. Real timeouts, made short;
// surfaces live SURFACE_TTL_S, longer than any other test here takes, so one can expire under a session.
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const KEY = 'mcp-key-agents-0123456789';
// The replica holding a GET stream rewrites the record every IDLE_S/4 s; 10 s leaves room for a
// loaded machine to stall that rewrite for over 7 s without the session looking idle.
const IDLE_S = 10;
const GRACE_S = 3;
const SURFACE_TTL_S = 50;
let g: GatewayFixture;
let ops: Clients;
let replica: { dispatch: string; mcp: string; stop(): Promise<void> };

beforeAll(async () => {
  g = await startGateway(join(fixtures, 'mcp.yaml'), ['memory'], {
    serviceEnv: {
      dispatch: {
        MCP_ORCHESTRATOR_TOKEN: MCP_FRONT_TOKEN,
        MCP_SESSION_IDLE_SECONDS: String(IDLE_S),
        MCP_STREAM_GRACE_SECONDS: String(GRACE_S),
      },
      'surface-resolver': { SURFACE_TTL_SECONDS: String(SURFACE_TTL_S) },
    },
  });
  ops = new Clients(g.stack.addresses, 'ops-token-0123456789');
  replica = await g.stack.addDispatchReplica();
}, 180_000);
afterAll(async () => {
  ops?.close();
  await replica?.stop();
  await g?.stop();
}, 60_000);

const urlOf = (principal: string, base = g.stack.addresses.mcp) => new URL(`${base}/mcp/${principal.replace(':', '/')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const headers = (sessionId?: string) => ({
  Authorization: `Bearer ${KEY}`,
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  ...(sessionId ? { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' } : {}),
});

/** A session opened with plain POSTs (no GET stream), as curl or a client without notifications would. */
async function rawSession(principal: string): Promise<string> {
  const res = await fetch(urlOf(principal), {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

/** tools/list of a session on one replica (`base`): its HTTP status. */
async function list(sessionId: string, base?: string): Promise<number> {
  const res = await fetch(urlOf('agent:small', base), {
    method: 'POST',
    headers: headers(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await res.text();
  return res.status;
}

async function surfaceOf(sessionId: string): Promise<string> {
  const e = await (await new Kvm(g.nc).open('toolsurface_mcp_sessions')).get(sessionId);
  return (JSON.parse(e!.string()) as { surfaceId: string }).surfaceId;
}

/** Whether surface-resolver still has the surface open (false once closed: SURFACE_NOT_FOUND). */
async function surfaceOpen(surfaceId: string): Promise<boolean> {
  const get = unaryCall(ops.surface, 'getSurface', { surfaceId });
  const open = await get.then(
    () => true,
    () => false,
  );
  if (!open) expect((await callError(get)).reason).toBe('SURFACE_NOT_FOUND');
  return open;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** How many times the dispatch replicas logged the end of this session (each log line is JSON). */
function endsLogged(sessionId: string): { why: string }[] {
  return readdirSync(g.stack.logDir)
    .filter((f) => /^dispatch(-\d+)?\.log$/.test(f))
    .flatMap((f) => readFileSync(join(g.stack.logDir, f), 'utf8').split('\n'))
    .filter((l) => l.includes('MCP session ended') && l.includes(sessionId))
    .map((l) => JSON.parse(l) as { why: string });
}

/** An SDK client; resolves once its GET stream is open. `fetch` may route each request. */
async function sdkClient(route?: FetchLike): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  let opened!: () => void;
  const streamOpen = new Promise<void>((r) => (opened = r));
  const watching: FetchLike = async (url, init) => {
    const res = await (route ?? fetch)(url, init);
    if ((init?.method ?? 'GET') === 'GET' && res.ok) opened();
    return res;
  };
  const transport = new StreamableHTTPClientTransport(urlOf('agent:small'), {
    requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    fetch: watching,
  });
  const client = new Client({ name: 'session-end-e2e', version: '0.0.0' });
  await client.connect(transport);
  await streamOpen;
  return { client, transport };
}

describe('MCP sessions end when idle', () => {
  it('closes the surface of a session idle for the timeout, once across two replicas, and forgets the session', async () => {
    const id = await rawSession('agent:small');
    expect(await list(id)).toBe(200);
    const surfaceId = await surfaceOf(id);
    expect(await surfaceOpen(surfaceId)).toBe(true);
    await until('the idle session to end', async () => !(await surfaceOpen(surfaceId)));
    expect(await list(id)).toBe(404);
    expect(await list(id, replica.mcp)).toBe(404);
    // Both replicas sweep; one deleted the record and closed the surface.
    await sleep(1_500);
    expect(endsLogged(id)).toEqual([expect.objectContaining({ why: 'idle' })]);
  }, 60_000);

  it('keeps a session in use past the idle timeout, served by either replica', async () => {
    const id = await rawSession('agent:small');
    const surfaceId = await surfaceOf(id);
    const until = Date.now() + 2.5 * IDLE_S * 1000;
    for (let i = 0; Date.now() < until; i++) {
      expect(await list(id, i % 2 ? replica.mcp : undefined)).toBe(200);
      await sleep(300);
    }
    expect(await surfaceOpen(surfaceId)).toBe(true);
    expect(endsLogged(id)).toEqual([]);
  }, 60_000);

  it('keeps a session whose GET stream is open past the idle timeout, though it sends no request', async () => {
    const c = await sdkClient();
    const id = c.transport.sessionId!;
    const surfaceId = await surfaceOf(id);
    try {
      await sleep(2.5 * IDLE_S * 1000);
      expect(await surfaceOpen(surfaceId), JSON.stringify(endsLogged(id))).toBe(true);
      expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
    expect(await surfaceOpen(surfaceId)).toBe(false);
  }, 60_000);
});

describe('MCP sessions end when their stream closes', () => {
  it('a client that goes away without DELETE: its stream closes, and after the grace period the surface is closed', async () => {
    const c = await sdkClient();
    const id = c.transport.sessionId!;
    const surfaceId = await surfaceOf(id);
    // The SDK's close() aborts the GET stream and sends no DELETE: a client process that exits does the same.
    await c.client.close();
    await until('the session of the closed stream to end', async () => !(await surfaceOpen(surfaceId)));
    expect(await list(id)).toBe(404);
    await sleep(1_500);
    expect(endsLogged(id)).toEqual([expect.objectContaining({ why: 'stream-closed' })]);
  }, 60_000);

  it('a stream that drops and opens again within the grace period, on the other replica, keeps the session', async () => {
    const id = await rawSession('agent:small');
    const surfaceId = await surfaceOf(id);
    const openStream = async (base?: string) => {
      const abort = new AbortController();
      const res = await fetch(urlOf('agent:small', base), {
        headers: { ...headers(id), Accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      return abort;
    };
    const first = await openStream();
    first.abort();
    // Well within the grace, so a loaded machine cannot push the reopening past it.
    await sleep(300);
    const second = await openStream(replica.mcp);
    try {
      await sleep(2.5 * IDLE_S * 1000);
      // (a failure names the end the replicas logged: idle or stream-closed)
      expect(await surfaceOpen(surfaceId), JSON.stringify(endsLogged(id))).toBe(true);
      expect(await list(id)).toBe(200);
    } finally {
      second.abort();
    }
    await until('the session to end once the second stream closed', async () => !(await surfaceOpen(surfaceId)));
    expect(endsLogged(id)).toHaveLength(1);
  }, 60_000);
});

describe('a client that keeps calling after its stream closed', () => {
  it('keeps its session past the grace period: requests are use, and only the idle timeout applies', async () => {
    const id = await rawSession('agent:small');
    const surfaceId = await surfaceOf(id);
    const abort = new AbortController();
    const res = await fetch(urlOf('agent:small'), { headers: { ...headers(id), Accept: 'text/event-stream' }, signal: abort.signal });
    expect(res.status).toBe(200);
    abort.abort();
    const end = Date.now() + 3 * GRACE_S * 1000;
    for (let i = 0; Date.now() < end; i++) {
      expect(await list(id, i % 2 ? replica.mcp : undefined)).toBe(200);
      await sleep(300);
    }
    expect(await surfaceOpen(surfaceId)).toBe(true);
    expect(endsLogged(id)).toEqual([]);
    // Left alone now, it ends as any idle session does.
    await until('the idle session to end', async () => !(await surfaceOpen(surfaceId)));
  }, 60_000);
});

describe('a surface that expires under a live session', () => {
  it('a call gets SURFACE_EXPIRED as an isError result; the next list opens a new surface and the call runs', async () => {
    const c = await sdkClient();
    const id = c.transport.sessionId!;
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
      const surfaceId = await surfaceOf(id);
      // The GET stream keeps the session past the idle timeout while the surface runs out.
      await until(
        'the surface to expire',
        async () =>
          (await callError(unaryCall(ops.surface, 'getSurface', { surfaceId })).catch(() => undefined))?.reason === 'SURFACE_EXPIRED',
        3 * SURFACE_TTL_S * 1000,
      );
      const r = (await c.client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult;
      expect(r.isError).toBe(true);
      const text = r.content.map((x) => (x as { text?: string }).text ?? '').join('');
      expect(text).toMatch(/^SURFACE_EXPIRED: .*tools\/list/);
      expect(r._meta?.['io.toolsurface/reason']).toBe('SURFACE_EXPIRED');
      expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
      expect(await surfaceOf(id)).not.toBe(surfaceId);
      expect(((await c.client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult).isError).toBe(false);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
  }, 180_000);
});
