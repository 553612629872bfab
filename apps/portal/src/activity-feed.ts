import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import { connectNats, STREAM, Subjects, type NatsAuth } from '@toolsurface/platform';
import { ToolCalled } from '@toolsurface/proto';
import { ActivityStore, entryOf, type ActivityBounds } from './activity-ring';
import type { ActivityStatus, ActivityView } from './activity-types';

/** Where the activity comes from and how much of it is kept. */
export interface ActivityConfig extends ActivityBounds {
  /** Comma-separated NATS URLs. */
  natsUrl: string;
  nats: NatsAuth;
  /** At start (and after the stream was replaced), the last this-many messages of the stream are read; newer ones as they come. */
  replay: number;
}

/** How long to wait before connecting again after NATS or the stream was not there. */
const RETRY_MS = 5000;

/** How long stop() waits for the reader to end, ms. */
const STOP_WAIT_MS = 2000;

/**
 * The `tool.called` events of the TOOLSURFACE stream, read by an ordered consumer (no durable
 * state on the server, nothing to clean up) into a bounded per-principal store. The subject does
 * not carry the principal, so every event is read and sorted here. Runs in the background: the
 * portal serves its pages whether NATS is there or not, and this reports which.
 */
export class ActivityFeed {
  readonly store: ActivityStore;
  private status: ActivityStatus = 'connecting';
  private message = 'connecting to NATS';
  private nc: NatsConnection | undefined;
  private messages: ConsumerMessages | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** Stream sequence of the last event read: a reconnect resumes after it rather than replaying. */
  private lastSeq = 0;
  /** Events read so far: numbers the entries, unique even across a re-created stream. */
  private read = 0;
  /** When the stream read was created: another value means it was re-created since. */
  private streamCreated = '';
  /** Stream sequence of the newest tool call when reading (re)started. */
  private replayUntil = 0;

  constructor(private readonly config: ActivityConfig) {
    this.store = new ActivityStore(config);
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.messages?.close().catch(() => undefined);
    await this.nc?.close().catch(() => undefined);
    // A first connect to an address that never answers takes the client's 20 s timeout: the portal does not wait for it.
    await Promise.race([this.running, new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
  }

  /** A principal's recent calls ("agent:ID"), newest first, with the feed's status. */
  view(principal: string, refusalsOnly: boolean): ActivityView {
    const { perPrincipal, principals, replay } = this.config;
    return {
      status: this.status,
      message: this.message,
      bounds: { perPrincipal, principals, replay },
      refusalsOnly,
      calls: this.store.recent(principal, refusalsOnly),
    };
  }

  private set(status: ActivityStatus, message: string): void {
    this.status = status;
    this.message = message;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.readOnce();
      } catch (e) {
        if (this.stopped) break;
        this.set('unavailable', `cannot read tool calls from NATS at ${this.config.natsUrl}: ${(e as Error).message}`);
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, RETRY_MS);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** Connects when not connected, then reads until the consumer ends (stream deleted, stop()). */
  private async readOnce(): Promise<void> {
    if (!this.nc || this.nc.isClosed()) {
      this.set('connecting', `connecting to NATS at ${this.config.natsUrl}`);
      const nc = await connectNats(this.config.natsUrl, 'toolsurface-portal', this.config.nats);
      // stop() may have come while connecting (it does not wait for a slow first connect).
      if (this.stopped) {
        await nc.close();
        return;
      }
      this.nc = nc;
      void this.watchConnection(nc);
    }
    const jsm = await jetstreamManager(this.nc);
    let info;
    try {
      info = await jsm.streams.info(STREAM);
    } catch (e) {
      throw new Error(/not found/i.test((e as Error).message) ? `no ${STREAM} stream yet (no service has started)` : (e as Error).message);
    }
    const state = info.state;
    // A stream re-created since (NATS lost its store; its sequence started over) is read afresh.
    if (info.created !== this.streamCreated || this.lastSeq > state.last_seq) this.lastSeq = 0;
    this.streamCreated = info.created;
    const start = this.lastSeq > 0 ? this.lastSeq + 1 : Math.max(state.first_seq, state.last_seq - this.config.replay + 1, 1);
    const consumer = await jetstream(this.nc).consumers.get(STREAM, {
      // One subject as a string: filter_subject, which nats-server 2.9 understands (filter_subjects needs 2.10).
      filter_subjects: Subjects.toolCalled,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
    });
    // The newest tool call now: once it is read, the window is replayed and what follows is live.
    const newest = (await jsm.streams.getMessage(STREAM, { last_by_subj: Subjects.toolCalled }).catch(() => null))?.seq ?? 0;
    this.replayUntil = newest >= start ? newest : 0;
    this.set(...this.liveOrReplaying());
    // Missing stream or consumer ends the loop below (rather than the client waiting on a stream that
    // may come back with its sequence started over): run() then reads again from where it was.
    this.messages = await consumer.consume({ abort_on_missing_resource: true });
    for await (const m of this.messages) {
      this.lastSeq = m.seq;
      try {
        const e = entryOf(ToolCalled.decode(m.data), ++this.read);
        if (e) this.store.add(e.principal, e.entry);
      } catch {
        // An event this release cannot decode is left out of the activity; the stream keeps it.
      }
      if (this.status === 'replaying' && m.seq >= this.replayUntil) this.set('live', '');
    }
    if (!this.stopped) throw new Error('the consumer of the stream ended');
  }

  private async watchConnection(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (this.stopped) return;
      if (s.type === 'disconnect') this.set('unavailable', `lost NATS at ${this.config.natsUrl}; reconnecting`);
      else if (s.type === 'reconnect') this.set(...this.liveOrReplaying());
    }
  }

  private liveOrReplaying(): [ActivityStatus, string] {
    return this.lastSeq >= this.replayUntil ? ['live', ''] : ['replaying', 'reading the recent tool calls'];
  }
}

/** The feed of a portal without NATS configured: always "off". */
export function activityOff(): Pick<ActivityFeed, 'view'> {
  return {
    view: (_principal, refusalsOnly) => ({
      status: 'off',
      message: 'recent activity is not configured (no NATS_URL)',
      bounds: { perPrincipal: 0, principals: 0, replay: 0 },
      refusalsOnly,
      calls: [],
    }),
  };
}

/** Whether a request's URL asks for refusals only (`?refusals=1`). */
export function activityQuery(url: string | undefined): boolean {
  const v = new URL(url ?? '/', 'http://portal').searchParams.get('refusals');
  return v === '1' || v === 'true';
}
