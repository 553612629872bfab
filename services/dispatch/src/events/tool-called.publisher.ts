import { randomUUID } from 'node:crypto';
import { PrincipalKind, ToolCalled } from '@toolsurface/proto';
import { Subjects, type EventPublisher, type Logger } from '@toolsurface/platform';
import type { AuditPort, ToolCalledEvent } from '../domain/ports';
import { reusedWriterEncoder } from '../proto-encoding';

// One event per call: encoded into a reused writer rather than a fresh one each time.
const encodeToolCalled = reusedWriterEncoder(ToolCalled.encode);

/**
 * Publishes `toolsurface.tool.called.v1` without holding the call: the publish starts before the
 * response goes out and its ack is awaited in the background; a failure is logged.
 */
export class ToolCalledPublisher implements AuditPort {
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly events: EventPublisher,
    private readonly logger: Logger,
  ) {}

  toolCalled(e: ToolCalledEvent): void {
    const msgId = randomUUID();
    const data = encodeToolCalled({
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
      attemptedName: e.attemptedName ?? '',
      requestBytes: e.requestBytes ?? 0,
    });
    const p: Promise<void> = this.events
      .publish(Subjects.toolCalled, data, msgId)
      .catch((err: unknown) => this.logger.error({ err, msgId, tool: e.toolName, outcome: e.outcome }, 'tool.called publish failed'))
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  /** Waits for every publish still waiting for its ack (before draining the connection). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }
}
