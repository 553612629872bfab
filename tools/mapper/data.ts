/**
 * Loaders for the shared evaluation data ($TOOLSURFACE_EVAL_DIR or ../shared/eval, see its README.md).
 * Used by the offline evaluation and calibration scripts only; the library never reads data files.
 */
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_EVAL_DIR } from '@toolsurface/eval-kit';
import type { MapperTool } from '@toolsurface/mapper';

/** One acceptable-values map: argument name -> list of acceptable values ("" = may be omitted). */
export type Acceptable = Record<string, unknown[]>;

/** A corpus record (tool definition) as stored in corpus.jsonl. */
export interface CorpusRecord {
  id: string;
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  source: string;
}

/** A query record as stored in queries.dev.jsonl / queries.irrelevance.dev.jsonl. */
export interface QueryRecord {
  id: string;
  query: string;
  system?: string;
  relevant: string[];
  relevant_ids?: string[];
  arguments: Acceptable | null;
  calls: { name: string; arguments: Acceptable }[] | null;
  candidates?: string[];
  schema_override?: Record<string, Record<string, unknown>>;
  source: string;
}

/** Directory holding the eval data: $TOOLSURFACE_EVAL_DIR, else ../shared/eval beside the repository. */
export function evalDir(): string {
  if (existsSync(resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl'))) return DEFAULT_EVAL_DIR;
  throw new Error(`eval data not found in ${DEFAULT_EVAL_DIR}; set TOOLSURFACE_EVAL_DIR`);
}

/** Parses a JSON-lines file. */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The whole eval data set: corpus, dev queries, irrelevance queries. */
export interface EvalData {
  corpus: CorpusRecord[];
  byId: Map<string, CorpusRecord>;
  dev: QueryRecord[];
  irrelevant: QueryRecord[];
  tools: MapperTool[];
}

/** Loads corpus + dev + irrelevance dev; tools use the corpus `id` as the unique name. */
export function loadEvalData(dir = evalDir()): EvalData {
  const corpus = readJsonl<CorpusRecord>(resolve(dir, 'corpus.jsonl'));
  const dev = readJsonl<QueryRecord>(resolve(dir, 'queries.dev.jsonl'));
  const irrelevant = readJsonl<QueryRecord>(resolve(dir, 'queries.irrelevance.dev.jsonl'));
  const byId = new Map(corpus.map((c) => [c.id, c]));
  const tools: MapperTool[] = corpus.map((c) => ({
    name: c.id,
    description: c.description ?? '',
    inputSchema: c.parameters ?? { type: 'object', properties: {} },
  }));
  return { corpus, byId, dev, irrelevant, tools };
}

/** The schema to score a query's arguments against: schema_override when present, else the corpus schema. */
export function scoringSchema(q: QueryRecord, toolId: string, byId: Map<string, CorpusRecord>): Record<string, unknown> | undefined {
  return q.schema_override?.[toolId] ?? byId.get(toolId)?.parameters;
}
