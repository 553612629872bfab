import type { PrincipalRef } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import type { WatchedBucket } from '@toolsurface/state';
import { afterChange, afterList, type ChangeCounters } from '../domain/mcp';
import type { SessionTimes } from '../domain/mcp-session-end';

/** One session of the MCP endpoint (bucket `toolsurface_mcp_sessions`, key = session ID). */
export interface McpSessionRecord extends ChangeCounters, SessionTimes {
  sessionId: string;
  principal: PrincipalRef;
  /** The surface the session sees; a new one when tools/list finds it stale or expired. */
  surfaceId: string;
  /** Negotiated at initialize. */
  protocolVersion: string;
  /** The MCP key that opened the session ("" when the endpoint has no keys); only it may use the session. */
  keyId: string;
  createdAtMs: number;
  /** Last time the record was written by a request or by the replica holding its GET stream; idleness counts from here. */
  touchedAtMs: number;
  /** The client declared form elicitation at initialize (src/mcp/elicitation.ts may ask its person). */
  elicitation?: boolean;
}

/** Compare-and-set attempts before a write gives up (each conflict means another writer got there first). */
const CAS_ATTEMPTS = 8;

/**
 * Sessions in NATS, mirrored in memory by a KV watch: any replica serves any request of a session,
 * and a restart loses none. A session used after `touchMs` is written again, so its idleness is
 * known to every replica without a JetStream round trip on every request. Every write of an
 * existing record is a compare-and-set on its revision, so a touch, a change mark and a new surface
 * written by different replicas at once never undo each other.
 */
export class McpSessions {
  constructor(
    private readonly bucket: WatchedBucket<McpSessionRecord>,
    private readonly logger: Logger,
    private readonly touchMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The session of a request, read through to NATS when this replica has not seen it yet (opened
   * elsewhere a moment ago). A request is use: an old record is written again, and a GET stream's
   * close recorded earlier is cleared (the client is still there, it just has no stream open; the
   * idle timeout applies to it from now on).
   */
  async get(sessionId: string): Promise<McpSessionRecord | undefined> {
    await this.bucket.getFresh(sessionId);
    // Value and revision read together, so the touch below is conditional on what was read.
    const rec = this.bucket.get(sessionId);
    const revision = this.bucket.revision(sessionId);
    if (rec && (rec.streamClosedAtMs !== undefined || this.now() - rec.touchedAtMs >= this.touchMs)) {
      const { streamClosedAtMs: _closed, ...rest } = rec;
      // In the background: the request does not wait for it. A conflict means someone else wrote it just now.
      void this.bucket.update(sessionId, { ...rest, touchedAtMs: this.now() }, revision).catch((err: unknown) => {
        if (!isConflict(err)) this.logger.warn({ err, sessionId }, 'an MCP session record was not refreshed');
      });
    }
    return rec;
  }

  /** Writes a new session. */
  async put(rec: McpSessionRecord): Promise<void> {
    await this.bucket.put(rec.sessionId, rec);
  }

  async delete(sessionId: string): Promise<void> {
    await this.bucket.delete(sessionId);
  }

  /** Every session this replica's mirror holds. */
  all(): McpSessionRecord[] {
    return this.bucket.entries().map(([, v]) => v);
  }

  /** Called on every change of a session record (value undefined once deleted), whichever replica wrote it. */
  onChange(fn: (sessionId: string, rec: McpSessionRecord | undefined) => void): void {
    this.bucket.onChange(fn);
  }

  /** Records a change of the session's tools: it becomes stale. False when the session is gone. */
  async markChanged(sessionId: string): Promise<boolean> {
    return this.modify(sessionId, (cur) => ({ ...cur, ...afterChange(cur), touchedAtMs: this.now() }));
  }

  /**
   * Records the surface tools/list opened for `seen` (the record the request read): the session is
   * no longer stale unless a change was recorded since; `reopened` when the old surface had expired.
   */
  async replaceSurface(seen: McpSessionRecord, surfaceId: string, reopened: boolean): Promise<boolean> {
    return this.modify(seen.sessionId, (cur) => ({
      ...cur,
      surfaceId,
      ...afterList(cur, seen.changes ?? 0, reopened),
      touchedAtMs: this.now(),
    }));
  }

  /** A GET stream of the session opened (on any replica): the session is in use while it lasts. */
  async streamOpened(sessionId: string, streamId: string): Promise<boolean> {
    return this.modify(sessionId, (cur) => {
      const { streamClosedAtMs: _closed, ...rest } = cur;
      return { ...rest, streamId, touchedAtMs: this.now() };
    });
  }

  /** The client closed stream `streamId`; recorded only while it is still the session's latest stream. */
  async streamClosed(sessionId: string, streamId: string): Promise<boolean> {
    return this.modify(sessionId, (cur) =>
      cur.streamId === streamId && cur.streamClosedAtMs === undefined ? { ...cur, streamClosedAtMs: this.now() } : undefined,
    );
  }

  /** Writes the record again so the session does not look idle (its GET stream is held here). */
  async touch(sessionId: string): Promise<boolean> {
    return this.modify(sessionId, (cur) => ({ ...cur, touchedAtMs: this.now() }));
  }

  /**
   * Deletes the session if `ended` still holds for its record at the revision this replica has: one
   * replica of several ending the same session wins, the others get undefined (as when a request
   * touched it meanwhile). Resolves with the record deleted.
   */
  async endIf(sessionId: string, ended: (rec: McpSessionRecord) => boolean): Promise<McpSessionRecord | undefined> {
    const rec = this.bucket.get(sessionId);
    const revision = this.bucket.revision(sessionId);
    if (!rec || !ended(rec)) return undefined;
    try {
      await this.bucket.delete(sessionId, revision);
      return rec;
    } catch (e) {
      if (!isConflict(e)) throw e;
      // Written or deleted elsewhere: the mirror catches up, the next sweep decides again.
      await this.bucket.refresh(sessionId);
      return undefined;
    }
  }

  /**
   * Compare-and-set of a record, read again after each conflict. False when the session is gone or
   * `next` returns undefined (nothing to write).
   */
  private async modify(sessionId: string, next: (cur: McpSessionRecord) => McpSessionRecord | undefined): Promise<boolean> {
    await this.bucket.getFresh(sessionId);
    for (let attempt = 1; ; attempt++) {
      // Value and revision read together from the mirror, then written only if still at that revision.
      const cur = this.bucket.get(sessionId);
      if (!cur) return false;
      const value = next(cur);
      if (!value) return false;
      try {
        await this.bucket.update(sessionId, value, this.bucket.revision(sessionId));
        return true;
      } catch (e) {
        if (!isConflict(e) || attempt >= CAS_ATTEMPTS) throw e;
        await this.bucket.refresh(sessionId);
      }
    }
  }
}

/** Is `e` the server's answer to a compare-and-set that lost (another write came first)? */
function isConflict(e: unknown): boolean {
  return /wrong last sequence|key exists/i.test((e as Error)?.message ?? '');
}
