import type { Logger } from '@toolsurface/platform';
import { newSessionId } from '../domain/mcp';
import { sessionEnded, sessionIntervals, type SessionEnd, type SessionTimeouts } from '../domain/mcp-session-end';
import type { McpSessionRecord, McpSessions } from '../state/mcp-sessions.store';

/** What the sweeper needs of the endpoint. */
export interface SessionExpiryHooks {
  /** Whether this replica holds the session's GET stream (then it keeps the session from looking idle). */
  holdsStream(sessionId: string): boolean;
  /** The session ended (its record is deleted): close its surface. Called once per session across replicas. */
  ended(rec: McpSessionRecord, why: SessionEnd): Promise<void>;
}

/**
 * Ends MCP sessions that no DELETE ended (src/domain/mcp-session-end.ts says when). Every replica
 * sweeps its mirror of the sessions bucket every `sweepMs`; a session found ended is deleted by a
 * compare-and-set at the revision read, so of the replicas that find it at once only one deletes it
 * and closes its surface, and a request that touched it meanwhile keeps it. The bucket's max age
 * cannot do this: nats-server 2.9 leaves no marker when it drops a record, so nobody would hear.
 */
export class SessionExpiry {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly timeouts: SessionTimeouts & { touchMs: number; sweepMs: number };

  /** `timeouts` default to an hour idle and a 30 s grace (MCP_SESSION_IDLE_SECONDS, MCP_STREAM_GRACE_SECONDS). */
  constructor(
    private readonly sessions: McpSessions,
    timeouts: SessionTimeouts | undefined,
    private readonly hooks: SessionExpiryHooks,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const t = timeouts ?? { idleMs: 3_600_000, graceMs: 30_000 };
    this.timeouts = { ...t, ...sessionIntervals(t) };
  }

  /**
   * Records a GET stream of the session opening here (any replica sees it), and returns what to run
   * when the client closes it: record that too, so the session ends if no new stream opens in time.
   */
  async streamOpened(sessionId: string): Promise<() => void> {
    const streamId = newSessionId();
    await this.sessions.streamOpened(sessionId, streamId);
    return () => {
      void this.sessions.streamClosed(sessionId, streamId).catch((err: unknown) => {
        this.logger.warn({ err, sessionId }, 'the close of an MCP GET stream was not recorded');
      });
    };
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((err: unknown) => this.logger.warn({ err }, 'MCP session sweep failed; the next one tries again'))
        .finally(() => (this.sweeping = undefined));
    }, this.timeouts.sweepMs).unref();
  }

  /** Stops sweeping and waits for a sweep in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** One pass over the mirrored sessions. */
  async sweep(): Promise<void> {
    for (const rec of this.sessions.all()) {
      const id = rec.sessionId;
      const now = this.now();
      if (this.hooks.holdsStream(id) && rec.streamClosedAtMs === undefined) {
        if (now - rec.touchedAtMs >= this.timeouts.touchMs) await this.sessions.touch(id);
        continue;
      }
      const why = sessionEnded(rec, now, this.timeouts);
      if (!why) continue;
      const ended = await this.sessions.endIf(id, (cur) => sessionEnded(cur, this.now(), this.timeouts) === why);
      if (!ended) continue;
      this.logger.info({ sessionId: id, why }, 'MCP session ended');
      await this.hooks
        .ended(ended, why)
        .catch((err: unknown) =>
          this.logger.warn(
            { err, sessionId: id, surfaceId: ended.surfaceId },
            'the surface of an ended MCP session was not closed; it expires',
          ),
        );
    }
  }
}
