/**
 * The retriever of the scripts: @toolsurface/search's ToolIndex with the options the
 * unified-mapper service builds its index with, so that a fit sees the rankings the product
 * makes. MAPPER_RETRIEVER=minisearch asks for the MiniSearch retriever instead (a comparison only:
 * a calibration fitted on it does not describe the product).
 */
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import type { MapperTool, Retriever } from '@toolsurface/mapper';
import { buildMiniSearchRetriever } from './minisearch-retriever.js';

/** A retriever builder with a label for reports. */
export interface RetrieverFactory {
  label: string;
  build(tools: readonly MapperTool[]): Retriever;
}

/** The retriever factory: the search library's ToolIndex, or MiniSearch when MAPPER_RETRIEVER=minisearch. */
export async function loadRetrieverFactory(): Promise<RetrieverFactory> {
  if (process.env.MAPPER_RETRIEVER === 'minisearch') return { label: 'MiniSearch (tools/mapper)', build: buildMiniSearchRetriever };
  return {
    label: '@toolsurface/search ToolIndex',
    build: (tools) => {
      const index = ToolIndex.build(tools, SELECTION_RETRIEVAL_OPTIONS);
      return (q, limit) => index.search(q, limit).map((h) => ({ name: h.name, score: h.score }));
    },
  };
}
