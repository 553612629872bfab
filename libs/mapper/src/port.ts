/** The mapper interface unified-mapper serves, and the rule engine behind it. */
import type { MapCallOptions, UnifiedMapper } from './mapper.js';
import type { MapInput, MapResult } from './types.js';

/**
 * A mapper: picks a tool for a `unified_tool` request and maps its arguments, with a confidence
 * computed by us and the decision at CONFIDENCE_THRESHOLD. Asynchronous because a mapper may ask a
 * model endpoint (OpenAIMapper). Rejects only with PreferredToolNotInSnapshotError.
 */
export interface Mapper {
  map(input: MapInput, options?: MapCallOptions): Promise<MapResult>;
}

/** The embedded rule engine (UnifiedMapper) as a Mapper: the default of every deployment. */
export function ruleMapper(engine: UnifiedMapper): Mapper {
  return { map: async (input, options) => engine.map(input, options) };
}
