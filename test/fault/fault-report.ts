// What the fault suite counts in one phase, and its table: callers' outcomes, the calls the
// backend ran, and the tool.called events in the stream, compared by call ID.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM, Subjects } from '@toolsurface/platform';
import { ToolCalled } from '@toolsurface/proto';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the spool is read as dispatch reads it when taking it over
import { readLeftover } from '../../services/dispatch/src/events/audit-spool';

/** One tool.called event in the stream. */
export interface AuditEvent {
  callId: string;
  msgId: string;
  outcome: string;
  reason: string;
}

/** How long a read waits for the next event before it ends, ms. */
const READ_IDLE_MS = 10_000;

/**
 * Reads the stream's tool.called events after `fromSeq`; returns them and the sequence of the last
 * one read, where the next read starts. Never the stream's last sequence: the read's consumer may
 * sit on a replica that has not yet stored the stream's last messages (one catching up after a
 * restart), and a read that stopped at that replica's end must not skip what it has not seen.
 */
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
  // An ordered consumer sees only the filtered subject: stop at the stream's last sequence, when
  // nothing after it is pending on the consumer's replica, or when nothing came for READ_IDLE_MS
  // (no tool.called event after `fromSeq` yet).
  let lastAt = Date.now();
  const idle = setInterval(() => {
    if (Date.now() - lastAt > READ_IDLE_MS) void messages.close();
  }, 500);
  for await (const m of messages) {
    lastAt = Date.now();
    const e = ToolCalled.decode(m.data);
    events.push({ callId: e.callId, msgId: m.headers?.get('Nats-Msg-Id') ?? '', outcome: e.outcome, reason: e.reason });
    lastSeq = m.seq;
    if (m.seq >= last || m.info.pending === 0) break;
  }
  clearInterval(idle);
  await messages.close();
  return { events, lastSeq };
}

/**
 * Call IDs whose events a dispatch spool under `spoolDir` still holds unacknowledged (read as a
 * dispatch taking the spool over would: readLeftover of each process's sub-directory). A call that
 * ran without an event in the stream and is not here was acknowledged by the stream (its segment is
 * gone) or never reached the spool.
 */
export function spooledCallIds(spoolDir: string): Set<string> {
  const dirs = existsSync(spoolDir) ? readdirSync(spoolDir, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  return new Set(dirs.flatMap((d) => readLeftover(join(spoolDir, d.name)).map((e) => ToolCalled.decode(e.data).callId)));
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
