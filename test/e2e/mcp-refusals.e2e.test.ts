import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MODEL_FACING_REASONS, SYSTEM_TOOLS } from '@toolsurface/core';
import { PresentationMode } from '@toolsurface/proto';
import { Clients, type GatewayFixture, mcpTextOf, principalOf, startMcpGateway, unaryCall } from '../support';

// What a model sees through MCP, over Streamable HTTP and over the stdio bridge (`toolsurface
// mcp`), with the SDK's Client against the whole gateway and real MCP servers: every refusal it can
// get, as an isError result whose text is `<REASON>: <sentence>` and whose _meta names the reason;
// unified_tool's decision in structuredContent; and an ApplyConfig that changes a principal's
// mode telling its open sessions (notifications/tools/list_changed), even when no dispatch ran
// at the time of the change.
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures');
const sample = join(fixtures, 'sample');
const bin = join(root, 'apps', 'cli', 'bin', 'toolsurface.js');
const KEY = 'mcp-key-agents-0123456789';
const systemNames = SYSTEM_TOOLS.map((t) => t.name);
let g: GatewayFixture;
let ops: Clients;

beforeAll(async () => {
  g = await startMcpGateway(join(fixtures, 'mcp-refusals.yaml'), ['everything', 'canary', 'filesystem', 'memory', 'slow', 'crashy']);
  ops = new Clients(g.stack.addresses, 'ops-token-0123456789');
}, 180_000);
afterAll(async () => {
  ops?.close();
  await g?.stop();
}, 60_000);

interface Connected {
  client: Client;
  end(): Promise<void>;
}

type Transport = 'Streamable HTTP' | 'stdio bridge';

/** The SDK's Client over `via`; over HTTP `streamOpened` runs once its GET stream is open. */
async function connect(via: Transport, principal: string, streamOpened?: () => void): Promise<Connected> {
  const client = new Client({ name: 'refusals-e2e', version: '0.0.0' });
  if (via === 'Streamable HTTP') {
    const watching: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if ((init?.method ?? 'GET') === 'GET' && res.ok) streamOpened?.();
      return res;
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${g.stack.addresses.mcp}/mcp/${principal.replace(':', '/')}`), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
      fetch: watching,
    });
    await client.connect(transport);
    return {
      client,
      async end() {
        await transport.terminateSession();
        await client.close();
      },
    };
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--principal', principal, '--url', g.stack.addresses.mcp],
    env: { ...env, TOOLSURFACE_MCP_KEY: KEY },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, end: () => client.close() };
}

/**
 * One refusal: the principal whose surface the call goes through, the call, and what the sentence
 * must tell the model (what to do next). `calls` > 1 repeats the call; the last one is refused.
 */
interface RefusalCase {
  reason: string;
  principal: string;
  tool: string;
  args: Record<string, unknown>;
  says: RegExp;
  calls?: number;
  /**
   * The tool's own error content is what the model reads (the reason in _meta only): the server's
   * words say more than a sentence of ours would (domain/mcp.ts toCallToolResult).
   */
  toolsOwnText?: boolean;
}

const CASES: RefusalCase[] = [
  { reason: 'TOOL_NOT_FOUND', principal: 'agent:direct', tool: 'no_such_tool', args: {}, says: /no_such_tool/ },
  {
    reason: 'TOOL_NOT_IN_SNAPSHOT',
    principal: 'agent:disc',
    tool: 'execute_tool',
    args: { name: 'read_text_file', arguments: {} },
    says: /read_text_file/,
  },
  { reason: 'TOOL_NOT_DIRECTLY_CALLABLE', principal: 'agent:disc', tool: 'echo', args: { message: 'hi' }, says: /execute_tool/ },
  { reason: 'INVALID_ARGUMENTS', principal: 'agent:direct', tool: 'echo', args: { message: 42 }, says: /message/ },
  {
    reason: 'PERMISSION_DENIED',
    principal: 'agent:direct',
    tool: 'write_note',
    args: { text: 'my password is hunter2' },
    says: /no-password-note|denied|refused/i,
  },
  { reason: 'RATE_LIMITED', principal: 'agent:direct', tool: 'ping', args: {}, says: /\d/, calls: 3 },
  { reason: 'ARGUMENTS_TOO_LARGE', principal: 'agent:direct', tool: 'write_note', args: { text: 'n'.repeat(300) }, says: /256/ },
  { reason: 'RESULT_TOO_LARGE', principal: 'agent:direct', tool: 'dump', args: { bytes: 5000 }, says: /1024/ },
  {
    reason: 'TOOL_ERROR',
    principal: 'agent:direct',
    tool: 'read_text_file',
    args: { path: join(sample, 'no-such-file.txt') },
    says: /ENOENT|no such file/i,
    toolsOwnText: true,
  },
  {
    reason: 'TOOL_TIMEOUT',
    principal: 'agent:slow',
    tool: 'trigger-long-running-operation',
    args: { duration: 10, steps: 2 },
    says: /trigger-long-running-operation|1000|time/i,
  },
  {
    reason: 'CAPABILITY_UNAVAILABLE',
    principal: 'agent:crashy',
    tool: 'crash',
    args: {},
    says: /crashy|unavailable|connect/i,
  },
  {
    reason: 'LOW_CONFIDENCE',
    principal: 'gateway:uni',
    tool: 'unified_tool',
    args: { request: 'book me a table for two at an Italian restaurant tonight' },
    says: /./,
  },
  {
    reason: 'MISSING_ARGUMENTS',
    principal: 'gateway:uni',
    tool: 'unified_tool',
    args: { request: 'create entities in the knowledge graph', preferred_tools: ['create_entities'] },
    says: /entities/,
  },
];

/**
 * SURFACE_EXPIRED and SURFACE_NOT_FOUND are no refusals of the call path (over gRPC they are caller
 * errors); the MCP endpoint turns them into such a result itself: SURFACE_NOT_FOUND is tested in
 * mcp.e2e.test.ts, SURFACE_EXPIRED in mcp-session-end.e2e.test.ts.
 */
it('the cases cover every model-facing reason', () => {
  expect(new Set(CASES.map((c) => c.reason))).toEqual(new Set(MODEL_FACING_REASONS));
});

describe.each<Transport>(['Streamable HTTP', 'stdio bridge'])('over %s', (via) => {
  const open = new Map<string, Connected>();
  const session = async (principal: string): Promise<Connected> => {
    let c = open.get(principal);
    if (!c) {
      c = await connect(via, principal);
      open.set(principal, c);
    }
    return c;
  };
  afterAll(async () => {
    for (const c of open.values()) await c.end();
  }, 30_000);

  it.each(CASES)(
    '$reason: an isError result with the reason, the sentence and _meta',
    async ({ reason, principal, tool, args, says, calls, toolsOwnText }) => {
      const c = await session(principal);
      let r!: CallToolResult;
      for (let i = 1; i <= (calls ?? 1); i++) {
        r = (await c.client.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (i < (calls ?? 1) && r.isError && reason === 'RATE_LIMITED') break; // the other transport's calls used the budget
      }
      expect(r.isError, mcpTextOf(r)).toBe(true);
      if (!toolsOwnText) expect(mcpTextOf(r)).toMatch(new RegExp(`^${reason}: \\S.{9,}`));
      expect(mcpTextOf(r)).toMatch(says);
      expect(r._meta?.['io.toolsurface/reason']).toBe(reason);
    },
    60_000,
  );

  it('unified mode lists unified_tool then the system tools; a call that runs carries its decision in structuredContent', async () => {
    const c = await session('gateway:uni');
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['unified_tool', ...systemNames]);
    const r = (await c.client.callTool({
      name: 'unified_tool',
      arguments: { request: 'What is the sum of a=17 and b=25?' },
    })) as CallToolResult;
    expect(r.isError, mcpTextOf(r)).toBe(false);
    expect(mcpTextOf(r)).toContain('42');
    const unified = (r.structuredContent as { unified: Record<string, unknown> }).unified;
    expect(unified).toMatchObject({ tool: 'get-sum', arguments: { a: 17, b: 25 }, executed: true });
    expect(unified.confidence).toBeGreaterThanOrEqual(0.7);
    const candidates = unified.candidates as Array<{ name: string; confidence: number }>;
    expect(candidates[0]).toMatchObject({ name: 'get-sum' });
    expect(candidates.every((x) => typeof x.confidence === 'number')).toBe(true);
  }, 60_000);

  it('LOW_CONFIDENCE carries the candidates in structuredContent too, and runs nothing', async () => {
    const c = await session('gateway:uni');
    const r = (await c.client.callTool({
      name: 'unified_tool',
      arguments: { request: 'book me a table for two at an Italian restaurant tonight' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    const unified = (r.structuredContent as { unified: { executed: boolean; candidates: unknown[] } }).unified;
    expect(unified.executed).toBe(false);
    expect(unified.candidates.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('ApplyConfig tells the sessions of the principals it changes', () => {
  it('a mode changed by ApplyConfig alone sends notifications/tools/list_changed; the next list shows the new mode', async () => {
    let opened!: () => void;
    const streamOpen = new Promise<void>((r) => (opened = r));
    const c = await connect('Streamable HTTP', 'agent:applied', () => opened());
    let notices = 0;
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notices++;
    });
    const original = readFileSync(g.stack.configPath, 'utf8');
    // The stack's copy of the config, as surface-resolver loaded it.
    const applied = /(id: applied, mode: )direct/;
    expect(original).toMatch(applied);
    const discovery = original.replace(applied, '$1discovery');
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('echo');
      await streamOpen;
      await unaryCall(ops.presentation, 'applyConfig', { configYaml: discovery });
      const deadline = Date.now() + 20_000;
      while (notices === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(notices).toBe(1);
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual([
        'discover_tools',
        'get_tool_schema',
        'execute_tool',
        ...systemNames,
      ]);
      // An apply that changes nothing of this principal tells it nothing.
      await unaryCall(ops.presentation, 'applyConfig', {
        configYaml: `${discovery}\n# the same principals\n`,
      });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(notices).toBe(1);
    } finally {
      await unaryCall(ops.presentation, 'applyConfig', { configYaml: original });
      await c.end();
    }
  }, 60_000);
});

describe('a change made while no dispatch replica runs', () => {
  it('reaches the session once dispatch is back: its next tools/list opens a surface in the new mode', async () => {
    const c = await connect('Streamable HTTP', 'agent:offline');
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('echo');
      const pid = g.stack.processes.find((p) => p.name === 'dispatch')!.pid;
      const gone = () => {
        try {
          process.kill(pid, 0); // signal 0: only asks whether the process still exists
          return false;
        } catch {
          return true;
        }
      };
      const restarted = g.stack.restart('dispatch');
      const deadline = Date.now() + 30_000;
      while (!gone() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(gone()).toBe(true);
      // The event is stored in the stream; no replica hears it now.
      await unaryCall(ops.presentation, 'setPresentation', {
        principal: principalOf('agent:offline'),
        mode: PresentationMode.PRESENTATION_MODE_DISCOVERY,
        autonomy: 0,
      });
      await restarted;
      const discovery = ['discover_tools', 'get_tool_schema', 'execute_tool', ...systemNames];
      let names: string[] = [];
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
        names = (await c.client.listTools()).tools.map((t) => t.name);
        if (names[0] === 'discover_tools') break;
      }
      expect(names).toEqual(discovery);
    } finally {
      await c.end();
    }
  }, 120_000);
});
