// The shared mapper test table run against every Mapper: the rule engine, and the OpenAI mapper
// talking to a local server of the chat-completions protocol. PROTOCOL TEST: the server's "model"
// is a script that answers each case with the table's expected call; no model runs here, so this
// checks the protocol and our checks of the answer, not the quality of any model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import { startOpenAIProtocolServer, type OpenAIProtocolServer } from '@toolsurface/devkit';
import { OpenAIMapper, ruleMapper, UnifiedMapper, type Mapper } from './index.js';
import { expectedAnswer, loadMapperTable, sentUserMessage } from './fixtures/mapper-table.js';

const table = loadMapperTable();
const index = ToolIndex.build(table.tools, SELECTION_RETRIEVAL_OPTIONS);
const engine = new UnifiedMapper(table.tools, (q, limit) => index.search(q, limit));

let server: OpenAIProtocolServer;
const failures: string[] = [];
let answered = 0;

beforeAll(async () => {
  server = await startOpenAIProtocolServer((req) => {
    const sent = sentUserMessage(req.body);
    const c = table.cases.find((x) => x.request === sent.request);
    return c ? { content: expectedAnswer(c) } : { status: 400, text: '{"error":{"message":"no such case"}}' };
  });
});
afterAll(async () => server?.close());

const mappers: [string, () => Mapper][] = [
  ['rule engine', () => ruleMapper(engine)],
  [
    'OpenAI mapper (protocol test against a scripted local server; no model runs)',
    () =>
      new OpenAIMapper(table.tools, engine, {
        baseUrl: server.baseUrl,
        model: 'table-model',
        timeoutMs: 60_000,
        candidates: 8,
        onFailure: (f) => failures.push(`${f.kind}: ${f.message}`),
        onAnswer: () => answered++,
      }),
  ],
];

describe.each(mappers)('shared mapper table: %s', (_name, make) => {
  it.each(table.cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const res = await make().map({ request: c.request, context: c.context, preferredTools: c.preferredTools });
    expect(res.decision).toBe(c.expected.decision);
    if (c.expected.tool !== null) expect(res.tool).toBe(c.expected.tool);
    if (c.expected.decision !== 'low_confidence') {
      expect(res.arguments).toEqual(c.expected.arguments);
      expect(res.missingArguments).toEqual(c.expected.missingArguments ?? []);
    }
    if (res.decision === 'execute') expect(res.confidence).toBeGreaterThanOrEqual(0.7);
    else expect(res.candidates.every((x) => x.confidence < 0.7 || res.decision === 'missing_arguments')).toBe(true);
    if (res.tool !== null) expect(res.candidates[0]?.name).toBe(res.tool);
    expect(failures).toEqual([]);
  });
});

describe('what the protocol server received from the OpenAI mapper', () => {
  it('the model, the candidates with their schemas, and a strict JSON-schema response format', () => {
    // every case was answered by the scripted model, none by the fallback
    expect(server.received.length).toBe(table.cases.length);
    expect(answered).toBe(table.cases.length);
    for (const r of server.received) {
      const body = r.body as Record<string, unknown>;
      expect(body.model).toBe('table-model');
      expect(r.headers.authorization).toBeUndefined();
      const sent = sentUserMessage(body);
      const c = table.cases.find((x) => x.request === sent.request)!;
      const names = sent.candidate_tools.map((t) => t.name);
      expect(names.length).toBeGreaterThan(0);
      expect(names.length).toBeLessThanOrEqual(8 + (c.preferredTools?.length ?? 0));
      if (c.expected.tool !== null) expect(names).toContain(c.expected.tool);
      for (const t of sent.candidate_tools) expect(t.input_schema).toEqual(table.tools.find((x) => x.name === t.name)!.inputSchema);
      expect(sent.context ?? undefined).toEqual(c.context);
      const rf = body.response_format as {
        type: string;
        json_schema: { strict: boolean; schema: { properties: { tool: { enum: unknown[] } } } };
      };
      expect(rf.type).toBe('json_schema');
      expect(rf.json_schema.strict).toBe(true);
      expect(rf.json_schema.schema.properties.tool.enum).toEqual([...names, null]);
    }
  });
});
