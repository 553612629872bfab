/**
 * Module ablation of the argument mapper: for each value-kind module, the argument accuracy with
 * the right tool given (single-call dev requests, the README checker) on half A and on half B (FNV-1a
 * of the request id, even → A, odd → B), with every module and with that one left out
 * (MapArgumentsOptions.skipModules). A module's gain on a half is what the half loses without it.
 * Run from the repository root:
 *
 *   npx tsx tools/mapper/ablate-modules.ts [--json FILE] [--only name,name] [--requests]
 *
 * Prints a Markdown table: module, lines of its definition, gain on A and on B (requests, rate), and
 * on each half the argument values it gains (checker problems without it − with it), which counts
 * a module's right value on a request that fails on another argument. With --requests, it also lists
 * for each module the requests it makes right (and any it makes wrong), with their half, to read
 * a module's gain against the requests it was written from.
 * docs/decisions/mapper-module-ablation.md holds the figures and the protocol.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mapArguments, valueKindNames } from '@toolsurface/analysis';
import { argumentProblems, fnv1a } from '@toolsurface/eval-kit';
import { EVAL_NOW } from './eval-lib.js';
import { loadEvalData, scoringSchema, type EvalData, type QueryRecord } from './data.js';

/** Where the value-kind modules are defined. */
const MODULES_DIR = resolve('libs/analysis/src/arguments');

/** Counts of one run, per half. */
interface HalfCounts {
  A: number;
  B: number;
}

/** One run: requests fully right, and argument problems (the checker's phrases), per half. */
interface Run {
  right: HalfCounts;
  problems: HalfCounts;
  /** Ids of the requests fully right. */
  rightIds: Set<string>;
}

/**
 * Lines of each module's definition (`const X_KIND: ValueKindModule = { … };`), by module name.
 * The helpers it calls are not counted: many serve several modules.
 */
function definitionLines(): Map<string, { lines: number; file: string }> {
  const out = new Map<string, { lines: number; file: string }>();
  for (const file of readdirSync(MODULES_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const lines = readFileSync(resolve(MODULES_DIR, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^(?:export )?const \w+: ValueKindModule = \{$/.test(lines[i])) continue;
      let end = i;
      while (end < lines.length && lines[end] !== '};') end++;
      const name = /name: '([^']+)'/.exec(lines.slice(i, end).join('\n'))?.[1];
      if (name) out.set(name, { lines: end - i + 1, file });
    }
  }
  return out;
}

/** Counts the single-call requests of each half whose arguments are right with the ground-truth tool given. */
function run(data: EvalData, single: readonly QueryRecord[], skip: readonly string[]): Run {
  const n: HalfCounts = { A: 0, B: 0 };
  const problems: HalfCounts = { A: 0, B: 0 };
  const rightIds = new Set<string>();
  for (const q of single) {
    const gid = q.relevant_ids?.[0];
    if (!gid) continue;
    const schema = scoringSchema(q, gid, data.byId);
    const m = mapArguments({ name: gid, description: data.byId.get(gid)?.description, inputSchema: schema }, q.query, undefined, {
      now: EVAL_NOW,
      skipModules: skip,
    });
    const wrong = argumentProblems(m.arguments, q.arguments as Record<string, unknown[]>, schema).length;
    if (wrong === 0) {
      n[halfOf(q.id)]++;
      rightIds.add(q.id);
    }
    problems[halfOf(q.id)] += wrong;
  }
  return { right: n, problems, rightIds };
}

/** Half of a request by the hash of its id (as tools/mapper/split-eval.ts). */
function halfOf(id: string): 'A' | 'B' {
  return fnv1a(id) % 2 === 0 ? 'A' : 'B';
}

/** A gain as "count (rate)", the rate over the half's single-call requests. */
function gainCell(gain: number, n: number): string {
  return `${gain > 0 ? '+' : ''}${gain} (${gain > 0 ? '+' : ''}${(gain / n).toFixed(3)})`;
}

function main(): void {
  const argv = process.argv;
  const jsonAt = argv.indexOf('--json');
  const onlyAt = argv.indexOf('--only');
  const listRequests = argv.includes('--requests');
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;
  const data = loadEvalData();
  const single = data.dev.filter((q) => q.arguments !== null && (q.relevant_ids?.length ?? 0) > 0);
  const size: HalfCounts = { A: 0, B: 0 };
  for (const q of single) size[halfOf(q.id)]++;
  const t0 = Date.now();
  const base = run(data, single, []);
  console.error(`[ablate] all modules: A ${base.right.A}/${size.A}, B ${base.right.B}/${size.B} (${Date.now() - t0} ms a pass)`);
  const lines = definitionLines();
  const rows: { module: string; lines: number; file: string; gainA: number; gainB: number; valuesA: number; valuesB: number }[] = [];
  for (const name of valueKindNames()) {
    if (only && !only.has(name)) continue;
    const without = run(data, single, [name]);
    const row = {
      module: name,
      ...(lines.get(name) ?? { lines: 0, file: '?' }),
      gainA: base.right.A - without.right.A,
      gainB: base.right.B - without.right.B,
      // (argument values the checker rejects without the module and accepts with it: a module's
      // right value on a request that fails on another argument counts here, not above)
      valuesA: without.problems.A - base.problems.A,
      valuesB: without.problems.B - base.problems.B,
    };
    rows.push(row);
    if (listRequests) {
      const tagged = (ids: Iterable<string>): string => [...ids].map((id) => `${id} (${halfOf(id)})`).join(', ') || 'none';
      const gains = [...base.rightIds].filter((id) => !without.rightIds.has(id));
      const losses = [...without.rightIds].filter((id) => !base.rightIds.has(id));
      console.error(`[ablate] ${name} makes right: ${tagged(gains)}; makes wrong: ${tagged(losses)}`);
    }
    console.error(`[ablate] ${name}: gain A ${row.gainA}, B ${row.gainB}; values A ${row.valuesA}, B ${row.valuesB}`);
  }
  const rate = (h: 'A' | 'B'): string => `${base.right[h]}/${size[h]} = ${(base.right[h] / size[h]).toFixed(3)}`;
  console.log(`Right tool given, single-call dev requests: half A ${rate('A')}, half B ${rate('B')}.`);
  console.log(`Argument problems with every module: A ${base.problems.A}, B ${base.problems.B}.\n`);
  console.log('| module | file | lines | gain on A | gain on B | values A | values B |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.module} | ${r.file} | ${r.lines} | ${gainCell(r.gainA, size.A)} | ${gainCell(r.gainB, size.B)} | ${r.valuesA} | ${r.valuesB} |`,
    );
  if (jsonAt >= 0 && argv[jsonAt + 1]) writeFileSync(argv[jsonAt + 1], JSON.stringify({ size, base, rows }, null, 2));
}

main();
