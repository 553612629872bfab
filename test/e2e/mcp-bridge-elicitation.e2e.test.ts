import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kvm } from '@nats-io/kv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { type GatewayFixture, mcpTextOf, startMcpGateway, toolCalledSince } from '../support';

// Supervised elicitation over the stdio bridge (issue 37, part 6): a desktop assistant that
// launches `toolsurface mcp` and declared form elicitation is asked by the supervised gateway, the
// bridge carrying `elicitation/create` to it and its answer back. The SDK's Client launches the
// bridge with StdioClientTransport and plays the person's client; behind the bridge are the real
// gateway and the reference MCP servers of test/e2e/mcp-elicitation.e2e.test.ts.
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'apps', 'cli', 'bin', 'toolsurface.js');
const KEY = 'mcp-key-gateways-0123456789';
const SUM = 'What is the sum of a=17 and b=25?';
let g: GatewayFixture;

beforeAll(async () => {
  g = await startMcpGateway(join(root, 'test', 'fixtures', 'mcp-elicitation.yaml'), ['everything', 'memory', 'forms']);
}, 180_000);
afterAll(async () => {
  await g?.stop();
}, 60_000);

/** What the person answers to each form; `undefined`: the client declares no elicitation. */
type Person = ((req: ElicitRequest['params'], withdrawn: AbortSignal) => ElicitResult | Promise<ElicitResult>) | undefined;

interface Bridged {
  client: Client;
  /** The forms the person was shown. */
  asked: Array<ElicitRequest['params']>;
  stderr: () => string;
}

/** The SDK's Client launching `toolsurface mcp` over stdio, with or without form elicitation. */
async function bridge(
  principal: string,
  person: Person,
  elicitation: NonNullable<ClientCapabilities['elicitation']> = { form: {} },
): Promise<Bridged> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--principal', principal, '--url', g.stack.addresses.mcp],
    env: { ...env, TOOLSURFACE_MCP_KEY: KEY },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'bridge-elicitation-e2e', version: '0.0.0' }, person ? { capabilities: { elicitation } } : {});
  const asked: Array<ElicitRequest['params']> = [];
  if (person) {
    client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
      asked.push(req.params);
      return person(req.params, extra.signal);
    });
  }
  await client.connect(transport);
  return { client, asked, stderr: () => err };
}

async function unified(b: Bridged, request: string): Promise<CallToolResult> {
  return (await b.client.callTool({ name: 'unified_tool', arguments: { request } })) as CallToolResult;
}

/** The MCP session records in NATS, by session ID. */
async function sessions(): Promise<Map<string, { elicitation?: boolean }>> {
  const kv = await new Kvm(g.nc).open('toolsurface_mcp_sessions');
  const out = new Map<string, { elicitation?: boolean }>();
  for await (const k of await kv.keys()) {
    const e = await kv.get(k);
    if (e && e.operation === 'PUT') out.set(k, JSON.parse(e.string()) as { elicitation?: boolean });
  }
  return out;
}

const confirm = (yes: boolean) => (): ElicitResult => ({ action: 'accept', content: { confirm: yes } });

describe('toolsurface mcp: a supervised gateway asks the stdio client’s person', () => {
  it('accept: the proposed call runs, audited as approved; the bridge keeps one session, which declared elicitation', async () => {
    const before = await sessions();
    const b = await bridge('gateway:sup', confirm(true));
    const from = g.events.length;
    try {
      const r = await unified(b, SUM);
      expect(r.isError, mcpTextOf(r)).toBe(false);
      // everything's get-sum answered: the call ran.
      expect(mcpTextOf(r)).toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe('approved');
      // The person saw the tool and its arguments, as the endpoint asked them.
      expect(b.asked).toHaveLength(1);
      expect(b.asked[0].message).toContain('get-sum');
      expect(b.asked[0].message).toMatch(/"a": 17[\s\S]*"b": 25/);
      expect(Object.keys((b.asked[0] as { requestedSchema: { properties: object } }).requestedSchema.properties)).toEqual(['confirm']);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.some((x) => x.outcome === 'ok'));
      expect(events.map((e) => [e.toolName, e.via, e.outcome, e.person])).toEqual([
        ['get-sum', 'unified_tool', 'proposed', ''],
        ['get-sum', 'unified_tool', 'ok', 'approved'],
      ]);
      // The first session (opened before the stdio client said what it can do) is ended.
      const mine = [...(await sessions())].filter(([id]) => !before.has(id));
      expect(mine.map(([, s]) => s.elicitation)).toEqual([true]);
      expect(b.stderr()).toMatch(/connected to .*\(session [^,]+, elicitation\)/);
    } finally {
      await b.client.close();
    }
  });

  it('a client declaring elicitation as `{}` (protocol 2025-06-18: form) is asked too', async () => {
    const b = await bridge('gateway:sup', confirm(true), {});
    try {
      const r = await unified(b, SUM);
      expect(mcpTextOf(r)).toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe('approved');
      expect(b.asked).toHaveLength(1);
    } finally {
      await b.client.close();
    }
  });

  const nothingRuns: Array<[string, () => ElicitResult, string]> = [
    ['decline', () => ({ action: 'decline' }), 'declined'],
    ['cancel', () => ({ action: 'cancel' }), 'cancelled'],
  ];
  it.each(nothingRuns)('%s: nothing runs, and the result says so', async (_name, answer, said) => {
    const b = await bridge('gateway:sup', answer);
    const from = g.events.length;
    try {
      const r = await unified(b, SUM);
      expect(r.isError).toBe(false);
      expect(mcpTextOf(r)).toMatch(/^Not run: the person .*get-sum.*Nothing ran/);
      expect(mcpTextOf(r)).not.toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe(said);
      expect(r.structuredContent).toMatchObject({ proposal: { tool: 'get-sum', arguments: { a: 17, b: 25 } }, person: said });
      expect(b.asked).toHaveLength(1);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.outcome, e.person])).toEqual([
        ['proposed', ''],
        [said, said],
      ]);
    } finally {
      await b.client.close();
    }
  });

  it('a stdio client without elicitation gets the proposal back, and nothing runs', async () => {
    const before = await sessions();
    const b = await bridge('gateway:sup', undefined);
    const from = g.events.length;
    try {
      const r = await unified(b, SUM);
      expect(r.isError).toBe(false);
      expect(r.structuredContent).toEqual({ proposal: { tool: 'get-sum', arguments: { a: 17, b: 25 }, confidence: expect.any(Number) } });
      expect(mcpTextOf(r)).toMatch(/^Proposed call: "get-sum"/);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length > 0);
      expect(events.map((e) => e.outcome)).toEqual(['proposed']);
      const mine = [...(await sessions())].filter(([id]) => !before.has(id));
      expect(mine.map(([, s]) => s.elicitation)).toEqual([undefined]);
    } finally {
      await b.client.close();
    }
  });

  it('a rescue: the person picks the candidate of a LOW_CONFIDENCE refusal and fills in its values; the call runs', async () => {
    const b = await bridge('gateway:sup', () => ({ action: 'accept', content: { tool: 'get-sum', a: 20, b: 22 } }));
    const from = g.events.length;
    try {
      const r = await unified(b, 'Add two numbers');
      expect(b.asked).toHaveLength(1);
      expect(b.asked[0].message).toContain('LOW_CONFIDENCE');
      expect(r.isError, mcpTextOf(r)).toBe(false);
      expect(mcpTextOf(r)).toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe('chose');
      const events = await toolCalledSince(g, from, 'sup', (e) => e.some((x) => x.outcome === 'ok'));
      expect(events.map((e) => [e.toolName, e.outcome, e.person])).toEqual([
        ['get-sum', 'refused', ''],
        ['get-sum', 'ok', 'chose'],
      ]);
    } finally {
      await b.client.close();
    }
  });

  it('a call the stdio client gave up on runs nothing, and its open form is withdrawn', async () => {
    let withdrawn: boolean | undefined;
    const b = await bridge('gateway:sup', async (_req, signal) => {
      // The person is slow: the form stays open until answered or withdrawn.
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 15_000);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
      withdrawn = signal.aborted;
      return { action: 'accept', content: { confirm: true } };
    });
    const from = g.events.length;
    try {
      // The client's own request timeout: it sends notifications/cancelled, which the bridge passes on.
      await expect(b.client.callTool({ name: 'unified_tool', arguments: { request: SUM } }, undefined, { timeout: 1_000 })).rejects.toThrow(
        /timed out/i,
      );
      for (const deadline = Date.now() + 20_000; withdrawn === undefined && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 50));
      expect(b.asked).toHaveLength(1);
      // The bridge sent notifications/cancelled for the form once no tool call could wait for it.
      expect(withdrawn, b.stderr()).toBe(true);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.outcome, e.person])).toEqual([
        ['proposed', ''],
        ['cancelled', 'cancelled'],
      ]);
    } finally {
      await b.client.close();
    }
  }, 60_000);
});
