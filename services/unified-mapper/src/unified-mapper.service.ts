import { AppError, ReasonCode, SNAPSHOT_ID_PATTERN } from '@toolsurface/core';
import {
  OpenAIMapper,
  PreferredToolNotInSnapshotError,
  ruleMapper,
  UnifiedMapper,
  type MapResult,
  type Mapper,
  type OpenAIMapperOptions,
} from '@toolsurface/mapper';
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import type { SnapshotStore } from '@toolsurface/state';
import { checkRequest } from './domain/request';

/** Selection, mapping and confidence over snapshots; one index and mapper per snapshot, kept LRU. */
export class UnifiedMapperService {
  private readonly mappers = new Map<string, Mapper>();
  /** `model`: the model mapper's options (MAPPER=openai); without it the rule engine answers alone. */
  constructor(
    private readonly snapshots: SnapshotStore,
    private readonly maxSnapshots: number,
    private readonly model?: OpenAIMapperOptions,
  ) {}

  private async mapperFor(snapshotId: string): Promise<Mapper> {
    let m = this.mappers.get(snapshotId);
    if (m) {
      this.mappers.delete(snapshotId);
      this.mappers.set(snapshotId, m);
      return m;
    }
    const snapshot = await this.snapshots.get(snapshotId);
    const tools = snapshot.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }));
    // the ranking the mapper's calibration was fitted on
    const index = ToolIndex.build(tools, SELECTION_RETRIEVAL_OPTIONS);
    const engine = new UnifiedMapper(tools, (q, limit) => index.search(q, limit));
    m = this.model ? new OpenAIMapper(tools, engine, this.model) : ruleMapper(engine);
    this.mappers.set(snapshotId, m);
    while (this.mappers.size > this.maxSnapshots) this.mappers.delete(this.mappers.keys().next().value!);
    return m;
  }

  /** MapRequest: picks a tool of the snapshot and maps the request onto its arguments. */
  async map(snapshotId: unknown, request: unknown, contextJson: unknown, preferred: unknown, referenceTimeMs = 0): Promise<MapResult> {
    if (typeof snapshotId !== 'string' || !SNAPSHOT_ID_PATTERN.test(snapshotId)) {
      throw new AppError(ReasonCode.INVALID_REQUEST, 'snapshot_id must be a snapshot ID (snap_ and 64 hex digits)');
    }
    const input = checkRequest(request, contextJson, preferred);
    const mapper = await this.mapperFor(snapshotId);
    try {
      // Relative dates resolve against the caller's "now" when it sends one, else the server clock.
      const now = Number.isFinite(referenceTimeMs) && referenceTimeMs > 0 ? new Date(referenceTimeMs) : undefined;
      return await mapper.map({ request: input.request, context: input.context, preferredTools: input.preferredTools }, { now });
    } catch (e) {
      if (e instanceof PreferredToolNotInSnapshotError) {
        throw new AppError(
          ReasonCode.TOOL_NOT_IN_SNAPSHOT,
          `preferred_tools names tools that are not available here (${e.names.map((n) => JSON.stringify(n.slice(0, 64))).join(', ')}); name only tools of this surface or leave preferred_tools out`,
          { cause: e },
        );
      }
      throw e;
    }
  }
}
