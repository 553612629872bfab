// A local server that speaks the OpenAI chat-completions protocol (POST /v1/chat/completions) with
// a scripted "model": no model runs here, so tests of a model-backed mapper check the protocol and
// our handling of every answer, never the quality of a model's choices.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface ReceivedChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body, or the raw text when it is not JSON */
  body: unknown;
}

/**
 * What the scripted model answers: a chat completion whose message content is `content`, or a raw
 * reply; `open`: the raw body is written and never ended (a stream that does not stop).
 */
export type ScriptedReply =
  { content: string; delayMs?: number } | { status: number; text: string; contentType?: string; delayMs?: number; open?: boolean };

/** The script: the reply to one received request. */
export type ChatScript = (req: ReceivedChatRequest) => ScriptedReply;

/** A running protocol server. */
export interface OpenAIProtocolServer {
  /** base URL to configure a client with, ending in /v1 */
  baseUrl: string;
  /** every request received, oldest first */
  received: ReceivedChatRequest[];
  /** replaces the script */
  setScript(script: ChatScript): void;
  /** stops listening and drops open connections (delayed replies included) */
  close(): Promise<void>;
}

/** A chat completion body carrying `content` as the assistant's message, as the protocol shapes it. */
export function chatCompletion(content: string, model = 'scripted'): Record<string, unknown> {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
  };
}

/** Starts the server on a free loopback port (port 0). Requests to other paths get 404. */
export async function startOpenAIProtocolServer(script: ChatScript): Promise<OpenAIProtocolServer> {
  let current = script;
  const received: ReceivedChatRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text: the test can then see what was sent
      }
      const r: ReceivedChatRequest = { path: req.url ?? '', headers: req.headers, body };
      if (req.method !== 'POST' || r.path !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      received.push(r);
      const reply = current(r);
      const send = (): void => {
        if ('content' in reply) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletion(reply.content)));
        } else {
          res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
          if (reply.open) res.write(reply.text);
          else res.end(reply.text);
        }
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed) send();
        }, reply.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    setScript: (s) => {
      current = s;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
