import { AppError, ReasonCode, type BoundToolDefinition } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import type { Snapshot, SnapshotStore } from '@toolsurface/state';
import { boundLimit, checkQuery, checkSnapshotId, toResult, type DiscoveryResult, type SearchBackend } from './domain/discovery';

/** How many times one discover_tools call indexes its snapshot when other snapshots' indexing keeps dropping it (then UNAVAILABLE). */
export const DISCOVER_INDEX_ATTEMPTS = 3;

/** Search and schema lookup over snapshots; a snapshot is indexed once, on its event or on first use. */
export class DiscoveryService {
  private readonly inflight = new Map<string, Promise<Snapshot>>();
  constructor(
    private readonly snapshots: SnapshotStore,
    private readonly backend: SearchBackend,
    private readonly logger: Logger,
  ) {}

  /** Loads and indexes a snapshot if it is not yet; concurrent callers share one build. */
  async ensureIndexed(snapshotId: string): Promise<Snapshot> {
    const snapshot = await this.snapshots.get(snapshotId);
    if (await this.backend.isIndexed(snapshotId)) return snapshot;
    let p = this.inflight.get(snapshotId);
    if (!p) {
      p = (async () => {
        const started = performance.now();
        await this.backend.index(snapshotId, snapshot.tools);
        this.logger.info(
          { snapshot_id: snapshotId, tools: snapshot.tools.length, ms: Math.round(performance.now() - started) },
          'snapshot indexed',
        );
        return snapshot;
      })().finally(() => this.inflight.delete(snapshotId));
      this.inflight.set(snapshotId, p);
    }
    return p;
  }

  /** discover_tools: ranked hits from this snapshot only; waits for indexing rather than answering empty. */
  async discover(snapshotIdRaw: unknown, queryRaw: unknown, limitRaw: number | undefined): Promise<DiscoveryResult> {
    const snapshotId = checkSnapshotId(snapshotIdRaw);
    const query = checkQuery(queryRaw);
    const limit = boundLimit(limitRaw);
    // An empty answer from a snapshot no longer indexed is no answer: other snapshots' indexing can
    // drop its index (past MAX_INDEXED_SNAPSHOTS) between ensureIndexed and the search, and the
    // search would then find nothing, so a tool asked for by its exact name would come back as
    // NO_MATCH. Such a search indexes the snapshot again and runs again.
    for (let attempt = 1; ; attempt++) {
      const snapshot = await this.ensureIndexed(snapshotId);
      if (snapshot.tools.length === 0) return toResult([], snapshot.byName, 0);
      const ranked = await this.backend.search(snapshotId, query, limit);
      if (ranked.length > 0 || (await this.backend.isIndexed(snapshotId))) return toResult(ranked, snapshot.byName, snapshot.tools.length);
      this.logger.warn({ snapshot_id: snapshotId, attempt }, 'snapshot index dropped before its search could run; indexing it again');
      if (attempt >= DISCOVER_INDEX_ATTEMPTS) {
        throw new AppError(
          ReasonCode.UNAVAILABLE,
          `snapshot ${snapshotId} lost its index to other snapshots ${attempt} times before a search could run: this replica holds fewer indexes (MAX_INDEXED_SNAPSHOTS, MAX_INDEX_MB) than the snapshots in use; retry, or raise them`,
        );
      }
    }
  }

  /** get_tool_schema: one tool's full definition; a name outside the snapshot is TOOL_NOT_IN_SNAPSHOT. */
  async schema(snapshotIdRaw: unknown, nameRaw: unknown): Promise<BoundToolDefinition> {
    const snapshotId = checkSnapshotId(snapshotIdRaw);
    if (typeof nameRaw !== 'string' || nameRaw === '') throw new AppError(ReasonCode.INVALID_REQUEST, 'name is required');
    const snapshot = await this.snapshots.get(snapshotId);
    const tool = snapshot.byName.get(nameRaw);
    if (!tool) {
      throw new AppError(
        ReasonCode.TOOL_NOT_IN_SNAPSHOT,
        `no tool named "${nameRaw.slice(0, 128)}" is available here; call discover_tools to find the right name`,
      );
    }
    return tool;
  }
}
