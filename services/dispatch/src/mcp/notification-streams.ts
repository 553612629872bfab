import type { ServerResponse } from 'node:http';
import { SSE_HEARTBEAT, sseEvent, TOOLS_LIST_CHANGED } from '../domain/mcp';
import type { McpSessionRecord } from '../state/mcp-sessions.store';

interface Stream {
  res: ServerResponse;
  /** The session's change count last notified (or seen when the stream opened). */
  notified: number;
  /** Set when this replica ends the stream (replaced, session deleted, shutdown): not the client's doing. */
  endedHere?: boolean;
}

/**
 * The GET streams this replica holds: one per session (a new GET of the session replaces the old
 * stream). A session record whose change count grew, written by any replica, sends
 * `notifications/tools/list_changed` on its stream; a deleted session ends it. A comment every
 * `heartbeatMs` keeps idle streams open through proxies.
 */
export class NotificationStreams {
  private readonly streams = new Map<string, Stream>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly heartbeatMs: number) {}

  /**
   * Answers a GET with the session's SSE stream and keeps it until the client or the server ends it;
   * `closedByClient` runs when the client (or the network) closes it, not this replica.
   */
  open(session: McpSessionRecord, res: ServerResponse, closedByClient?: () => void): void {
    const id = session.sessionId;
    this.end(this.streams.get(id));
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'Mcp-Session-Id': id,
      'X-Accel-Buffering': 'no',
    });
    // Sends the headers at once: the client's fetch resolves now, not at the first notification.
    res.write(SSE_HEARTBEAT);
    const stream: Stream = { res, notified: session.changes ?? 0 };
    this.streams.set(id, stream);
    res.on('close', () => {
      if (this.streams.get(id) === stream) this.streams.delete(id);
      if (this.streams.size === 0) this.stopHeartbeat();
      if (!stream.endedHere) closedByClient?.();
    });
    this.heartbeat ??= setInterval(() => {
      for (const s of this.streams.values()) s.res.write(SSE_HEARTBEAT);
    }, this.heartbeatMs).unref();
  }

  /** A session record changed (undefined: deleted), on this replica or another. */
  changed(sessionId: string, rec: McpSessionRecord | undefined): void {
    const stream = this.streams.get(sessionId);
    if (!stream) return;
    if (!rec) {
      this.streams.delete(sessionId);
      this.end(stream);
      return;
    }
    const changes = rec.changes ?? 0;
    if (changes <= stream.notified) return;
    stream.notified = changes;
    stream.res.write(sseEvent(TOOLS_LIST_CHANGED));
  }

  /** Whether this replica holds the session's stream. */
  has(sessionId: string): boolean {
    return this.streams.has(sessionId);
  }

  /** How many streams are open (for tests and logs). */
  get size(): number {
    return this.streams.size;
  }

  /** Ends every stream (shutdown): clients open a new one, on another replica if need be. */
  closeAll(): void {
    for (const s of this.streams.values()) this.end(s);
    this.streams.clear();
    this.stopHeartbeat();
  }

  private end(stream: Stream | undefined): void {
    if (!stream) return;
    stream.endedHere = true;
    stream.res.end();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
