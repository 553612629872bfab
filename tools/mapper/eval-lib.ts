/**
 * Shared by offline-eval.ts and fit-confidence.ts: runs the mapper's ranking over the dev and
 * irrelevance queries (whole corpus as one snapshot, tool names = corpus ids) and labels every
 * ranked candidate: is the tool right (its corpus `name` is in `relevant`), and are its mapped
 * arguments right (the README checker against a ground-truth call of that name).
 */
import { UnifiedMapper, type RankedCandidate } from '@toolsurface/mapper';
import { scoreArguments } from '@toolsurface/eval-kit';
import { loadEvalData, type EvalData, type QueryRecord } from './data.js';
import { loadRetrieverFactory } from './retriever.js';

/**
 * Reference "today" for the eval: the data set was written in 2023 and its ground truth puts
 * dates written without a year in 2023 (a deployment passes the real current date instead).
 */
export const EVAL_NOW = new Date(Date.UTC(2023, 9, 1));

/** One ranked candidate with its labels. */
export interface LabeledCandidate {
  c: RankedCandidate;
  toolRight: boolean;
  argsRight: boolean;
}

/** A query with its labeled ranking. */
export interface LabeledQuery {
  q: QueryRecord;
  irrelevant: boolean;
  ranked: LabeledCandidate[];
  /** tools in the snapshot the query was ranked against */ snapshotSize: number;
}

/** Are the mapped arguments right for one of the ground-truth calls with the candidate's name? */
export function argsRightFor(q: QueryRecord, toolId: string, args: Record<string, unknown>, data: EvalData): boolean {
  const rec = data.byId.get(toolId);
  if (!rec || !q.calls) return false;
  const schema = q.schema_override?.[toolId] ?? rec.parameters;
  return q.calls.some((call) => call.name === rec.name && scoreArguments(args, call.arguments as Record<string, unknown[]>, schema));
}

/**
 * Runs the ranking with each query's own `candidates` as the snapshot (the few tools the source
 * put in front of the model): the small-snapshot setting a real surface usually has. Used as
 * extra training data for the calibration; queries without candidates are skipped.
 */
export async function runCandidateRanking(data: EvalData): Promise<LabeledQuery[]> {
  const factory = await loadRetrieverFactory();
  const out: LabeledQuery[] = [];
  const all: [QueryRecord, boolean][] = [
    ...data.dev.map((q): [QueryRecord, boolean] => [q, false]),
    ...data.irrelevant.map((q): [QueryRecord, boolean] => [q, true]),
  ];
  for (const [q, irrelevant] of all) {
    const ids = (q.candidates ?? []).filter((id) => data.byId.has(id));
    if (ids.length === 0) continue;
    const tools = data.tools.filter((t) => ids.includes(t.name));
    const mapper = new UnifiedMapper(tools, factory.build(tools), { now: EVAL_NOW, retrieveLimit: 30 });
    const ranked = mapper.rank({ request: q.query });
    out.push({
      q,
      irrelevant,
      snapshotSize: tools.length,
      ranked: ranked.map((c) => {
        const name = data.byId.get(c.name)?.name ?? '';
        const toolRight = !irrelevant && q.relevant.includes(name);
        const argsRight = toolRight && c.mapping.missingArguments.length === 0 && argsRightFor(q, c.name, c.mapping.arguments, data);
        return { c, toolRight, argsRight };
      }),
    });
  }
  return out;
}

/** Runs the ranking for every dev and irrelevance query. */
export async function runRanking(
  opts: { limit?: number; log?: boolean } = {},
): Promise<{ data: EvalData; queries: LabeledQuery[]; retrieverLabel: string; mapper: UnifiedMapper }> {
  const data = loadEvalData();
  const factory = await loadRetrieverFactory();
  const t0 = Date.now();
  const retrieve = factory.build(data.tools);
  const mapper = new UnifiedMapper(data.tools, retrieve, { now: EVAL_NOW, retrieveLimit: opts.limit ?? 30 });
  if (opts.log) console.error(`[eval] index + mapper built in ${Date.now() - t0} ms (${factory.label})`);
  const queries: LabeledQuery[] = [];
  const all: [QueryRecord, boolean][] = [
    ...data.dev.map((q): [QueryRecord, boolean] => [q, false]),
    ...data.irrelevant.map((q): [QueryRecord, boolean] => [q, true]),
  ];
  const t1 = Date.now();
  for (const [q, irrelevant] of all) {
    const ranked = mapper.rank({ request: q.query });
    queries.push({
      q,
      irrelevant,
      snapshotSize: data.tools.length,
      ranked: ranked.map((c) => {
        const name = data.byId.get(c.name)?.name ?? '';
        const toolRight = !irrelevant && q.relevant.includes(name);
        const argsRight = toolRight && c.mapping.missingArguments.length === 0 && argsRightFor(q, c.name, c.mapping.arguments, data);
        return { c, toolRight, argsRight };
      }),
    });
  }
  if (opts.log) console.error(`[eval] ranked ${all.length} queries in ${Date.now() - t1} ms`);
  return { data, queries, retrieverLabel: factory.label, mapper };
}
