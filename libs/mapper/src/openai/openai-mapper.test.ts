// The OpenAI mapper against adversarial answers of a local chat-completions protocol server.
// PROTOCOL TEST: the server's "model" is a script; no model runs here, and no quality is claimed.
// What is checked: an unusable answer is reported (kind, message without the key) and the rule
// engine answers instead; a usable answer runs only when our own checks back it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import { findFreePort, startOpenAIProtocolServer, type OpenAIProtocolServer, type ScriptedReply } from '@toolsurface/devkit';
import {
  EndpointPause,
  OpenAIMapper,
  PreferredToolNotInSnapshotError,
  UnifiedMapper,
  type MapInput,
  type OpenAIMapperOptions,
} from '../index.js';
import { loadMapperTable } from '../fixtures/mapper-table.js';

const table = loadMapperTable();
const index = ToolIndex.build(table.tools, SELECTION_RETRIEVAL_OPTIONS);
const engine = new UnifiedMapper(table.tools, (q, limit) => index.search(q, limit));
const KEY = 'sk-test-0123456789-secret';

let server: OpenAIProtocolServer;
let failures: { kind: string; message: string }[];

beforeAll(async () => {
  server = await startOpenAIProtocolServer(() => ({ status: 500, text: '{}' }));
});
afterAll(async () => server?.close());
beforeEach(() => {
  failures = [];
});

/** The model's answer content. */
function answer(tool: string | null, args: Record<string, unknown>, confidence = 0.99): ScriptedReply {
  return { content: JSON.stringify({ tool, arguments_json: JSON.stringify(args), confidence }) };
}

/** A mapper whose server replies `reply` to every request. */
function mapperReplying(reply: ScriptedReply, options: Partial<OpenAIMapperOptions> = {}): OpenAIMapper {
  server.setScript(() => reply);
  return new OpenAIMapper(table.tools, engine, {
    baseUrl: server.baseUrl,
    model: 'adversary',
    apiKey: KEY,
    timeoutMs: 60_000,
    candidates: 8,
    onFailure: (f) => failures.push(f),
    ...options,
  });
}

describe('an unusable answer is reported, and the rule engine answers instead', () => {
  const input: MapInput = { request: 'add 17 and 25' };
  const cases: [string, ScriptedReply, string][] = [
    ['a tool that was not offered', answer('send_email', { to: 'x@example.com' }), 'tool_not_offered'],
    ['arguments the schema refuses', answer('add', { a: 'seventeen', b: 25 }), 'invalid_arguments'],
    ['malformed JSON content', { content: '{"tool": "add", "arguments_json": ' }, 'malformed_output'],
    [
      'a number past the largest double, which JSON writes back as null',
      { content: JSON.stringify({ tool: 'add', arguments_json: '{"a": 1e400, "b": 25}', confidence: 1 }) },
      'invalid_arguments',
    ],
    [
      'arguments that are not JSON',
      { content: JSON.stringify({ tool: 'add', arguments_json: '{a: 17', confidence: 1 }) },
      'malformed_output',
    ],
    [
      'output that breaks the answer schema',
      { content: JSON.stringify({ tool: 'add', arguments_json: '{}', confidence: 7 }) },
      'schema_violation',
    ],
    ['a body that is not JSON', { status: 200, text: '<html>gateway</html>', contentType: 'text/html' }, 'bad_response'],
    ['a body without choices', { status: 200, text: '{"object":"chat.completion","choices":[]}' }, 'bad_response'],
    ['a body over 1 MiB', { status: 200, text: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }, 'bad_response'],
    ['HTTP 500', { status: 500, text: '{"error":{"message":"overloaded"}}' }, 'http_status'],
    ['HTTP 401', { status: 401, text: '{"error":{"message":"bad key"}}' }, 'http_status'],
  ];
  it.each(cases)('%s', async (_name, reply, kind) => {
    const res = await mapperReplying(reply).map(input);
    expect(failures.map((f) => f.kind)).toEqual([kind]);
    expect(failures[0].message).not.toContain(KEY);
    // the rule engine's answer, saying why the model's was not used
    expect(res).toEqual({ ...engine.map(input), answeredBy: 'rules', modelFailure: kind });
    expect(res.decision).toBe('execute');
  });

  it('a reply slower than the timeout', async () => {
    const res = await mapperReplying({ content: '{}', delayMs: 120_000 }, { timeoutMs: 200 }).map(input);
    expect(failures.map((f) => f.kind)).toEqual(['timeout']);
    expect(res).toEqual({ ...engine.map(input), answeredBy: 'rules', modelFailure: 'timeout' });
  });

  it('a body that passes 1 MiB and does not end: refused at 1 MiB, without waiting for the timeout', async () => {
    // (a read that waited for the end would meet the timeout first, and report 'timeout')
    const res = await mapperReplying({ status: 200, text: 'x'.repeat(1024 * 1024 + 1), open: true }, { timeoutMs: 60_000 }).map(input);
    expect(failures.map((f) => f.kind)).toEqual(['bad_response']);
    expect(res).toEqual({ ...engine.map(input), answeredBy: 'rules', modelFailure: 'bad_response' });
  });

  it('an endpoint that is down', async () => {
    const port = await findFreePort();
    const res = await mapperReplying({ content: '{}' }, { baseUrl: `http://127.0.0.1:${port}/v1` }).map(input);
    expect(failures.map((f) => f.kind)).toEqual(['unreachable']);
    expect(res).toEqual({ ...engine.map(input), answeredBy: 'rules', modelFailure: 'unreachable' });
  });
});

describe('settings', () => {
  it('a timeout that is not a whole number of ms from 1 is refused when the mapper is made, naming it', () => {
    // (AbortSignal.timeout threw a RangeError from map() on every request instead)
    for (const timeoutMs of [-1, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])
      expect(() => new OpenAIMapper(table.tools, engine, { baseUrl: server.baseUrl, model: 'm', timeoutMs, candidates: 8 })).toThrow(
        /timeoutMs/,
      );
  });
});

describe('endpoint failures in a row pause the model', () => {
  it('after pauseAfter failures the model is skipped for pauseMs, then tried again; an answer ends the pause', async () => {
    let now = 1_000_000;
    const m = mapperReplying({ status: 503, text: '{}' }, { pause: new EndpointPause(2, 30_000, () => now) });
    const input: MapInput = { request: 'add 17 and 25' };
    const sent = server.received.length;
    await m.map(input);
    await m.map(input);
    expect(failures.map((f) => f.kind)).toEqual(['http_status', 'http_status']);
    expect(failures[1].message).toContain('skipped for 30000 ms');
    // paused: the endpoint is not asked, the rule engine answers
    expect(await m.map(input)).toEqual({ ...engine.map(input), answeredBy: 'rules', modelFailure: 'paused' });
    expect(failures.at(-1)!.kind).toBe('paused');
    expect(server.received.length).toBe(sent + 2);
    // an answer-level failure does not count towards a pause, and any answer ends one
    now += 30_001;
    server.setScript(() => ({ content: '{"tool": ' }));
    await m.map(input);
    expect(server.received.length).toBe(sent + 3);
    server.setScript(() => ({ status: 503, text: '{}' }));
    await m.map(input);
    expect(failures.slice(-2).map((f) => f.kind)).toEqual(['malformed_output', 'http_status']);
    expect(server.received.length).toBe(sent + 4);
    await m.map(input);
    expect(server.received.length).toBe(sent + 5);
    expect(failures.at(-1)!.message).toContain('skipped');
    // after the pause one request tries the endpoint; its failure pauses the model again at once
    now += 30_001;
    await m.map(input);
    expect(server.received.length).toBe(sent + 6);
    expect(failures.at(-1)!.message).toContain('skipped');
    await m.map(input);
    expect(failures.at(-1)!.kind).toBe('paused');
    expect(server.received.length).toBe(sent + 6);
  });
});

describe('a usable answer runs only when our checks back it', () => {
  it('values the request does not give, with a self-reported 0.99, do not run', async () => {
    const res = await mapperReplying(answer('get_weather', { city: 'London', unit: 'celsius' }, 0.99)).map({ request: 'weather in Paris' });
    expect(failures).toEqual([]);
    expect(res.decision).toBe('low_confidence');
    expect(res.tool).toBe('get_weather');
    expect(res.confidence).toBe(0);
    expect(res.explanation).toContain('city');
    for (const c of res.candidates) expect(c.confidence).toBeLessThan(0.7);
  });

  it('a low self-report caps our confidence', async () => {
    const res = await mapperReplying(answer('add', { a: 17, b: 25 }, 0.3)).map({ request: 'add 17 and 25' });
    expect(res.decision).toBe('low_confidence');
    expect(res.confidence).toBe(0.3);
  });

  it("one unstated enum choice on the rule engine's first tool still runs (0.75)", async () => {
    const res = await mapperReplying(answer('get_weather', { city: 'Paris', unit: 'fahrenheit' })).map({ request: 'weather in Paris' });
    expect(res.decision).toBe('execute');
    expect(res.confidence).toBe(0.75);
    expect(res.arguments).toEqual({ city: 'Paris', unit: 'fahrenheit' });
  });

  it('an empty list or object the request does not give is an invented value: it does not run', async () => {
    // (an empty filter or list can mean "all" to a tool; no leaf inside it to check is no backing)
    const res = await mapperReplying(answer('delete_entities', { entityNames: [] })).map({
      request: 'delete the entities "Alice" and "Bob"',
    });
    expect(failures).toEqual([]);
    expect(res.decision).toBe('low_confidence');
    expect(res.confidence).toBe(0);
    expect(res.explanation).toContain('entityNames');
    // a tool without parameters still runs on its empty arguments
    const graph = await mapperReplying(answer('read_graph', {})).map({ request: 'read the whole knowledge graph' });
    expect(graph.decision).toBe('execute');
  });

  it('a value holding a lone surrogate is checked like any other, not a failure of the request', async () => {
    const res = await mapperReplying(answer('echo', { message: 'hi\uD800' })).map({ request: 'echo the message "hello"' });
    expect(failures).toEqual([]);
    expect(res.tool).toBe('echo');
    expect(res.decision).toBe('low_confidence');
  });

  it('a required value given as "" or null is missing: MISSING_ARGUMENTS, nothing invented', async () => {
    for (const city of ['', null]) {
      const res = await mapperReplying(answer('get_weather', { city })).map({ request: 'what is the weather' });
      expect(res.decision).toBe('missing_arguments');
      expect(res.missingArguments).toEqual(['city']);
      expect(res.arguments).toEqual({});
      expect(res.explanation).toContain('city');
    }
  });

  it('the model saying no tool serves the request runs nothing', async () => {
    const res = await mapperReplying(answer(null, {})).map({ request: 'add 17 and 25' });
    expect(res.decision).toBe('low_confidence');
    expect(res.tool).toBeNull();
    for (const c of res.candidates) expect(c.confidence).toBeLessThan(0.7);
  });

  it('a destructive tool the request does not ask for is held back, as by the rule engine', async () => {
    const res = await mapperReplying(answer('delete_entities', { entityNames: ['Alice'] })).map({ request: 'show the entity "Alice"' });
    expect(failures).toEqual([]);
    expect(res.decision).toBe('low_confidence');
    expect(res.explanation).toMatch(/^Not run:/);
    expect(res.confidence).toBeLessThan(0.7);
  });

  it('the API key goes as a bearer token; preferred tools outside the snapshot are refused before any request', async () => {
    const m = mapperReplying(answer('add', { a: 17, b: 25 }));
    const before = server.received.length;
    await expect(m.map({ request: 'add 17 and 25', preferredTools: ['send_email'] })).rejects.toBeInstanceOf(
      PreferredToolNotInSnapshotError,
    );
    expect(server.received.length).toBe(before);
    expect((await m.map({ request: 'add 17 and 25' })).decision).toBe('execute');
    expect(server.received.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
