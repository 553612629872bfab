import type { KV } from '@nats-io/kv';
import type { PrincipalRef } from '@toolsurface/core';
import type { JournalEntry, JournalPort } from '../domain/system-tools';

/** Attempts at a fresh key when another replica took the same millisecond and sequence. */
const APPEND_ATTEMPTS = 5;

/**
 * Journals in the `toolsurface_journal` bucket, one key per entry:
 * `<kind>.<id>.<ms since epoch, 15 digits><sequence, 4 digits>`, so keys sort by time.
 */
export class KvJournal implements JournalPort {
  private lastMs = -1;
  private seq = 0;

  constructor(private readonly kv: KV) {}

  async append(principal: PrincipalRef, entry: JournalEntry): Promise<void> {
    let lastError: unknown;
    for (let i = 0; i < APPEND_ATTEMPTS; i++) {
      try {
        // create() refuses an existing key, so two replicas never overwrite each other's entry.
        await this.kv.create(this.nextKey(principal, entry.atMs), JSON.stringify(entry));
        return;
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError;
  }

  async read(principal: PrincipalRef, limit: number): Promise<JournalEntry[]> {
    const keys: string[] = [];
    for await (const k of await this.kv.keys(`${principal.kind}.${principal.id}.*`)) keys.push(k);
    keys.sort();
    const newest = keys.slice(-limit).reverse();
    const entries = await Promise.all(newest.map((k) => this.kv.get(k)));
    const out: JournalEntry[] = [];
    for (const e of entries) {
      if (e && e.operation === 'PUT') out.push(e.json<JournalEntry>());
    }
    return out;
  }

  private nextKey(principal: PrincipalRef, atMs: number): string {
    this.seq = atMs === this.lastMs ? (this.seq + 1) % 10_000 : 0;
    this.lastMs = atMs;
    return `${principal.kind}.${principal.id}.${String(atMs).padStart(15, '0')}${String(this.seq).padStart(4, '0')}`;
  }
}
