/**
 * When an MCP session ends without a DELETE. A session ends when it is idle (no request, and no
 * GET stream held open, for `idleMs`: a replica holding the stream writes the record again while it
 * lasts), or when its GET stream closed from the client's side and no new one opened within
 * `graceMs` (0: a closed stream alone never ends it). The grace covers the SDK's client, which
 * opens the stream again after 1 s and 1.5 s when it drops, and a load balancer moving it to
 * another replica.
 */

/** The part of a session record these rules read. */
export interface SessionTimes {
  /** Last write of the record (a request, at most once per touch interval, or the stream's holder). */
  touchedAtMs: number;
  /** The ID of the session's latest GET stream, absent before one opened. */
  streamId?: string;
  /** When that stream closed from the client's side; absent while it is open or before one opened. */
  streamClosedAtMs?: number;
}

/** Why a session ends: `idle` or `stream-closed`. */
export type SessionEnd = 'idle' | 'stream-closed';

export interface SessionTimeouts {
  idleMs: number;
  /** 0: the stream closing does not end the session (only the idle timeout does). */
  graceMs: number;
}

/** Whether the session has ended at `nowMs`, and why; undefined while it lives. */
export function sessionEnded(rec: SessionTimes, nowMs: number, t: SessionTimeouts): SessionEnd | undefined {
  if (t.graceMs > 0 && rec.streamClosedAtMs !== undefined && nowMs - rec.streamClosedAtMs >= t.graceMs) return 'stream-closed';
  if (nowMs - rec.touchedAtMs >= t.idleMs) return 'idle';
  return undefined;
}

/**
 * The intervals that follow from the timeouts, ms: a session in use is written again once its record
 * is `touchMs` old (at most a quarter of the idle timeout, and at most a minute, so that a session
 * in use never looks idle and an idle one ends within that much of `idleMs`); each replica looks
 * for ended sessions every `sweepMs` (at most a quarter of the idle timeout, half the grace, 30 s;
 * at least 250 ms).
 */
export function sessionIntervals(t: SessionTimeouts): { touchMs: number; sweepMs: number } {
  const touchMs = Math.max(1, Math.min(60_000, Math.floor(t.idleMs / 4)));
  const bounds = [30_000, Math.floor(t.idleMs / 4), ...(t.graceMs > 0 ? [Math.floor(t.graceMs / 2)] : [])];
  return { touchMs, sweepMs: Math.max(250, Math.min(...bounds)) };
}
