import { setSha256Backend, type ObjectStore } from '@nats-io/obj';
import { AppError, ReasonCode, snapshotIdOf, type BoundToolDefinition } from '@toolsurface/core';
import { parseJsonArraySliced } from './sliced-json';

// The object store checks every object it reads or writes against its SHA-256 digest, by default
// with a pure-JS SHA-256 (the library also runs in browsers). Reading the 2.4 MB snapshot of the
// 3,091-tool eval corpus from a local nats-server in a fresh process, getBlob takes 140-170 ms with
// it and 70-85 ms with node:crypto's (2 cores, other jobs running): a large share of a new
// snapshot's first search (test/eval/first-index.bench.ts). Same digest, same check, computed
// natively. The setting is process-wide and must precede any object-store operation, hence here,
// when this module loads: every service that reads or writes snapshots gets it.
setSha256Backend('native');

/** A loaded snapshot: definitions in name order and a name index. */
export interface Snapshot {
  snapshotId: string;
  tools: readonly BoundToolDefinition[];
  byName: ReadonlyMap<string, BoundToolDefinition>;
}

/**
 * Estimated heap bytes of a parsed snapshot: three times its JSON's length in UTF-8 bytes. Measured
 * as heap after GC: the 3,091-tool eval corpus, 2.1 MB of JSON, 6.3 MB parsed; 10,000 synthetic
 * tools of 30 parameters, 30.6 MB of JSON, 37 MB parsed.
 */
export function parsedSnapshotBytes(jsonBytes: number): number {
  return 3 * jsonBytes;
}

/**
 * Snapshots kept in memory over the JetStream object store: at most `maxCached` of them, and at
 * most `maxBytes` by parsedSnapshotBytes' estimate; the least recently used go first, and the
 * newest always stays.
 */
export class SnapshotStore {
  /** snapshots held, least recently used first, each with its parsedSnapshotBytes */
  private readonly cache = new Map<string, { snapshot: Snapshot; bytes: number }>();
  private readonly loading = new Map<string, Promise<Snapshot>>();
  private bytes = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly maxCached = 256,
    private readonly maxBytes = Infinity,
  ) {}

  /** Stores a snapshot if new; returns it and whether it was created by this call. */
  async save(definitions: readonly BoundToolDefinition[]): Promise<{ snapshot: Snapshot; created: boolean }> {
    // the ID hashes the canonical JSON; the blob keeps the definitions' own key order (snapshotIdOf)
    const { snapshotId, json } = snapshotIdOf(definitions);
    const cached = this.cache.get(snapshotId);
    if (cached) return { snapshot: cached.snapshot, created: false };
    const info = await this.store.info(snapshotId);
    const snapshot = toSnapshot(snapshotId, JSON.parse(json) as BoundToolDefinition[]);
    let created = false;
    if (!info || info.deleted) {
      await this.store.putBlob({ name: snapshotId, description: `${definitions.length} tools` }, new TextEncoder().encode(json));
      created = true;
    }
    // (bytes of UTF-8, as a blob read back is measured)
    this.remember(snapshot, parsedSnapshotBytes(Buffer.byteLength(json, 'utf8')));
    return { snapshot, created };
  }

  /**
   * The snapshot with this ID. Concurrent loads share one read; a cached snapshot counts as used
   * (the cache drops the least recently used). Throws AppError SNAPSHOT_NOT_FOUND when the store
   * has no such object, and UNAVAILABLE when the store cannot be read (NATS down, a timeout): a
   * snapshot that exists must not be reported gone, nor its snapshot.created event dropped for it.
   */
  async get(snapshotId: string): Promise<Snapshot> {
    const cached = this.cache.get(snapshotId);
    if (cached) {
      this.remember(cached.snapshot, cached.bytes);
      return cached.snapshot;
    }
    let p = this.loading.get(snapshotId);
    if (!p) {
      p = (async () => {
        let blob: Uint8Array | null;
        try {
          blob = await this.store.getBlob(snapshotId);
        } catch (e) {
          throw new AppError(ReasonCode.UNAVAILABLE, `the snapshot store could not be read for ${snapshotId}: ${(e as Error).message}`, {
            cause: e,
          });
        }
        if (!blob) throw new AppError(ReasonCode.SNAPSHOT_NOT_FOUND, `snapshot ${snapshotId} does not exist`);
        // (parsed in slices: a large snapshot's one JSON.parse held the event loop for hundreds of milliseconds)
        const snapshot = toSnapshot(snapshotId, (await parseJsonArraySliced(new TextDecoder().decode(blob))) as BoundToolDefinition[]);
        this.remember(snapshot, parsedSnapshotBytes(blob.length));
        return snapshot;
      })().finally(() => this.loading.delete(snapshotId));
      this.loading.set(snapshotId, p);
    }
    return p;
  }

  /** Keeps `s` as the most recently used, then drops the least recently used past either bound. */
  private remember(s: Snapshot, bytes: number): void {
    this.bytes -= this.cache.get(s.snapshotId)?.bytes ?? 0;
    this.cache.delete(s.snapshotId);
    this.cache.set(s.snapshotId, { snapshot: s, bytes });
    this.bytes += bytes;
    while (this.cache.size > 1 && (this.cache.size > this.maxCached || this.bytes > this.maxBytes)) {
      const [oldest, entry] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /** parsedSnapshotBytes of the snapshots held, together. */
  get heldBytes(): number {
    return this.bytes;
  }
}

function toSnapshot(snapshotId: string, tools: BoundToolDefinition[]): Snapshot {
  return { snapshotId, tools, byName: new Map(tools.map((t) => [t.name, t])) };
}
