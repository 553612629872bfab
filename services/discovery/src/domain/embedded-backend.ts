import { ToolIndex } from '@toolsurface/search';
import type { BoundToolDefinition } from '@toolsurface/core';
import type { SearchBackend } from './discovery';

/** The in-process search backend: one ToolIndex per snapshot, least recently used dropped past `maxSnapshots`. */
export class EmbeddedBackend implements SearchBackend {
  private readonly indexes = new Map<string, ToolIndex>();
  constructor(private readonly maxSnapshots: number) {}

  async index(snapshotId: string, tools: readonly BoundToolDefinition[]): Promise<void> {
    if (this.indexes.has(snapshotId)) return;
    this.indexes.set(snapshotId, ToolIndex.build(tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }))));
    while (this.indexes.size > this.maxSnapshots) this.indexes.delete(this.indexes.keys().next().value!);
  }

  async isIndexed(snapshotId: string): Promise<boolean> {
    return this.indexes.has(snapshotId);
  }

  async search(snapshotId: string, query: string, limit: number): Promise<Array<{ name: string; score: number }>> {
    const index = this.indexes.get(snapshotId);
    if (!index) return [];
    // Refresh recency for the LRU.
    this.indexes.delete(snapshotId);
    this.indexes.set(snapshotId, index);
    return index.search(query, limit);
  }
}
