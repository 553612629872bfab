import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '@toolsurface/platform';
import { startNatsServer, type TestProcess } from '../testing/processes';
import { ElicitationRelay, type ClientAnswer } from './elicitation-relay';

// Two dispatch replicas' relays, each on its own connection to a real nats-server: the client's
// answer to an elicitation reaches the call waiting for it whichever replica got the answer.

const logger = pino({ level: 'silent' });
const SESSION = `mcp_${'a'.repeat(32)}`;
const OTHER_SESSION = `mcp_${'b'.repeat(32)}`;
let nats: TestProcess;
const conns: NatsConnection[] = [];
let holder: ElicitationRelay;
let other: ElicitationRelay;

beforeAll(async () => {
  nats = await startNatsServer();
  for (let i = 0; i < 2; i++) conns.push(await connectNats(`nats://127.0.0.1:${nats.port}`, `replica-${i}`));
  holder = new ElicitationRelay(logger, conns[0]);
  other = new ElicitationRelay(logger, conns[1]);
});
afterAll(async () => {
  for (const nc of conns) await nc.drain().catch(() => undefined);
  await nats?.stop();
});

let calls = 0;

/** Starts a request of tools/call `callId` (a fresh one by default) on the holder; resolves with its ID once sent, and with the answer (or the error). */
async function waiting(signal = new AbortController().signal, timeoutMs = 20_000, callId = `call-${++calls}`) {
  let sent!: (id: string) => void;
  const id = new Promise<string>((r) => (sent = r));
  const answer = holder
    .request(SESSION, callId, 'elicitation/create', { message: 'run it?' }, async (m) => sent(m.id), signal, timeoutMs)
    .then(
      (a) => ({ a }),
      (e: Error) => ({ e }),
    );
  return { id: await id, answer };
}

const accept = (id: string): ClientAnswer => ({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } });

describe('ElicitationRelay', () => {
  it('hands an answer to the call waiting in the same replica', async () => {
    const w = await waiting();
    expect(w.id).toMatch(/^ts-elicit-[0-9a-f]{16}$/);
    expect(await holder.deliver(SESSION, accept(w.id))).toBe(true);
    expect(await w.answer).toEqual({ a: accept(w.id) });
  });

  it('relays an answer posted to another replica to the one holding the call', async () => {
    const w = await waiting();
    expect(await other.deliver(SESSION, accept(w.id))).toBe(true);
    expect(await w.answer).toEqual({ a: accept(w.id) });
    // Answered once: a second answer finds nobody waiting.
    expect(await other.deliver(SESSION, accept(w.id))).toBe(false);
  });

  it('refuses an answer of another session, an ID nobody waits for, or one it never made', async () => {
    const w = await waiting();
    expect(await other.deliver(OTHER_SESSION, accept(w.id))).toBe(false);
    expect(await holder.deliver(OTHER_SESSION, accept(w.id))).toBe(false);
    expect(await other.deliver(SESSION, accept('ts-elicit-0123456789abcdef'))).toBe(false);
    expect(await other.deliver(SESSION, accept('1'))).toBe(false);
    // Still waiting for its own answer.
    expect(await other.deliver(SESSION, accept(w.id))).toBe(true);
    expect(await w.answer).toEqual({ a: accept(w.id) });
  });

  it('gives up when the client cancels the call, on this replica or another, and only that call', async () => {
    for (const [relay, callId] of [
      [holder, '7'],
      [other, '8'],
    ] as const) {
      const w = await waiting(undefined, undefined, callId);
      await relay.cancelled(SESSION, 'another-call');
      await relay.cancelled(OTHER_SESSION, callId);
      await relay.cancelled(SESSION, callId);
      expect(await w.answer).toEqual({ e: expect.objectContaining({ message: expect.stringMatching(/client cancelled/) }) });
      expect(await other.deliver(SESSION, accept(w.id))).toBe(false);
    }
  });

  it('remembers a cancellation that comes before the call asks', async () => {
    await other.cancelled(SESSION, '9');
    // (the holder heard it once the publish reached the server and came back to its connection)
    await conns[0].flush();
    let sent = 0;
    const asked = holder.request(SESSION, '9', 'elicitation/create', {}, async () => void sent++, new AbortController().signal, 20_000);
    await expect(asked).rejects.toThrow(/cancelled the call before it sent/);
    expect(sent).toBe(0);
  });

  it('gives up when the call ends, or when nobody answers in time', async () => {
    const ended = new AbortController();
    const w = await waiting(ended.signal);
    ended.abort();
    expect(await w.answer).toEqual({ e: expect.objectContaining({ message: expect.stringMatching(/ended/) }) });
    expect(await other.deliver(SESSION, accept(w.id))).toBe(false);
    const late = await waiting(undefined, 50);
    expect(await late.answer).toEqual({ e: expect.objectContaining({ message: expect.stringMatching(/no answer .* within 50 ms/) }) });
  });
});
