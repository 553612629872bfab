import type { PrincipalRef } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import type { WatchedBucket } from '@toolsurface/state';
import { afterChange, afterList, type ChangeCounters } from '../domain/mcp';

/** One session of the MCP endpoint (bucket `toolsurface_mcp_sessions`, key = session ID). */
export interface McpSessionRecord extends ChangeCounters {
  sessionId: string;
  principal: PrincipalRef;
  /** The surface the session sees; a new one when tools/list finds it stale or expired. */
  surfaceId: string;
  /** Negotiated at initialize. */
  protocolVersion: string;
  /** The MCP key that opened the session ("" when the endpoint has no keys); only it may use the session. */
  keyId: string;
  createdAtMs: number;
  /** Last time the record was written; the bucket's max age counts from here. */
  touchedAtMs: number;
}

/** Compare-and-set attempts before a write gives up (each conflict means another writer got there first). */
const CAS_ATTEMPTS = 8;

/**
 * Sessions in NATS, mirrored in memory by a KV watch: any replica serves any request of a session,
 * and a restart loses none. A session used after `touchMs` is written again, so the bucket's max
 * age works as an idle timeout without a JetStream round trip on every request. Every write of an
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

  /** The session, read through to NATS when this replica has not seen it yet (opened elsewhere a moment ago). */
  async get(sessionId: string): Promise<McpSessionRecord | undefined> {
    await this.bucket.getFresh(sessionId);
    // Value and revision read together, so the touch below is conditional on what was read.
    const rec = this.bucket.get(sessionId);
    const revision = this.bucket.revision(sessionId);
    if (rec && this.now() - rec.touchedAtMs >= this.touchMs) {
      // In the background: the request does not wait for it. A conflict means someone else wrote it just now.
      void this.bucket.update(sessionId, { ...rec, touchedAtMs: this.now() }, revision).catch((err: unknown) => {
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

  /** Compare-and-set of a record, read again after each conflict. False when the session is gone. */
  private async modify(sessionId: string, next: (cur: McpSessionRecord) => McpSessionRecord): Promise<boolean> {
    await this.bucket.getFresh(sessionId);
    for (let attempt = 1; ; attempt++) {
      // Value and revision read together from the mirror, then written only if still at that revision.
      const cur = this.bucket.get(sessionId);
      if (!cur) return false;
      try {
        await this.bucket.update(sessionId, next(cur), this.bucket.revision(sessionId));
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
