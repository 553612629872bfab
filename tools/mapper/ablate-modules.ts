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
import { valueKindNames } from '@toolsurface/analysis';
import { loadEvalData } from './data.js';
import { changedRequests, effectOf, gainCell, halfSizes, rightLine, run, singleCallRequests } from './halves-lib.js';

/** Where the value-kind modules are defined. */
const MODULES_DIR = resolve('libs/analysis/src/arguments');

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

function main(): void {
  const argv = process.argv;
  const jsonAt = argv.indexOf('--json');
  const onlyAt = argv.indexOf('--only');
  const listRequests = argv.includes('--requests');
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;
  const data = loadEvalData();
  const single = singleCallRequests(data);
  const size = halfSizes(single);
  const t0 = Date.now();
  const base = run(data, single);
  console.error(`[ablate] all modules: A ${base.right.A}/${size.A}, B ${base.right.B}/${size.B} (${Date.now() - t0} ms a pass)`);
  const lines = definitionLines();
  const rows: ({ module: string; lines: number; file: string } & ReturnType<typeof effectOf>)[] = [];
  for (const name of valueKindNames()) {
    if (only && !only.has(name)) continue;
    const without = run(data, single, [name]);
    const row = { module: name, ...(lines.get(name) ?? { lines: 0, file: '?' }), ...effectOf(base, without) };
    rows.push(row);
    if (listRequests) {
      const { gains, losses } = changedRequests(base, without);
      console.error(`[ablate] ${name} makes right: ${gains}; makes wrong: ${losses}`);
    }
    console.error(`[ablate] ${name}: gain A ${row.gainA}, B ${row.gainB}; values A ${row.valuesA}, B ${row.valuesB}`);
  }
  console.log(`Right tool given, single-call dev requests: ${rightLine(base, size)}.`);
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
