/**
 * Picks the retriever for the scripts: the lead's @toolsurface/search ToolIndex when
 * libs/search/src/index.ts exists and exports it, else our MiniSearch retriever.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve, dirname } from 'node:path';
import type { MapperTool, Retriever } from '@toolsurface/mapper';
import { buildMiniSearchRetriever } from './minisearch-retriever.js';

/** A retriever builder with a label for reports. */
export interface RetrieverFactory {
  label: string;
  build(tools: readonly MapperTool[]): Retriever;
}

/** Resolves the retriever factory (search library if ready, else MiniSearch). Set MAPPER_RETRIEVER=minisearch to force ours. */
export async function loadRetrieverFactory(): Promise<RetrieverFactory> {
  const here = dirname(fileURLToPath(import.meta.url));
  const searchIndex = resolve(here, '../../search/src/index.ts');
  if (process.env.MAPPER_RETRIEVER !== 'minisearch' && existsSync(searchIndex)) {
    try {
      const mod = (await import(pathToFileURL(searchIndex).href)) as Record<string, unknown>;
      const ToolIndex = mod['ToolIndex'] as
        | {
            build(tools: readonly MapperTool[], options?: unknown): { search(q: string, limit: number): { name: string; score: number }[] };
          }
        | undefined;
      // the options the unified-mapper service builds its index with (fits must see its rankings)
      const options = mod['SELECTION_RETRIEVAL_OPTIONS'];
      if (ToolIndex && typeof ToolIndex.build === 'function') {
        return {
          label: '@toolsurface/search ToolIndex',
          build: (tools) => {
            const index = ToolIndex.build(tools, options);
            return (q, limit) => index.search(q, limit).map((h) => ({ name: h.name, score: h.score }));
          },
        };
      }
    } catch (err) {
      console.error(`[mapper] libs/search not usable (${(err as Error).message}); using MiniSearch`);
    }
  }
  return { label: 'MiniSearch (tools/mapper)', build: buildMiniSearchRetriever };
}
