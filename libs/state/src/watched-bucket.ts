import { KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv';
import type { Logger } from 'pino';

/**
 * An in-memory mirror of a key-value bucket kept current by a KV watch. Values are parsed JSON.
 * `ready` resolves once the current contents are loaded; later puts and deletes arrive by the watch.
 */
export class WatchedBucket<T> {
  private readonly values = new Map<string, { revision: number; value: T }>();
  private readonly listeners: Array<(key: string, value: T | undefined) => void> = [];
  private stopWatch: (() => void) | undefined;

  constructor(
    readonly kv: KV,
    private readonly logger: Logger,
  ) {}

  /** Starts the watch (updates only), then loads every current key; revisions keep the newest. */
  async start(): Promise<void> {
    // Called again after a failed start (a JetStream leader election): the earlier watch goes first.
    this.stopWatch?.();
    const watch = await this.kv.watch({ key: '>', include: KvWatchInclude.UpdatesOnly });
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const e of watch) this.apply(e);
    })().catch((err) => this.logger.error({ err, bucket: this.kv }, 'kv watch ended'));
    const keys = await this.kv.keys();
    for await (const k of keys) {
      const e = await this.kv.get(k);
      if (e) this.apply(e);
    }
  }

  /** Stops the watch. */
  stop(): void {
    this.stopWatch?.();
  }

  /** Called with (key, value) on every change; value undefined on delete. */
  onChange(fn: (key: string, value: T | undefined) => void): void {
    this.listeners.push(fn);
  }

  /** The mirrored value, or undefined. */
  get(key: string): T | undefined {
    return this.values.get(key)?.value;
  }

  /** Reads through to the bucket when the mirror does not have the key yet (just written elsewhere). */
  async getFresh(key: string): Promise<T | undefined> {
    const local = this.values.get(key);
    return local ? local.value : this.refresh(key);
  }

  /**
   * Reads a key from the bucket itself (not the mirror), brings the mirror up to it, and returns the
   * mirrored value. A key the bucket no longer holds at all leaves the mirror too: the bucket's max
   * age removes records without a delete marker on nats-server 2.9, so the watch never says so.
   */
  async refresh(key: string): Promise<T | undefined> {
    const e = await this.kv.get(key);
    if (e) this.apply(e);
    else if (this.values.delete(key)) for (const l of this.listeners) l(key, undefined);
    return this.values.get(key)?.value;
  }

  /** Every [key, value] pair whose key starts with `prefix`. */
  entries(prefix = ''): Array<[string, T]> {
    const out: Array<[string, T]> = [];
    for (const [k, v] of this.values) if (k.startsWith(prefix)) out.push([k, v.value]);
    return out;
  }

  /** The revision of a key as mirrored (0 when the mirror does not have it). */
  revision(key: string): number {
    return this.values.get(key)?.revision ?? 0;
  }

  /**
   * Writes a value only if the key is still at `expected` (0: only if it does not exist), and
   * mirrors it. Rejects with the server's "wrong last sequence" error when another writer got
   * there first.
   */
  async update(key: string, value: T, expected: number): Promise<void> {
    const data = JSON.stringify(value);
    const revision = expected === 0 ? await this.kv.create(key, data) : await this.kv.update(key, data, expected);
    this.set(key, revision, value);
  }

  /** Writes a value and mirrors it at once (so the writer reads its own writes). */
  async put(key: string, value: T): Promise<void> {
    const revision = await this.kv.put(key, JSON.stringify(value));
    this.set(key, revision, value);
  }

  /**
   * Deletes a key and mirrors the deletion; with `revision`, only if the key is still at that
   * revision (rejects with the server's "wrong last sequence" error otherwise).
   */
  async delete(key: string, revision?: number): Promise<void> {
    await this.kv.delete(key, revision === undefined ? undefined : { previousSeq: revision });
    this.values.delete(key);
    for (const l of this.listeners) l(key, undefined);
  }

  private apply(e: KvEntry): void {
    const current = this.values.get(e.key);
    if (current && current.revision >= e.revision) return;
    if (e.operation === 'DEL' || e.operation === 'PURGE') {
      this.values.delete(e.key);
      for (const l of this.listeners) l(e.key, undefined);
      return;
    }
    try {
      this.set(e.key, e.revision, JSON.parse(e.string()) as T);
    } catch (err) {
      this.logger.warn({ err, key: e.key }, 'ignored a value that is not JSON');
    }
  }

  private set(key: string, revision: number, value: T): void {
    const current = this.values.get(key);
    if (current && current.revision >= revision) return;
    this.values.set(key, { revision, value });
    for (const l of this.listeners) l(key, value);
  }
}
