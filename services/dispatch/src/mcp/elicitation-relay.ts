import { randomBytes } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { JSONRPCErrorResponse, JSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@toolsurface/platform';

/** A client's answer to a request the server sent it: a JSON-RPC result or error. */
export type ClientAnswer = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * Core NATS subjects: the answers to one waiting request, `<prefix>.<session ID>.<request ID>`
 * (both IDs are hex with a fixed prefix, so valid subject tokens), and a session's cancelled calls,
 * `<prefix>.<session ID>.cancelled` (the call's JSON-RPC ID as the payload). Not stored: an answer
 * nobody waits for is refused to the client that sent it.
 */
export const ELICITATION_ANSWER_SUBJECT_PREFIX = '_toolsurface.mcp.elicitation.v1';

/** How long, and how many, cancelled calls are remembered, ms. */
const CANCELLED_KEPT_MS = 5 * 60_000;
const CANCELLED_MAX = 10_000;

/** How long the replica that got an answer waits for the one holding the request to take it, ms. */
const RELAY_TIMEOUT_MS = 5_000;

/** Request IDs: a prefix no client-chosen ID of this endpoint uses, then 16 hex digits. */
const newRequestId = (): string => `ts-elicit-${randomBytes(8).toString('hex')}`;

/** An answer awaited in this replica. */
interface Waiting {
  sessionId: string;
  /** The JSON-RPC ID of the tools/call that waits (as a string). */
  callId: string;
  resolve(answer: ClientAnswer): void;
  cancel(): void;
  subs: Subscription[];
}

/**
 * Requests the endpoint sends to an MCP client in the middle of a tools/call (elicitation/create),
 * and the client's answers. The request goes out on the SSE stream of the tools/call's POST; the
 * client answers with a separate POST of the same session, which a load balancer may send to any
 * replica. The replica holding the request takes the answer directly when it is the one that got
 * it; otherwise the replica that got it relays it over core NATS to the subject of that session
 * and request ID, to which the holder subscribed while it waits (no subscriber: nobody waits).
 */
export class ElicitationRelay {
  private readonly waiting = new Map<string, Waiting>();

  /** Calls the client cancelled lately, `<session> <call ID>` → when (a cancel may come before the call asks). */
  private readonly cancelledCalls = new Map<string, number>();

  /** `nc` undefined: answers and cancellations are taken only by the replica that gets them. */
  constructor(
    private readonly logger: Logger,
    private readonly nc?: NatsConnection,
    private readonly now: () => number = Date.now,
  ) {
    // Every replica hears every cancellation (rare: only calls that may ask a person are cancelled here).
    nc?.subscribe(`${ELICITATION_ANSWER_SUBJECT_PREFIX}.*.cancelled`, {
      callback: (err, m) => {
        if (!err) this.cancelHere(m.subject.split('.').at(-2) ?? '', m.string());
      },
    });
  }

  /**
   * Sends a request with a fresh ID through `send` and resolves with the client's answer. Rejects
   * when `signal` aborts (the tools/call ended), when the client cancels the tools/call `callId`
   * (cancelled, on any replica), or after `timeoutMs`.
   */
  async request(
    sessionId: string,
    callId: string,
    method: string,
    params: Record<string, unknown>,
    send: (message: { jsonrpc: '2.0'; id: string; method: string; params: Record<string, unknown> }) => Promise<void>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ClientAnswer> {
    // Cancelled before it asked: nothing is asked.
    if (this.cancelledCalls.has(`${sessionId} ${callId}`)) throw new Error(`the client cancelled the call before it sent ${method}`);
    const id = newRequestId();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const answered = new Promise<ClientAnswer>((resolve, reject) => {
      const cancel = () => reject(new Error(`the client cancelled the call waiting for ${method}`));
      const entry: Waiting = { sessionId, callId, resolve, cancel, subs: [] };
      this.waiting.set(id, entry);
      if (this.nc) {
        entry.subs.push(
          this.nc.subscribe(`${ELICITATION_ANSWER_SUBJECT_PREFIX}.${sessionId}.${id}`, {
            max: 1,
            callback: (err, m) => {
              if (err) return;
              const answer = parseAnswer(m.data);
              // The reply tells the relaying replica the answer was taken (its client gets 202).
              m.respond(answer ? 'ok' : 'bad');
              if (answer) resolve(answer);
            },
          }),
        );
      }

      timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeoutMs} ms`)), timeoutMs);
      onAbort = () => reject(new Error(`the call waiting for ${method} ended`));
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
    // It may settle while the request is still being sent; it is awaited below.
    answered.catch(() => undefined);
    try {
      // The server has the subscription before the client can answer, whichever replica it answers.
      if (this.nc) await this.nc.flush();
      await send({ jsonrpc: '2.0', id, method, params });
      return await answered;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      for (const sub of this.waiting.get(id)?.subs ?? []) sub.unsubscribe();
      this.waiting.delete(id);
    }
  }

  /**
   * The client cancelled its tools/call `callId` of the session (notifications/cancelled): a wait
   * of that call for an answer ends, in this replica or another, and nothing it asked about runs.
   */
  async cancelled(sessionId: string, callId: string): Promise<void> {
    this.cancelHere(sessionId, callId);
    if (this.nc) {
      this.nc.publish(`${ELICITATION_ANSWER_SUBJECT_PREFIX}.${sessionId}.cancelled`, callId);
      await this.nc.flush();
    }
  }

  private cancelHere(sessionId: string, callId: string): void {
    const now = this.now();
    this.cancelledCalls.set(`${sessionId} ${callId}`, now);
    // Kept a few minutes (a call asks within moments of starting), a bounded number of them.
    for (const [k, at] of this.cancelledCalls) {
      if (now - at < CANCELLED_KEPT_MS && this.cancelledCalls.size <= CANCELLED_MAX) break;
      this.cancelledCalls.delete(k);
    }
    for (const w of this.waiting.values()) if (w.sessionId === sessionId && w.callId === callId) w.cancel();
  }

  /**
   * Delivers a client's answer of the session to the request waiting for it, in this replica or
   * another. False when no request of that session waits for that ID.
   */
  async deliver(sessionId: string, answer: ClientAnswer): Promise<boolean> {
    const id = typeof answer.id === 'string' ? answer.id : '';
    // Only IDs this endpoint made (newRequestId): `ts-elicit-` and 16 hex digits.
    if (!/^ts-elicit-[0-9a-f]{16}$/.test(id)) return false;
    const local = this.waiting.get(id);
    if (local) {
      if (local.sessionId !== sessionId) return false;
      local.resolve(answer);
      return true;
    }
    if (!this.nc) return false;
    try {
      const reply = await this.nc.request(`${ELICITATION_ANSWER_SUBJECT_PREFIX}.${sessionId}.${id}`, JSON.stringify(answer), {
        timeout: RELAY_TIMEOUT_MS,
      });
      return reply.string() === 'ok';
    } catch (err) {
      // No responders: no replica waits for it (answered, timed out, or its call ended).
      this.logger.debug({ err, sessionId, id }, 'an elicitation answer found no waiting request');
      return false;
    }
  }
}

function parseAnswer(data: Uint8Array): ClientAnswer | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(data)) as Partial<ClientAnswer>;
    return v && typeof v === 'object' && ('result' in v || 'error' in v) ? (v as ClientAnswer) : undefined;
  } catch {
    return undefined;
  }
}
