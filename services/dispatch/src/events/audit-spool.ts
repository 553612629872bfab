import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

/** One audit event waiting for the stream: `id` is its Nats-Msg-Id, `data` the encoded ToolCalled. */
export interface SpooledEvent {
  id: string;
  data: Uint8Array;
}

/** How the spool keeps its files. */
export interface AuditSpoolOptions {
  /** AUDIT_SPOOL_DIR: the root; each dispatch process keeps its own sub-directory under it. */
  dir: string;
  /** AUDIT_SPOOL_FSYNC_MS: how often appended records are forced to disk, ms; 0 forces each one before append returns. */
  fsyncIntervalMs: number;
  /**
   * Names the stream the events are for (its creation time): a spool left by a dead process is
   * taken over only by a process writing to the same stream, so events never land in another one.
   */
  streamTag: string;
  /** Records per segment file before the next one starts. */
  segmentRecords?: number;
}

const OWNER_FILE = 'owner.json';
const SEGMENT = /^(\d{8})\.log$/; // segment files: eight-digit sequence number, ".log"

/** Sub-directories opened by this process (two dispatch apps in one process must not take over each other's). */
const openHere = new Set<string>();
let instances = 0;

interface Segment {
  seq: number;
  fd: number;
  /** Ids whose obligation lives in this segment: an unacknowledged event, or a start record with no event yet. */
  pending: Set<string>;
  records: number;
}

/**
 * A durable local queue of audit events: an append-only log in segment files, one JSON line per
 * record ("s": a call about to run, with the event to send if its process dies before the call
 * ends; "e": the call's event; "a": the stream stored it, in the event's segment; "x": the call's
 * event went to a later segment, in the start record's). Starts and events are synchronous
 * writes, so a process killed right after one loses nothing; data reaches the disk within
 * `fsyncIntervalMs` (a machine crash can lose that much). A segment is deleted once every event in
 * it is stored. On open it takes what its own earlier run, or any dead process writing to the same
 * stream, left behind: those events come back from `open()` to be sent again under their ids.
 */
export class AuditSpool {
  private readonly dir: string;
  private current!: Segment;
  private readonly segments = new Map<number, Segment>();
  /** Which segment holds each id's obligation. */
  private readonly where = new Map<string, Segment>();
  private dirty = false;
  private syncing = false;
  /** Marks waiting to be written, by segment: losing them costs only a re-send, so they are batched. */
  private readonly marks = new Map<Segment, string[]>();
  private marksQueued = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly segmentRecords: number;

  constructor(private readonly options: AuditSpoolOptions) {
    this.dir = join(options.dir, `${safe(hostname())}-${process.pid}-${instances++}`);
    this.segmentRecords = options.segmentRecords ?? 10_000;
  }

  /** Creates the directory, takes over what was left behind, and returns those events, oldest first. */
  open(): SpooledEvent[] {
    mkdirSync(this.options.dir, { recursive: true });
    const claimed = this.claimLeftovers();
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname(), stream: this.options.streamTag }));
    openHere.add(this.dir);
    const recovered = claimed.flatMap((d) => readLeftover(d));
    const seen = new Set<string>();
    const out: SpooledEvent[] = [];
    for (const e of recovered) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      out.push(e);
    }
    this.current = this.startSegment(1);
    // Copied into this run's log (forced to disk) before the old files go.
    for (const e of out) this.write('e', e.id, e.data);
    this.sync();
    for (const d of claimed) rmSync(d, { recursive: true, force: true });
    if (this.options.fsyncIntervalMs > 0) {
      this.timer = setInterval(() => this.syncInBackground(), this.options.fsyncIntervalMs);
      this.timer.unref();
    }
    return out;
  }

  /** Records that a call is about to run, with the event that stands for it if this process dies first. Throws when the disk refuses. */
  start(id: string, fallback: Uint8Array): void {
    this.write('s', id, fallback);
  }

  /** Records a call's event (replacing its start record). Throws when the disk refuses. */
  event(id: string, data: Uint8Array): void {
    this.write('e', id, data);
  }

  /** Records that the stream stored event `id`; deletes segments with nothing left to send. */
  stored(id: string): void {
    const seg = this.where.get(id);
    if (!seg) return;
    this.where.delete(id);
    seg.pending.delete(id);
    // In the event's own segment, so the mark goes when the event does. Losing this line costs at
    // most a re-send, which the stream's de-duplication window absorbs.
    this.mark(seg, JSON.stringify({ t: 'a', id }));
    this.release(seg);
  }

  /** Forces written records to disk. */
  sync(): void {
    this.flushMarks();
    if (!this.dirty) return;
    this.dirty = false;
    fdatasyncSync(this.current.fd);
  }

  /** The timer's fsync: on libuv's thread pool, so calls go on meanwhile (the records are already written). */
  private syncInBackground(): void {
    this.flushMarks();
    if (!this.dirty || this.syncing) return;
    this.dirty = false;
    this.syncing = true;
    const fd = this.current.fd;
    fdatasync(fd, () => (this.syncing = false));
  }

  /** Writes the "stored" and "x" marks gathered since the last flush, one write per segment. */
  private flushMarks(): void {
    this.marksQueued = false;
    for (const [seg, lines] of this.marks) {
      if (this.segments.has(seg.seq)) writeSync(seg.fd, lines.join(''));
    }
    this.marks.clear();
  }

  /** Stops the fsync timer and closes the files; what was not stored stays for the next open. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    try {
      this.sync();
    } finally {
      for (const s of this.segments.values()) closeSync(s.fd);
      this.segments.clear();
      openHere.delete(this.dir);
      if (this.where.size === 0) rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private write(t: 's' | 'e', id: string, data: Uint8Array): void {
    if (this.current.records >= this.segmentRecords) {
      const full = this.current;
      this.current = this.startSegment(full.seq + 1);
      this.release(full);
    }
    this.append(this.current, JSON.stringify({ t, id, d: Buffer.from(data).toString('base64') }));
    const before = this.where.get(id);
    this.where.set(id, this.current);
    this.current.pending.add(id);
    if (before && before !== this.current) {
      // The start record's segment no longer stands for this call ("x"), so it may go.
      this.mark(before, JSON.stringify({ t: 'x', id }));
      before.pending.delete(id);
      this.release(before);
    }
    if (this.options.fsyncIntervalMs === 0) this.sync();
  }

  private mark(seg: Segment, line: string): void {
    const lines = this.marks.get(seg);
    if (lines) lines.push(`${line}\n`);
    else this.marks.set(seg, [`${line}\n`]);
    seg.records++;
    if (!this.marksQueued) {
      this.marksQueued = true;
      setImmediate(() => this.flushMarks());
    }
  }

  private append(seg: Segment, line: string): void {
    writeSync(seg.fd, `${line}\n`);
    seg.records++;
    this.dirty = true;
  }

  private startSegment(seq: number): Segment {
    this.sync();
    const seg: Segment = {
      seq,
      fd: openSync(join(this.dir, `${String(seq).padStart(8, '0')}.log`), 'a'),
      pending: new Set(),
      records: 0,
    };
    this.segments.set(seq, seg);
    return seg;
  }

  /** Deletes a segment that is no longer written to and has nothing left to send. */
  private release(seg: Segment): void {
    if (seg === this.current || seg.pending.size > 0 || !this.segments.has(seg.seq)) return;
    this.segments.delete(seg.seq);
    this.marks.delete(seg);
    closeSync(seg.fd);
    rmSync(join(this.dir, `${String(seg.seq).padStart(8, '0')}.log`), { force: true });
  }

  /**
   * Moves every sub-directory left by a process that is gone (or by an earlier app in this one)
   * and written for the same stream into this one's `claimed-*` names; a rename succeeds for one
   * claimant only, so two processes starting together never send the same leftovers twice.
   */
  private claimLeftovers(): string[] {
    const claimed: string[] = [];
    for (const name of readdirSync(this.options.dir)) {
      const dir = join(this.options.dir, name);
      if (dir === this.dir || openHere.has(dir)) continue;
      let owner: { pid?: number; host?: string; stream?: string };
      try {
        owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as typeof owner;
      } catch {
        continue;
      }
      if (owner.stream !== this.options.streamTag) continue;
      if (owner.host !== hostname() && dir !== this.dir) continue;
      if (owner.pid !== process.pid && alive(owner.pid)) continue;
      const to = `${this.dir}.claimed-${randomUUID()}`;
      try {
        renameSync(dir, to);
        claimed.push(to);
      } catch {
        // another process claimed it first
      }
    }
    // A restart that got the same name (a container's pid 1 on the same host) finds its own log.
    if (existsSync(this.dir) && !openHere.has(this.dir)) {
      const to = `${this.dir}.claimed-${randomUUID()}`;
      renameSync(this.dir, to);
      claimed.push(to);
    }
    return claimed;
  }
}

/** The events of a left-behind log not marked stored: the call's event, else its start record, oldest first. */
export function readLeftover(dir: string): SpooledEvent[] {
  const byId = new Map<string, { data?: string; start?: string; stored: boolean }>();
  const files = readdirSync(dir)
    .filter((f) => SEGMENT.test(f))
    .sort();
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      let r: { t?: string; id?: string; d?: string };
      try {
        r = JSON.parse(line) as typeof r;
      } catch {
        continue; // a line cut short by a crash mid-write: it was never acknowledged to anyone
      }
      if (typeof r.id !== 'string') continue;
      const entry = byId.get(r.id) ?? { stored: false };
      if (r.t === 'e' && r.d) entry.data = r.d;
      else if (r.t === 's' && r.d) entry.start = r.d;
      else if (r.t === 'x') entry.start = undefined;
      else if (r.t === 'a') entry.stored = true;
      byId.set(r.id, entry);
    }
  }
  const out: SpooledEvent[] = [];
  for (const [id, e] of byId) {
    const d = e.data ?? e.start;
    if (!e.stored && d) out.push({ id, data: new Uint8Array(Buffer.from(d, 'base64')) });
  }
  return out;
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `s` with characters other than letters, digits, `.`, `_` and `-` as `_` (a directory name). */
function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_');
}
