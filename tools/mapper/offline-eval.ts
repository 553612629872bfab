/**
 * Offline evaluation of @toolsurface/mapper on the shared dev data (whole corpus as one
 * snapshot, tool names = corpus ids, a hit scored by the original `name`). Run from the repository root:
 *
 *   npx tsx tools/mapper/offline-eval.ts [--json] [--trace [FILE]]
 *
 * --trace writes (to FILE, else after the figures) for each single-call request, the ground-truth
 * tool given, the value each argument took, the module that proposed it and why, the runner-up,
 * and ✗ where the checker rejects it; then the values each module took and how many were wrong.
 *
 * Prints, for the mapper and for the reference "top BM25 hit, maps nothing":
 * - top-1 selection (top tool's name in `relevant`), all dev queries;
 * - argument accuracy on single-call queries (non-null `arguments`): top tool right AND its
 *   mapped arguments pass the README checker (schema_override when present); plus the same
 *   with the ground-truth tool given (mapping quality alone);
 * - share executed (decision `execute`), share of executed fully right (tool right and
 *   arguments right for one ground-truth call of that name; LiveMCPBench has no call
 *   arguments, so an executed LiveMCPBench query never counts as right);
 * - share of irrelevance queries executed.
 */
import { runRanking, runCandidateRanking, argsRightFor, EVAL_NOW, type LabeledQuery } from './eval-lib.js';
import { buildBm25Baseline } from './bm25-baseline.js';
import { mapArguments } from '@toolsurface/analysis';
import { scoreArguments } from '@toolsurface/eval-kit';
import { CONFIDENCE_THRESHOLD } from '@toolsurface/core';
import { writeFileSync } from 'node:fs';
import { TraceLog } from './trace-lib.js';

/** --trace [FILE]: whether to trace, and where to (undefined: standard output). */
function traceArg(argv: readonly string[]): { on: boolean; file?: string } {
  const i = argv.indexOf('--trace');
  if (i < 0) return { on: false };
  const next = argv[i + 1];
  return next !== undefined && !next.startsWith('--') ? { on: true, file: next } : { on: true };
}

/** Rounds for printing. */
function f3(x: number): string {
  return x.toFixed(3);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const tracing = traceArg(process.argv);
  const log = tracing.on ? new TraceLog() : undefined;
  const { data, queries, retrieverLabel, mapper } = await runRanking({ log: true });
  const dev = queries.filter((q) => !q.irrelevant);
  const irr = queries.filter((q) => q.irrelevant);
  const single = dev.filter((q) => q.q.arguments !== null);
  const nameOf = (id: string): string => data.byId.get(id)?.name ?? '';

  // ours
  let top1 = 0,
    argOk = 0,
    oracleOk = 0,
    executed = 0,
    execRight = 0,
    irrExec = 0,
    missingDecisions = 0;
  const bySource = new Map<string, { n: number; top1: number; exec: number; execRight: number }>();
  for (const lq of dev) {
    const res = mapper.decide(lq.ranked.map((r) => r.c));
    const best = lq.ranked.find((r) => r.c.name === res.tool) ?? lq.ranked[0];
    const right = best?.toolRight ?? false;
    const src = lq.q.source;
    const b = bySource.get(src) ?? { n: 0, top1: 0, exec: 0, execRight: 0 };
    b.n++;
    if (right) {
      top1++;
      b.top1++;
    }
    if (res.decision === 'missing_arguments') missingDecisions++;
    if (res.decision === 'execute') {
      executed++;
      b.exec++;
      if (right && res.tool && argsRightFor(lq.q, res.tool, res.arguments, data)) {
        execRight++;
        b.execRight++;
      }
    }
    bySource.set(src, b);
  }
  for (const lq of single) {
    const top = lq.ranked[0];
    if (top && top.toolRight && top.c.mapping.missingArguments.length === 0) {
      const schema = lq.q.schema_override?.[top.c.name] ?? data.byId.get(top.c.name)?.parameters;
      if (scoreArguments(top.c.mapping.arguments, lq.q.arguments as Record<string, unknown[]>, schema)) argOk++;
    }
    // the ground-truth tool given: mapping quality alone
    const gid = lq.q.relevant_ids?.[0];
    if (gid) {
      const schema = lq.q.schema_override?.[gid] ?? data.byId.get(gid)?.parameters;
      const m = mapArguments({ name: gid, description: data.byId.get(gid)?.description, inputSchema: schema }, lq.q.query, undefined, {
        now: EVAL_NOW,
        ...(log ? { trace: true } : {}),
      });
      if (scoreArguments(m.arguments, lq.q.arguments as Record<string, unknown[]>, schema)) oracleOk++;
      log?.add(lq.q.id, nameOf(gid), m, lq.q.arguments as Record<string, unknown[]>, schema);
    }
  }
  for (const lq of irr) if (mapper.decide(lq.ranked.map((r) => r.c)).decision === 'execute') irrExec++;

  // baseline: plain BM25 top hit, maps nothing, "executes" nothing it cannot fill
  const bm25 = buildBm25Baseline(data.corpus.map((c) => ({ name: c.name, description: c.description, inputSchema: c.parameters })));
  const bm25Ids = buildBm25Baseline(data.tools);
  let bTop1 = 0,
    bArg = 0;
  for (const lq of dev) {
    const hit = bm25(lq.q.query, 1)[0];
    if (hit && lq.q.relevant.includes(hit.name)) bTop1++;
  }
  for (const lq of single) {
    const hit = bm25Ids(lq.q.query, 1)[0];
    if (!hit || !lq.q.relevant.includes(nameOf(hit.name))) continue;
    const schema = lq.q.schema_override?.[hit.name] ?? data.byId.get(hit.name)?.parameters;
    if (scoreArguments({}, lq.q.arguments as Record<string, unknown[]>, schema)) bArg++;
  }

  // the same requests with each query's own `candidates` as the snapshot (a small surface)
  const cand = await runCandidateRanking(data);
  const small = (list: LabeledQuery[]): { n: number; top1: number; executed: number; executedRight: number | null } => {
    let t = 0,
      e = 0,
      er = 0;
    for (const lq of list) {
      const res = mapper.decide(lq.ranked.map((r) => r.c));
      const best = lq.ranked.find((r) => r.c.name === res.tool);
      if (best?.toolRight) t++;
      if (res.decision === 'execute') {
        e++;
        if (best?.toolRight && res.tool && argsRightFor(lq.q, res.tool, res.arguments, data)) er++;
      }
    }
    return { n: list.length, top1: t / Math.max(1, list.length), executed: e / Math.max(1, list.length), executedRight: e ? er / e : null };
  };
  const candDev = small(cand.filter((q) => !q.irrelevant));
  const candIrr = small(cand.filter((q) => q.irrelevant));

  const out = {
    retriever: retrieverLabel,
    threshold: CONFIDENCE_THRESHOLD,
    counts: { dev: dev.length, singleCall: single.length, irrelevant: irr.length },
    ours: {
      top1: top1 / dev.length,
      argAccuracySingleCall: argOk / single.length,
      argAccuracyGivenTool: oracleOk / single.length,
      executedShare: executed / dev.length,
      executedFullyRight: executed === 0 ? null : execRight / executed,
      missingArgumentsShare: missingDecisions / dev.length,
      irrelevantExecuted: irrExec / irr.length,
    },
    baseline: { top1: bTop1 / dev.length, argAccuracySingleCall: bArg / single.length },
    candidatesSnapshot: { dev: candDev, irrelevantExecuted: candIrr.executed, irrelevantN: candIrr.n },
    bySource: Object.fromEntries(
      [...bySource.entries()].map(([k, v]) => [
        k,
        { n: v.n, top1: v.top1 / v.n, executed: v.exec / v.n, executedRight: v.exec ? v.execRight / v.exec : null },
      ]),
    ),
    seconds: (Date.now() - t0) / 1000,
  };
  if (log && tracing.file) {
    writeFileSync(tracing.file, log.text());
    console.error(`[eval] trace of ${single.length} requests written to ${tracing.file}`);
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(out, null, 2));
    if (log && !tracing.file) console.log(log.text());
    return;
  }
  console.log(
    `\n@toolsurface/mapper offline eval — dev split, whole corpus snapshot (${data.tools.length} tools), retriever: ${retrieverLabel}, threshold ${CONFIDENCE_THRESHOLD}`,
  );
  console.log(`queries: ${dev.length} dev (${single.length} single-call), ${irr.length} irrelevance\n`);
  console.log('metric                                        mapper   top-BM25-maps-nothing');
  console.log(`top-1 selection                               ${f3(out.ours.top1)}    ${f3(out.baseline.top1)}`);
  console.log(
    `argument accuracy, single-call (end to end)   ${f3(out.ours.argAccuracySingleCall)}    ${f3(out.baseline.argAccuracySingleCall)}`,
  );
  console.log(`argument accuracy, single-call (given tool)   ${f3(out.ours.argAccuracyGivenTool)}    -`);
  console.log(`share executed (decision execute)             ${f3(out.ours.executedShare)}    -`);
  console.log(
    `share of executed fully right                 ${out.ours.executedFullyRight === null ? '  n/a' : f3(out.ours.executedFullyRight)}    -`,
  );
  console.log(`share missing_arguments                       ${f3(out.ours.missingArgumentsShare)}    -`);
  console.log(`irrelevant executed                           ${f3(out.ours.irrelevantExecuted)}    -`);
  console.log(
    `\nwith each query's own candidates as the snapshot (${candDev.n} dev, ${candIrr.n} irrelevance; README reference: BM25 top-1 0.843):`,
  );
  console.log(
    `  top-1 ${f3(candDev.top1)}  executed ${f3(candDev.executed)}  executed fully right ${candDev.executedRight === null ? 'n/a' : f3(candDev.executedRight)}  irrelevant executed ${f3(candIrr.executed)}`,
  );
  console.log('\nby source:');
  for (const [k, v] of Object.entries(out.bySource))
    console.log(
      `  ${k.padEnd(22)} n=${String(v.n).padStart(4)}  top-1 ${f3(v.top1)}  executed ${f3(v.executed)}  executed right ${v.executedRight === null ? 'n/a' : f3(v.executedRight)}`,
    );
  console.log(`\n(${out.seconds.toFixed(0)} s)`);
  if (log && !tracing.file) console.log(`\n${log.text()}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
