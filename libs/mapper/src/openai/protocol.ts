/**
 * The OpenAI chat-completions protocol as the model mapper speaks it: one POST
 * {baseUrl}/chat/completions with the candidates and a strict JSON-schema response format, and the
 * reading of the answer. Plain fetch (Node's undici): the `openai` package's current major needs
 * Node 22, this runtime is Node 20, and one POST needs no client library.
 */
import { carriedByJson, isObj } from '@toolsurface/analysis';
import { argumentValidator } from '../schema-check.js';
import type { MapperTool } from '../types.js';

/** Why a model answer could not be used; each is counted and logged, and the rule engine answers. */
export type ModelFailureKind =
  | 'unreachable'
  | 'timeout'
  | 'http_status'
  | 'bad_response'
  | 'malformed_output'
  | 'schema_violation'
  | 'tool_not_offered'
  | 'invalid_arguments'
  | 'paused';

/** Failures of the endpoint rather than of one answer: they count towards a pause (pause.ts). */
export const ENDPOINT_FAILURES: ReadonlySet<ModelFailureKind> = new Set(['unreachable', 'timeout', 'http_status', 'bad_response']);

/** A model answer that could not be used. `message` never holds the API key nor the response body. */
export class ModelAnswerError extends Error {
  readonly kind: ModelFailureKind;
  constructor(kind: ModelFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelAnswerError';
    this.kind = kind;
  }
}

/** What the model chose: a candidate's name or null (none serves), the arguments, its own confidence. */
export interface ModelAnswer {
  tool: string | null;
  arguments: Record<string, unknown>;
  selfConfidence: number;
}

/** Longest tool description sent; long ones are cut (the schema says what the arguments are). */
export const DESCRIPTION_MAX_CHARS = 1000;

/**
 * The answer's schema: strict structured output needs every property required and no open
 * objects, so the arguments travel as JSON text (as the protocol's own tool calls do) and are
 * parsed and checked against the tool's schema here.
 */
export function answerSchema(names: readonly string[] | undefined): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['tool', 'arguments_json', 'confidence'],
    properties: {
      tool: {
        type: ['string', 'null'],
        ...(names ? { enum: [...names, null] } : {}),
        description: 'name of the one candidate tool that serves the request, or null when none does',
      },
      arguments_json: { type: 'string', description: 'the arguments of that tool as a JSON object text; "{}" when tool is null' },
      confidence: { type: 'number', minimum: 0, maximum: 1, description: 'how sure you are that this call is what the user asked for' },
    },
  };
}

const INSTRUCTIONS = [
  'You map a user request onto one tool call.',
  'Choose exactly one of the candidate tools, or null when none of them serves the request.',
  'Fill arguments only with values the request or context states; copy them as written.',
  'Leave out any required value the request does not give: never guess or invent one.',
].join(' ');

/** The chat-completions request body. */
export function chatRequestBody(
  model: string,
  candidates: readonly MapperTool[],
  request: string,
  context: unknown,
  today: Date,
): Record<string, unknown> {
  const tools = candidates.map((t) => ({
    name: t.name,
    description: typeof t.description === 'string' ? t.description.slice(0, DESCRIPTION_MAX_CHARS) : '',
    input_schema: t.inputSchema ?? {},
  }));
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: `${INSTRUCTIONS} Today is ${today.toISOString().slice(0, 10)}.` },
      { role: 'user', content: JSON.stringify({ request, context: context ?? null, candidate_tools: tools }) },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'tool_choice', strict: true, schema: answerSchema(candidates.map((t) => t.name)) },
    },
  };
}

/** Largest response body read. */
export const RESPONSE_MAX_BYTES = 1024 * 1024;

/** Endpoint settings of one call. */
export interface Endpoint {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * A response body as UTF-8 text, read up to `max` bytes: past them ModelAnswerError, and the rest is
 * not read (a body without content-length that never ends would otherwise fill memory until the timeout).
 */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new ModelAnswerError('bad_response', `response body over ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** POSTs the body and returns the assistant message's content; throws ModelAnswerError. */
export async function postChat(endpoint: Endpoint, body: Record<string, unknown>): Promise<string> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  let text: string;
  let status: number;
  try {
    const res = await (endpoint.fetch ?? fetch)(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    status = res.status;
    // an answer is a few hundred bytes; a huge body is a wrong endpoint, not an answer to read whole
    if (Number(res.headers.get('content-length') ?? 0) > RESPONSE_MAX_BYTES) {
      await res.body?.cancel();
      throw new ModelAnswerError('bad_response', `response body over ${RESPONSE_MAX_BYTES} bytes`);
    }
    text = await readCapped(res, RESPONSE_MAX_BYTES);
  } catch (e) {
    if (e instanceof ModelAnswerError) throw e;
    if (signal.aborted) throw new ModelAnswerError('timeout', `no answer within ${endpoint.timeoutMs} ms`, { cause: e });
    const cause = (e as { cause?: { code?: string } })?.cause?.code ?? (e as Error)?.message ?? 'fetch failed';
    throw new ModelAnswerError('unreachable', `endpoint not reachable (${cause})`, { cause: e });
  }
  if (status < 200 || status > 299) throw new ModelAnswerError('http_status', `endpoint answered HTTP ${status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ModelAnswerError('bad_response', 'response body is not JSON');
  }
  const choice = isObj(parsed) && Array.isArray(parsed['choices']) ? parsed['choices'][0] : undefined;
  const message = isObj(choice) ? choice['message'] : undefined;
  if (isObj(message) && typeof message['refusal'] === 'string' && message['refusal'] !== '')
    throw new ModelAnswerError('malformed_output', 'the model refused to answer');
  if (!isObj(message) || typeof message['content'] !== 'string')
    throw new ModelAnswerError('bad_response', 'response has no choices[0].message.content');
  return message['content'];
}

const checkAnswer = argumentValidator(answerSchema(undefined));

/** Reads the message content into an answer; throws ModelAnswerError for malformed or schema-violating output. */
export function readAnswer(content: string, offered: ReadonlySet<string>): ModelAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new ModelAnswerError('malformed_output', 'the message content is not JSON');
  }
  const problems = checkAnswer(parsed);
  if (problems)
    throw new ModelAnswerError(
      'schema_violation',
      `the answer breaks its schema: ${problems.map((p) => `${p.pointer || '/'} ${p.message}`).join('; ')}`,
    );
  const a = parsed as { tool: string | null; arguments_json: string; confidence: number };
  if (a.tool !== null && !offered.has(a.tool))
    throw new ModelAnswerError('tool_not_offered', `the model chose ${JSON.stringify(a.tool.slice(0, 80))}, which was not offered`);
  let args: unknown;
  try {
    args = JSON.parse(a.arguments_json);
  } catch {
    throw new ModelAnswerError('malformed_output', 'arguments_json is not JSON');
  }
  if (!isObj(args)) throw new ModelAnswerError('invalid_arguments', 'arguments_json is not a JSON object');
  // ("1e400" parses to Infinity, which the schema check takes for a number and JSON sends on as null)
  if (!carriedByJson(args)) throw new ModelAnswerError('invalid_arguments', 'arguments_json holds a number past the largest JSON number');
  return { tool: a.tool, arguments: args, selfConfidence: a.confidence };
}
