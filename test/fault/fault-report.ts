// What the fault suite counts in one phase, and its table: callers' outcomes, the calls the
// backend ran, and the tool.called events in the stream, compared by call ID.
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM, Subjects } from '@toolsurface/platform';
import { ToolCalled } from '@toolsurface/proto';

/** One tool.called event in the stream. */
export interface AuditEvent {
  callId: string;
  msgId: string;
  outcome: string;
  reason: string;
}

/** Reads the stream's tool.called events after `fromSeq`; returns them and the last sequence read. */
export async function readAudit(nc: NatsConnection, fromSeq: number): Promise<{ events: AuditEvent[]; lastSeq: number }> {
  const jsm = await jetstreamManager(nc, { timeout: 10_000 });
  const last = (await jsm.streams.info(STREAM)).state.last_seq;
  if (last <= fromSeq) return { events: [], lastSeq: fromSeq };
  const consumer = await jetstream(nc, { timeout: 10_000 }).consumers.get(STREAM, {
    filter_subjects: Subjects.toolCalled,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: fromSeq + 1,
  });
  const events: AuditEvent[] = [];
  let lastSeq = fromSeq;
  const messages = await consumer.consume({ max_messages: 1000 });
  // An ordered consumer sees only the filtered subject: stop at the stream's last sequence, or when
  // nothing after it is pending.
  const stopAt = setTimeout(() => void messages.close(), 30_000);
  for await (const m of messages) {
    const e = ToolCalled.decode(m.data);
    events.push({ callId: e.callId, msgId: m.headers?.get('Nats-Msg-Id') ?? '', outcome: e.outcome, reason: e.reason });
    lastSeq = m.seq;
    if (m.seq >= last || m.info.pending === 0) break;
  }
  clearTimeout(stopAt);
  await messages.close();
  return { events, lastSeq: Math.max(lastSeq, last) };
}

/** What one fault phase measured. */
export interface FaultRow {
  fault: string;
  /** Calls the callers made (each with its own call ID). */
  calls: number;
  /** Calls that came back as a result (error results included). */
  answered: number;
  /** Calls the backend ran (unique call IDs it recorded). */
  ran: number;
  /** Errors callers saw, by gRPC status name or result reason. */
  errors: Record<string, number>;
  /** Unique call IDs of this phase in the stream. */
  audited: number;
  /** Calls that ran with no audit event. */
  ranWithoutEvent: number;
  /** Call IDs stored more than once. */
  duplicates: number;
  /** Longest time a caller saw no successful call, from the fault until calls succeeded again, ms. */
  recoveryMs: number;
}
