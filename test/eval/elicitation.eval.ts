// npm run eval:elicitation -- [--corpus P] [--queries P] [--json FILE]
// How many of unified_tool's refusals a person turns into right calls through MCP elicitation
// (services/dispatch/src/mcp/elicitation.ts): every request goes through the unified-mapper's gRPC
// API (the whole corpus as one snapshot); each MISSING_ARGUMENTS, or LOW_CONFIDENCE with
// candidates, gets the rescue form a supervised gateway's client would show, answered by a
// scripted person who knows the expected call (scripted-person.ts); the call it makes is scored
// with the eval's argument checker (shared/eval/README.md).
import { join } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { scoreArguments } from '@toolsurface/eval-kit';
import { UnifiedServiceClient, type MapRequestResponse } from '@toolsurface/proto';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the eval builds the very forms the endpoint builds
import { rescuedCall, rescueForm, rescueNames, type RescueCandidate } from '../../services/dispatch/src/domain/elicitation-forms';
import { answerRescue } from './scripted-person';
import {
  corpusDefinitions,
  DEFAULT_EVAL_DIR,
  evalFlags,
  inputProblem,
  readEvalFile,
  startEvalService,
  usageError,
  writeFigures,
  type CorpusRecord,
  type QueryRecord,
} from './support';

/** "Now" for relative dates, as eval:unified (the eval data resolves dates without a year in 2023). */
const EVAL_REFERENCE_TIME_MS = Date.UTC(2023, 9, 1);

const REASON: Record<string, string> = { missing_arguments: 'MISSING_ARGUMENTS', low_confidence: 'LOW_CONFIDENCE' };

function mapRequest(client: UnifiedServiceClient, snapshotId: string, request: string): Promise<MapRequestResponse> {
  return new Promise((resolve, reject) =>
    client.mapRequest({ snapshotId, request, contextJson: '', preferredTools: [], referenceTimeMs: EVAL_REFERENCE_TIME_MS }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

/** What became of one refused request. */
type Fate =
  'no form' | 'tool not offered' | 'value not askable' | 'rescued, right' | 'rescued, a value not asked' | 'rescued, a mapped value wrong';

async function main(): Promise<void> {
  const defaults = { corpus: join(DEFAULT_EVAL_DIR, 'corpus.jsonl'), queries: join(DEFAULT_EVAL_DIR, 'queries.dev.jsonl') };
  const opts = evalFlags(
    'eval:elicitation',
    'how many unified_tool refusals a scripted person turns into right calls through the MCP rescue form',
    process.argv.slice(2),
    [
      { name: 'corpus', value: 'P', description: `corpus JSONL, put in one snapshot (default ${defaults.corpus})`, input: 'file' },
      { name: 'queries', value: 'P', description: `queries JSONL (default ${defaults.queries})`, input: 'file' },
      { name: 'json', value: 'FILE', description: 'also write the figures to FILE as JSON', output: true },
    ],
    (given) => [given.get('corpus') ?? defaults.corpus, given.get('queries') ?? defaults.queries],
  );
  const corpusPath = opts.get('corpus') ?? defaults.corpus;
  const queriesPath = opts.get('queries') ?? defaults.queries;
  let corpus: CorpusRecord[];
  let queries: QueryRecord[];
  try {
    for (const [flag, path] of [
      ['corpus', corpusPath],
      ['queries', queriesPath],
    ]) {
      const problem = inputProblem(`--${flag}`, path, opts.has(flag));
      if (problem !== undefined) throw new Error(problem);
    }
    const warn = (message: string): void => console.error(`eval:elicitation: warning: ${message}`);
    corpus = readEvalFile(corpusPath, 'corpus', warn);
    queries = readEvalFile(queriesPath, 'queries', warn).filter((q) => (q.calls?.length ?? 0) > 0);
  } catch (e) {
    usageError('eval:elicitation', (e as Error).message);
  }
  const byId = new Map(corpus.map((r) => [r.id, r]));
  const defs = corpusDefinitions(corpus);
  const schemaOf = new Map(defs.map((d) => [d.name, (d.inputSchema ?? {}) as Record<string, unknown>]));
  const nameOf = (id: string) => byId.get(id)?.name ?? '';
  const argsRight = (q: QueryRecord, id: string, args: Record<string, unknown>) => {
    const rec = byId.get(id);
    const schema = q.schema_override?.[id] ?? rec?.parameters;
    return rec !== undefined && (q.calls ?? []).some((c) => c.name === rec.name && scoreArguments(args, c.arguments, schema));
  };

  // A required value of the expected call the chosen candidate still lacks: one the form could not ask
  // (an object or array, or a value no field took).
  const lacksAsked = (made: { tool: string; arguments: Record<string, unknown> }, candidates: RescueCandidate[], q: QueryRecord) => {
    const c = candidates.find((x) => x.name === made.tool);
    const call = (q.calls ?? []).find((x) => x.name === nameOf(made.tool));
    return (c?.missingArguments ?? []).some((a) => made.arguments[a] === undefined && !(call?.arguments[a] ?? ['']).includes(''));
  };

  const svc = await startEvalService('unified-mapper');
  const client = new UnifiedServiceClient(svc.address, credentials.createInsecure());
  const counts = { executed: 0, executedRight: 0, missing: 0, lowWithCandidates: 0, lowWithout: 0 };
  const fates: Record<string, Record<Fate, number>> = {};
  try {
    const { snapshot } = await svc.snapshots.save(defs);
    for (const q of queries) {
      const res = await mapRequest(client, snapshot.snapshotId, q.query);
      const md = res.metadata!;
      if (res.decision === 'execute') {
        counts.executed++;
        if (argsRight(q, md.tool, JSON.parse(md.argumentsJson || '{}') as Record<string, unknown>)) counts.executedRight++;
        continue;
      }
      const reason = REASON[res.decision] ?? res.decision;
      if (reason === 'MISSING_ARGUMENTS') counts.missing++;
      else if (md.candidates.length > 0) counts.lowWithCandidates++;
      else {
        counts.lowWithout++;
        continue;
      }
      const candidates: RescueCandidate[] = rescueNames(reason, md).map((c) => ({ ...c, inputSchema: schemaOf.get(c.name) ?? {} }));
      const tally = (fates[reason] ??= {
        'no form': 0,
        'tool not offered': 0,
        'value not askable': 0,
        'rescued, right': 0,
        'rescued, a value not asked': 0,
        'rescued, a mapped value wrong': 0,
      });
      const form = rescueForm(q.query, reason, candidates);
      if (!form) {
        tally['no form']++;
        continue;
      }
      const answer = answerRescue(form, candidates, q.calls ?? [], nameOf);
      if (answer.action === 'decline') {
        tally[answer.why]++;
        continue;
      }
      const made = rescuedCall(candidates, answer.content);
      if (made && argsRight(q, made.tool, made.arguments)) tally['rescued, right']++;
      else tally[made && lacksAsked(made, candidates, q) ? 'rescued, a value not asked' : 'rescued, a mapped value wrong']++;
    }
  } finally {
    client.close();
    await svc.stop();
  }

  const refused = counts.missing + counts.lowWithCandidates;
  const rescuedRight = Object.values(fates).reduce((n, t) => n + t['rescued, right'], 0);
  const figures = { queries: queries.length, ...counts, refusedRescuable: refused, rescuedRight, fates };
  const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`);
  console.log(`\n## elicitation rescue on ${queriesPath} (${queries.length} requests with an expected call)`);
  console.log(
    `executed by unified_tool: ${counts.executed} (${counts.executedRight} right); refused: ${counts.missing} MISSING_ARGUMENTS, ` +
      `${counts.lowWithCandidates} LOW_CONFIDENCE with candidates, ${counts.lowWithout} LOW_CONFIDENCE without (never asked)`,
  );
  console.log(
    '| refusal | asked | right tool not offered | a value the form cannot take | no form | rescued: right call | wrong: a value not asked | wrong: a mapped value |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [reason, t] of Object.entries(fates)) {
    const n = Object.values(t).reduce((a, b) => a + b, 0);
    console.log(
      `| ${reason} | ${n} | ${t['tool not offered']} | ${t['value not askable']} | ${t['no form']} | ${t['rescued, right']} (${pct(t['rescued, right'], n)}) | ${t['rescued, a value not asked']} | ${t['rescued, a mapped value wrong']} |`,
    );
  }
  console.log(
    `right calls: ${counts.executedRight} without a person, ${counts.executedRight + rescuedRight} with the rescue ` +
      `(${pct(counts.executedRight, queries.length)} → ${pct(counts.executedRight + rescuedRight, queries.length)} of all requests); ` +
      `${rescuedRight} of ${refused} rescuable refusals (${pct(rescuedRight, refused)}) became right calls`,
  );
  const jsonPath = opts.get('json');
  if (jsonPath) writeFigures(jsonPath, figures);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
