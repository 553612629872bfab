import { randomUUID } from 'node:crypto';
import { context, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AppError, ReasonCode } from '@toolsurface/core';
import { PrincipalKind, ToolCalled } from '@toolsurface/proto';
import { Subjects, type EventPublisher, type Logger } from '@toolsurface/platform';
import type { AuditPort, ToolCalledEvent } from '../domain/ports';
import { reusedWriterEncoder } from '../proto-encoding';
import type { AuditSpool, SpooledEvent } from './audit-spool';

// One event per call: encoded into a reused writer rather than a fresh one each time.
const encodeToolCalled = reusedWriterEncoder(ToolCalled.encode);

/** How the publisher behaves while the stream does not store events. */
export interface ToolCalledPublisherOptions {
  /**
   * AUDIT_FAIL_CLOSED: refuse calls (UNAVAILABLE) while an event has waited longer than
   * `failClosedAfterMs` for the stream, instead of running them with their events in the spool.
   */
  failClosed?: boolean;
  /** How long an event may wait for the stream before fail-closed refuses calls, ms. */
  failClosedAfterMs?: number;
  /** Publishes in flight at most. */
  window?: number;
  /**
   * How long a new event waits for others before the publishes start, ms (default 2): the events of
   * calls that end meanwhile go to NATS in one write, and their acks come back together. 0: at once.
   */
  batchMs?: number;
}

interface Queued extends SpooledEvent {
  since: number;
  /** The trace context of the call, carried on in the event's headers (ROOT for an event of an earlier run). */
  ctx: Context;
}

/**
 * Delivers `toolsurface.tool.called.v1` through a durable spool: a call about to run is written
 * down (with the event that stands for it should this process die mid-call) before it runs, and
 * its event is written before its result goes back; a background drainer publishes each under a
 * stable Nats-Msg-Id, again and again while the stream does not answer, and marks it stored once
 * acknowledged. Without a spool (unit tests) events go straight to the stream, best effort.
 */
export class ToolCalledPublisher implements AuditPort {
  private readonly queue = new Map<string, Queued>();
  private readonly inflight = new Set<string>();
  private paused = false;
  private backoffMs = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly window: number;
  private idle: Array<() => void> = [];
  private batchTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly spool?: AuditSpool,
    private readonly options: ToolCalledPublisherOptions = {},
  ) {
    this.window = options.window ?? 256;
  }

  /** Opens the spool and queues what an earlier run left unsent. */
  open(): number {
    const left = this.spool?.open() ?? [];
    for (const e of left) this.queue.set(e.id, { ...e, since: Date.now(), ctx: ROOT_CONTEXT });
    if (left.length > 0) this.logger.warn({ events: left.length }, 'sending tool.called events left by an earlier run');
    this.pump();
    return left.length;
  }

  /**
   * Records that a call is about to run; `fallback` is its event should this process die before
   * the call ends. Throws AppError UNAVAILABLE when the record cannot be made durable, or in
   * fail-closed mode while the stream does not store events: the call must then not run.
   */
  toolStarting(fallback: ToolCalledEvent & { eventId: string }): void {
    if (this.options.failClosed && this.streamBehind()) {
      throw new AppError(ReasonCode.UNAVAILABLE, 'the audit stream is not storing events; the call was not run, retry later');
    }
    if (!this.spool) return;
    try {
      this.spool.start(fallback.eventId, encode(fallback));
    } catch (err) {
      this.logger.error({ err }, 'the audit spool refused a record; refusing the call');
      throw new AppError(ReasonCode.UNAVAILABLE, 'the audit record could not be written; the call was not run, retry later');
    }
  }

  toolCalled(e: ToolCalledEvent & { eventId?: string }): void {
    const id = e.eventId ?? randomUUID();
    const data = encode(e);
    try {
      this.spool?.event(id, data);
    } catch (err) {
      // Kept in memory and sent as usual: only a process death before it is stored loses it.
      this.logger.error({ err, msgId: id }, 'the audit spool refused an event; sending it from memory');
    }
    this.queue.set(id, { id, data, since: Date.now(), ctx: context.active() });
    const batchMs = this.options.batchMs ?? 2;
    if (batchMs === 0) this.pump();
    else
      this.batchTimer ??= setTimeout(() => {
        this.batchTimer = undefined;
        this.pump();
      }, batchMs);
  }

  /** True while some event has waited longer than `failClosedAfterMs` (default 2 s) for the stream. */
  streamBehind(): boolean {
    const limit = this.options.failClosedAfterMs ?? 2000;
    const now = Date.now();
    for (const q of this.queue.values()) return now - q.since > limit; // the oldest comes first
    return false;
  }

  /** Events not yet stored by the stream. */
  backlog(): number {
    return this.queue.size;
  }

  /**
   * Waits until every queued event is stored or `timeoutMs` passed (default 5 s); what is left
   * stays in the spool for the next start. Then stops the drainer and closes the spool.
   */
  async flush(timeoutMs = 5000): Promise<void> {
    if (this.queue.size > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        this.idle.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.batchTimer) clearTimeout(this.batchTimer);
    if (this.queue.size > 0) this.logger.warn({ events: this.queue.size }, 'tool.called events left in the spool for the next start');
    this.spool?.close();
  }

  private pump(): void {
    if (this.paused || this.closed) return;
    for (const q of this.queue.values()) {
      if (this.inflight.size >= this.window) break;
      if (this.inflight.has(q.id)) continue;
      this.send(q);
    }
  }

  private send(q: Queued): void {
    this.inflight.add(q.id);
    const published = context.with(q.ctx, () => this.events.publish(Subjects.toolCalled, q.data, q.id));
    published.then(
      () => {
        this.inflight.delete(q.id);
        this.queue.delete(q.id);
        this.backoffMs = 0;
        try {
          this.spool?.stored(q.id);
        } catch (err) {
          this.logger.warn({ err, msgId: q.id }, 'could not mark an audit event stored; it may be sent again (de-duplicated by its id)');
        }
        if (this.queue.size === 0) for (const f of this.idle.splice(0)) f();
        this.pump();
      },
      (err: unknown) => {
        this.inflight.delete(q.id);
        if (this.closed) return;
        if (!this.paused) {
          this.logger.warn({ err, msgId: q.id, backlog: this.queue.size }, 'tool.called publish failed; retrying');
          this.paused = true;
          // 250 ms doubling to 2 s: a leader election takes a few seconds; no event is given up.
          this.backoffMs = Math.min(2000, Math.max(250, this.backoffMs * 2));
          this.retryTimer = setTimeout(() => {
            this.paused = false;
            this.pump();
          }, this.backoffMs);
          this.retryTimer.unref();
        }
      },
    );
  }
}

function encode(e: ToolCalledEvent): Uint8Array {
  return encodeToolCalled({
    surfaceId: e.surfaceId,
    principal: e.principal && {
      kind: e.principal.kind === 'agent' ? PrincipalKind.PRINCIPAL_KIND_AGENT : PrincipalKind.PRINCIPAL_KIND_GATEWAY,
      id: e.principal.id,
    },
    orchestrator: e.orchestrator,
    snapshotId: e.snapshotId,
    calledName: e.calledName,
    toolName: e.toolName,
    capability: e.capability,
    via: e.via,
    outcome: e.outcome,
    reason: e.reason,
    admission: e.admission,
    durationMs: e.durationMs,
    callId: e.callId,
    atMs: e.atMs,
    person: e.person ?? '',
    attemptedName: e.attemptedName ?? '',
    requestBytes: e.requestBytes ?? 0,
  });
}
