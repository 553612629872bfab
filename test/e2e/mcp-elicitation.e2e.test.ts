import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { type GatewayFixture, mcpTextOf, startMcpGateway, toolCalledSince } from '../support';

// Supervised autonomy a person can answer (issue 37, part 6): a supervised gateway's MCP client
// that declared form elicitation is asked, through `elicitation/create`, whether to run the call
// unified_tool proposes, or which candidate and values it meant when unified_tool refused. The
// SDK's own Client plays the person's client; everything behind it is the real gateway and the
// reference MCP servers.
const KEY = 'mcp-key-gateways-0123456789';
const SUM = 'What is the sum of a=17 and b=25?';
let g: GatewayFixture;

/** The calls elicitation-server.mjs got, one line each (`<tool> <arguments>`), from this run. */
const FORMS_CALLS = join(import.meta.dirname, '..', '..', '.data', 'mcp-elicitation-e2e-forms-calls.log');
const formsCalls = (): string[] => (existsSync(FORMS_CALLS) ? readFileSync(FORMS_CALLS, 'utf8').split('\n').filter(Boolean) : []);

beforeAll(async () => {
  rmSync(FORMS_CALLS, { force: true });
  g = await startMcpGateway(join(import.meta.dirname, '..', 'fixtures', 'mcp-elicitation.yaml'), ['everything', 'memory', 'forms']);
}, 180_000);
afterAll(async () => {
  await g?.stop();
}, 60_000);

/** What the person answers to each form; `undefined`: the client declares no elicitation. */
type Person = ((req: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>) | undefined;

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The forms the person was shown. */
  asked: Array<ElicitRequest['params']>;
}

async function connect(principal: string, person: Person, fetchVia?: FetchLike): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(`${g.stack.addresses.mcp}/mcp/${principal.replace(':', '/')}`), {
    requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    ...(fetchVia ? { fetch: fetchVia } : {}),
  });
  const client = new Client(
    { name: 'toolsurface-elicitation-e2e', version: '0.0.0' },
    person ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const asked: Array<ElicitRequest['params']> = [];
  if (person) {
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params);
      return person(req.params);
    });
  }
  await client.connect(transport);
  return { client, transport, asked };
}

async function end(c: Connected): Promise<void> {
  await c.transport.terminateSession();
  await c.client.close();
}

async function unified(c: Connected, request: string): Promise<CallToolResult> {
  return (await c.client.callTool({ name: 'unified_tool', arguments: { request } })) as CallToolResult;
}

const confirm = (yes: boolean) => (): ElicitResult => ({ action: 'accept', content: { confirm: yes } });

describe('supervised gateway: the person approves the proposed call', () => {
  it('accept: the proposed call runs through the call path, audited as approved by a person', async () => {
    const c = await connect('gateway:sup', confirm(true));
    const from = g.events.length;
    try {
      const r = await unified(c, SUM);
      expect(r.isError, mcpTextOf(r)).toBe(false);
      // everything's get-sum answered: the call ran.
      expect(mcpTextOf(r)).toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe('approved');
      // The person saw the tool and its arguments.
      expect(c.asked).toHaveLength(1);
      expect(c.asked[0].message).toContain('get-sum');
      expect(c.asked[0].message).toMatch(/"a": 17[\s\S]*"b": 25/);
      expect(Object.keys((c.asked[0] as { requestedSchema: { properties: object } }).requestedSchema.properties)).toEqual(['confirm']);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.some((x) => x.outcome === 'ok'));
      expect(events.map((e) => [e.toolName, e.via, e.outcome, e.person])).toEqual([
        ['get-sum', 'unified_tool', 'proposed', ''],
        ['get-sum', 'unified_tool', 'ok', 'approved'],
      ]);
      expect(events[1].orchestrator).toBe('mcp:gateways');
      expect(events[1].capability).toBe('everything');
    } finally {
      await end(c);
    }
  });

  const nothingRuns: Array<[string, () => ElicitResult, string]> = [
    ['decline', () => ({ action: 'decline' }), 'declined'],
    ['cancel', () => ({ action: 'cancel' }), 'cancelled'],
    ['accept without confirming', confirm(false), 'declined'],
  ];
  it.each(nothingRuns)('%s: nothing runs, and the result says so', async (_name, answer, said) => {
    const c = await connect('gateway:sup', answer);
    const from = g.events.length;
    try {
      const r = await unified(c, SUM);
      // Not a fault of the model: the proposal was sound and the person chose not to run it.
      expect(r.isError).toBe(false);
      expect(mcpTextOf(r)).toMatch(/^Not run: the person .*get-sum.*Nothing ran/);
      expect(mcpTextOf(r)).not.toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe(said);
      expect(r.structuredContent).toMatchObject({ proposal: { tool: 'get-sum', arguments: { a: 17, b: 25 } }, person: said });
      expect(c.asked).toHaveLength(1);
      // The person's no is audited as its own event of the unified_tool call, and nothing ran (no ok event).
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.calledName, e.toolName, e.capability, e.outcome, e.reason, e.person])).toEqual([
        ['unified_tool', 'get-sum', 'everything', 'proposed', '', ''],
        ['unified_tool', 'get-sum', 'everything', said, '', said],
      ]);
      expect(events[1].callId).toBe(events[0].callId);
      expect(events[1].orchestrator).toBe('mcp:gateways');
    } finally {
      await end(c);
    }
  });

  it.each([
    ['decline' as const, 'declined'],
    ['cancel' as const, 'cancelled'],
  ])('%s: the server behind never gets the call', async (action, said) => {
    const c = await connect('gateway:forms', () => ({ action }));
    const from = g.events.length;
    const called = formsCalls().length;
    try {
      const r = await unified(c, 'Convert 250 USD to EUR');
      expect(r.structuredContent, mcpTextOf(r)).toMatchObject({ proposal: { tool: 'convert_currency' }, person: said });
      const events = await toolCalledSince(g, from, 'forms', (e) => e.length >= 2);
      expect(events.map((e) => [e.toolName, e.capability, e.outcome, e.person])).toEqual([
        ['convert_currency', 'forms', 'proposed', ''],
        ['convert_currency', 'forms', said, said],
      ]);
      // (the MISSING_ARGUMENTS test below shows a call that runs is written there)
      expect(formsCalls().slice(called)).toEqual([]);
    } finally {
      await end(c);
    }
  });

  it('a client without elicitation gets the proposal back, and nothing runs', async () => {
    const c = await connect('gateway:sup', undefined);
    const from = g.events.length;
    try {
      const r = await unified(c, SUM);
      expect(r.isError).toBe(false);
      expect(r.structuredContent).toEqual({ proposal: { tool: 'get-sum', arguments: { a: 17, b: 25 }, confidence: expect.any(Number) } });
      expect(mcpTextOf(r)).toMatch(/^Proposed call: "get-sum"/);
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length > 0);
      expect(events.map((e) => e.outcome)).toEqual(['proposed']);
    } finally {
      await end(c);
    }
  });
  it('a call the client gave up on does not run when its person answers later', async () => {
    const c = await connect('gateway:sup', async () => {
      await new Promise((r) => setTimeout(r, 3_000));
      return { action: 'accept', content: { confirm: true } };
    });
    const from = g.events.length;
    try {
      // The client's own request timeout: it sends notifications/cancelled and stops waiting.
      await expect(c.client.callTool({ name: 'unified_tool', arguments: { request: SUM } }, undefined, { timeout: 1_000 })).rejects.toThrow(
        /timed out/i,
      );
      // Long enough for the late answer to have reached the endpoint.
      await new Promise((r) => setTimeout(r, 4_000));
      // The question ended unanswered: cancelled, and the late approval ran nothing.
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.outcome, e.person])).toEqual([
        ['proposed', ''],
        ['cancelled', 'cancelled'],
      ]);
    } finally {
      await end(c);
    }
  });
});

describe('supervised gateway: the person rescues a refusal', () => {
  it('LOW_CONFIDENCE: the person picks the candidate and fills in its values; the call runs, audited as chosen', async () => {
    const c = await connect('gateway:sup', (req) => {
      const schema = (req as { requestedSchema: { properties: Record<string, { enum?: string[]; type: string }> } }).requestedSchema;
      // The form offers the candidates by name and the missing primitive values of get-sum.
      expect(schema.properties.tool.enum).toContain('get-sum');
      expect(schema.properties.a.type).toBe('number');
      return { action: 'accept', content: { tool: 'get-sum', a: 20, b: 22 } };
    });
    const from = g.events.length;
    try {
      const r = await unified(c, 'Add two numbers');
      expect(c.asked).toHaveLength(1);
      expect(c.asked[0].message).toContain('LOW_CONFIDENCE');
      expect(r.isError, mcpTextOf(r)).toBe(false);
      expect(mcpTextOf(r)).toContain('42');
      expect(r._meta?.['io.toolsurface/person']).toBe('chose');
      const events = await toolCalledSince(g, from, 'sup', (e) => e.some((x) => x.outcome === 'ok'));
      expect(events.map((e) => [e.toolName, e.outcome, e.reason, e.person])).toEqual([
        ['get-sum', 'refused', 'LOW_CONFIDENCE', ''],
        ['get-sum', 'ok', '', 'chose'],
      ]);
    } finally {
      await end(c);
    }
  });

  it('MISSING_ARGUMENTS: the person gives the missing value; the call runs with it, audited as chosen', async () => {
    const c = await connect('gateway:forms', () => ({ action: 'accept', content: { amount: 250 } }));
    const from = g.events.length;
    const called = formsCalls().length;
    try {
      const r = await unified(c, 'Convert currency from USD to EUR');
      expect(c.asked).toHaveLength(1);
      expect(c.asked[0].message).toContain('MISSING_ARGUMENTS');
      // One candidate: no tool to pick, its missing value required, typed from its schema.
      expect((c.asked[0] as { requestedSchema: unknown }).requestedSchema).toEqual({
        type: 'object',
        properties: { amount: { type: 'number', title: 'amount', description: 'The amount of money to convert' } },
        required: ['amount'],
      });
      expect(r.isError, mcpTextOf(r)).toBe(false);
      expect(mcpTextOf(r)).toMatch(/^convert_currency ran with /);
      expect(JSON.parse(mcpTextOf(r).replace('convert_currency ran with ', ''))).toEqual({
        from_currency: 'USD',
        to_currency: 'EUR',
        amount: 250,
      });
      expect(r._meta?.['io.toolsurface/person']).toBe('chose');
      const events = await toolCalledSince(g, from, 'forms', (e) => e.some((x) => x.outcome === 'ok'));
      expect(events.map((e) => [e.toolName, e.outcome, e.reason, e.person])).toEqual([
        ['convert_currency', 'refused', 'MISSING_ARGUMENTS', ''],
        ['convert_currency', 'ok', '', 'chose'],
      ]);
      const ran = formsCalls().slice(called);
      expect(ran.map((l) => JSON.parse(l.slice('convert_currency '.length)) as unknown)).toEqual([
        { from_currency: 'USD', to_currency: 'EUR', amount: 250 },
      ]);
    } finally {
      await end(c);
    }
  });

  it('MISSING_ARGUMENTS declined: the refusal stays, and nothing runs', async () => {
    const c = await connect('gateway:forms', () => ({ action: 'decline' }));
    const from = g.events.length;
    const called = formsCalls().length;
    try {
      const r = await unified(c, 'Weather forecast for Oslo');
      expect(c.asked).toHaveLength(1);
      expect(r.isError).toBe(true);
      expect(mcpTextOf(r)).toMatch(/^MISSING_ARGUMENTS: "get_weather_forecast" needs "days"/);
      const events = await toolCalledSince(g, from, 'forms', (e) => e.length >= 2);
      expect(events.map((e) => [e.toolName, e.outcome, e.reason, e.person])).toEqual([
        ['get_weather_forecast', 'refused', 'MISSING_ARGUMENTS', ''],
        ['get_weather_forecast', 'declined', 'MISSING_ARGUMENTS', 'declined'],
      ]);
      // The server behind was never called.
      expect(formsCalls().slice(called)).toEqual([]);
    } finally {
      await end(c);
    }
  });

  it('the chosen call goes through admission: a value a rule denies is refused, and nothing runs', async () => {
    const c = await connect('gateway:sup', () => ({ action: 'accept', content: { tool: 'echo', message: 'my secret plan' } }));
    const from = g.events.length;
    try {
      const r = await unified(c, 'Echo a message');
      expect(c.asked).toHaveLength(1);
      expect(r.isError).toBe(true);
      expect(mcpTextOf(r)).toMatch(/^PERMISSION_DENIED: /);
      expect(r._meta?.['io.toolsurface/person']).toBe('chose');
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.toolName, e.outcome, e.reason, e.admission?.rule, e.person])).toEqual([
        ['echo', 'refused', 'LOW_CONFIDENCE', undefined, ''],
        ['echo', 'refused', 'PERMISSION_DENIED', 'no-secret-echo', 'chose'],
      ]);
    } finally {
      await end(c);
    }
  });

  it.each([['decline' as const], ['cancel' as const]])('%s leaves the refusal as it is', async (action) => {
    const c = await connect('gateway:sup', () => ({ action }));
    const from = g.events.length;
    try {
      const r = await unified(c, 'Add two numbers');
      expect(c.asked).toHaveLength(1);
      expect(r.isError).toBe(true);
      expect(mcpTextOf(r)).toMatch(/^LOW_CONFIDENCE: No tool fits this request/);
      expect(r._meta?.['io.toolsurface/reason']).toBe('LOW_CONFIDENCE');
      const person = action === 'cancel' ? 'cancelled' : 'declined';
      const events = await toolCalledSince(g, from, 'sup', (e) => e.length >= 2);
      expect(events.map((e) => [e.toolName, e.outcome, e.reason, e.person])).toEqual([
        ['get-sum', 'refused', 'LOW_CONFIDENCE', ''],
        ['get-sum', person, 'LOW_CONFIDENCE', person],
      ]);
    } finally {
      await end(c);
    }
  });

  it('an autonomous gateway is not asked: its refusal goes back as it is, and a confident call runs', async () => {
    const c = await connect('gateway:auto', () => ({ action: 'accept', content: { tool: 'get-sum', a: 1, b: 2 } }));
    try {
      const refused = await unified(c, 'Add two numbers');
      expect(refused.isError).toBe(true);
      expect(mcpTextOf(refused)).toMatch(/^LOW_CONFIDENCE: /);
      const ran = await unified(c, SUM);
      expect(mcpTextOf(ran)).toContain('42');
      expect(c.asked).toHaveLength(0);
    } finally {
      await end(c);
    }
  });
});

describe('the answer reaches the waiting call on any replica', () => {
  it('the person’s answer, posted to another dispatch replica, is relayed to the one holding the call', async () => {
    const replica = await g.stack.addDispatchReplica();
    const answers: number[] = [];
    // Every request to the first replica, but the client's answers to the second, as a load balancer might.
    const split: FetchLike = async (url, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const isAnswer = body !== undefined && !('method' in body) && ('result' in body || 'error' in body);
      const u = new URL(url);
      if (isAnswer) u.host = new URL(replica.mcp).host;
      const res = await fetch(u, init);
      if (isAnswer) answers.push(res.status);
      return res;
    };
    try {
      const c = await connect('gateway:sup', confirm(true), split);
      try {
        const r = await unified(c, SUM);
        expect(mcpTextOf(r)).toContain('42');
        expect(r._meta?.['io.toolsurface/person']).toBe('approved');
        // (the waiting call may go on before the relaying replica's 202 reaches the client)
        for (const deadline = Date.now() + 10_000; answers.length === 0 && Date.now() < deadline;)
          await new Promise((r) => setTimeout(r, 25));
        expect(answers).toEqual([202]);
      } finally {
        await end(c);
      }
    } finally {
      await replica.stop();
    }
  }, 90_000);

  it('an answer no call waits for is refused with 400', async () => {
    const c = await connect('gateway:sup', undefined);
    try {
      const res = await fetch(`${g.stack.addresses.mcp}/mcp/gateway/sup`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${KEY}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Mcp-Session-Id': c.transport.sessionId!,
          'Mcp-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'ts-elicit-0123456789abcdef',
          result: { action: 'accept', content: { confirm: true } },
        }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/no request of this session waits/);
    } finally {
      await end(c);
    }
  });
});
