import type { PrincipalRef } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import type { WatchedBucket } from '@toolsurface/state';

/** One session of the MCP endpoint (bucket `toolsurface_mcp_sessions`, key = session ID). */
export interface McpSessionRecord {
  sessionId: string;
  principal: PrincipalRef;
  /** The surface the session sees; a new one when tools/list finds it expired. */
  surfaceId: string;
  /** Negotiated at initialize. */
  protocolVersion: string;
  /** The MCP key that opened the session ("" when the endpoint has no keys); only it may use the session. */
  keyId: string;
  createdAtMs: number;
  /** Last time the record was written; the bucket's max age counts from here. */
  touchedAtMs: number;
}

/**
 * Sessions in NATS, mirrored in memory by a KV watch: any replica serves any request of a session,
 * and a restart loses none. A session used after `touchMs` is written again, so the bucket's max
 * age works as an idle timeout without a JetStream round trip on every request.
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
    const rec = await this.bucket.getFresh(sessionId);
    if (rec && this.now() - rec.touchedAtMs >= this.touchMs) {
      // In the background: the request does not wait for it.
      void this.bucket
        .put(sessionId, { ...rec, touchedAtMs: this.now() })
        .catch((err: unknown) => this.logger.warn({ err, sessionId }, 'an MCP session record was not refreshed'));
    }
    return rec;
  }

  async put(rec: McpSessionRecord): Promise<void> {
    await this.bucket.put(rec.sessionId, rec);
  }

  async delete(sessionId: string): Promise<void> {
    await this.bucket.delete(sessionId);
  }
}
