/**
 * Score ablation and fit of the argument mapper, by halves of the dev data: the rule-level
 * counterpart of ablate-modules.ts. Every named score (libs/analysis/src/arguments/data/scores/,
 * `group.key`) is turned off (set to 0) one at a time, and its gain read on half A and on half B
 * (argument accuracy with the right tool given, single-call dev requests). Run from the repository root:
 *
 *   npx tsx tools/mapper/ablate-scores.ts [--only group,group.key] [--requests] [--json FILE]
 *   npx tsx tools/mapper/ablate-scores.ts --fit [--write] [--only …] [--json FILE]
 *
 * The ablation prints a Markdown table: score, value, gain on A and on B (requests right with it −
 * without), values on A and on B (the checker's problems without it − with it), and a reading:
 * "no effect", "gains on both halves", "one half only", "loses on a half" (score-fit-lib.ts
 * readingOf). --requests lists the requests each score makes right and wrong, with their half.
 *
 * --fit then tries each score that has an effect at 0, ×0.5, ×0.75, ×1.25, ×1.5 and ×2 its value:
 * tune on one half, keep what the other confirms (score-fit-lib.ts decide), in one greedy sweep in
 * registry order, each kept change applied before the next score is tried. Every trial's figures
 * go to stderr; the kept changes and the sweep's figures against the baseline to stdout.
 * --write rewrites the kept scores' entries in their data files as `fitted(value, why, source)`.
 * docs/decisions/mapper-score-ablation.md holds the protocol and the figures.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { allScores, resetScores, setScores } from '@toolsurface/analysis';
import { loadEvalData, type EvalData, type QueryRecord } from './data.js';
import {
  changedRequests,
  effectOf,
  gainCell,
  halfSizes,
  rightLine,
  run,
  singleCallRequests,
  type Effect,
  type Half,
  type HalfCounts,
  type Run,
} from './halves-lib.js';
import {
  decide,
  fittedSource,
  onUnseenHalf,
  readingOf,
  rewriteScore,
  sourceHalves,
  trialValues,
  type Change,
  type Reading,
  type Trial,
} from './score-fit-lib.js';

/** Where the score tables are. */
const SCORES_DIR = resolve('libs/analysis/src/arguments/data/scores');

interface Row extends Effect {
  score: string;
  value: number;
  reading: Reading;
  /** the halves of the dev requests its rule was written from (Score.from), where known */
  from?: Half | 'both';
  /** what it does on the half it was not written from, where that is one half */
  unseen?: 'gains' | 'loses' | 'nothing';
}

/** Passes made with scores moved (runAt), for the timing line. */
let passes = 0;

/** A pass with the given scores moved from their table values (every other score at its table value). */
function runAt(data: EvalData, requests: readonly QueryRecord[], values: Readonly<Record<string, number>>): Run {
  passes++;
  resetScores();
  setScores(values);
  try {
    return run(data, requests);
  } finally {
    resetScores();
  }
}

const trialOf = (value: number, r: Run): Trial => ({ value, right: r.right, problems: r.problems });

/** The scores named by --only: a group takes all of its scores. */
function selected(only: Set<string> | undefined): [string, { v: number; from?: readonly string[] }][] {
  return [...allScores()].filter(([name]) => !only || only.has(name) || only.has(name.split('.')[0]));
}

function ablate(
  data: EvalData,
  single: readonly QueryRecord[],
  size: HalfCounts,
  base: Run,
  only: Set<string> | undefined,
  listRequests: boolean,
): Row[] {
  const rows: Row[] = [];
  for (const [score, { v: value, from }] of selected(only)) {
    // (a score already at 0 is off: turning it off changes nothing, and takes no pass)
    const without = value === 0 ? base : runAt(data, single, { [score]: 0 });
    const effect = effectOf(base, without);
    const written = sourceHalves(from);
    const unseen = onUnseenHalf(effect, written);
    rows.push({ score, value, ...effect, reading: readingOf(effect), ...(written && { from: written }), ...(unseen && { unseen }) });
    if (listRequests && without !== base) {
      const { gains, losses } = changedRequests(base, without);
      console.error(`[ablate] ${score} makes right: ${gains}; makes wrong: ${losses}`);
    }
    console.error(
      `[ablate] ${score} = ${value}: gain A ${effect.gainA}, B ${effect.gainB}; values A ${effect.valuesA}, B ${effect.valuesB}`,
    );
  }
  // every pass must start from the same state: the baseline again must give the same figures
  const again = run(data, single);
  if (
    again.right.A !== base.right.A ||
    again.right.B !== base.right.B ||
    again.problems.A !== base.problems.A ||
    again.problems.B !== base.problems.B
  )
    throw new Error(
      `the baseline moved between passes (${rightLine(base, size)} → ${rightLine(again, size)}): a score was not put back, or a cache kept it`,
    );
  console.log(`Right tool given, single-call dev requests: ${rightLine(base, size)}.`);
  console.log(`Argument problems with every score at its value: A ${base.problems.A}, B ${base.problems.B}.\n`);
  console.log('| score | value | gain on A | gain on B | values A | values B | reading | written from | on the other half |');
  console.log('|---|---:|---:|---:|---:|---:|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.score} | ${r.value} | ${gainCell(r.gainA, size.A)} | ${gainCell(r.gainB, size.B)} | ${r.valuesA} | ${r.valuesB} | ${r.reading} | ${r.from ?? ''} | ${r.unseen ?? ''} |`,
    );
  const count = (reading: Reading): number => rows.filter((r) => r.reading === reading).length;
  const readings: Reading[] = ['no effect', 'one half only', 'gains on both halves', 'loses on a half'];
  console.log(`\n${rows.length} scores: ${readings.map((r) => `${count(r)} ${r}`).join(', ')}.`);
  const oneHalf = rows.filter((r) => r.unseen !== undefined);
  const unseen = (u: Row['unseen']): number => oneHalf.filter((r) => r.unseen === u).length;
  console.log(
    `Written from one half's requests: ${oneHalf.length}; on the other half ${unseen('gains')} gain, ${unseen('nothing')} do nothing, ${unseen('loses')} lose.`,
  );
  return rows;
}

/** One greedy sweep in registry order over the scores with an effect; returns the kept changes. */
function fit(
  data: EvalData,
  single: readonly QueryRecord[],
  size: HalfCounts,
  base: Run,
  rows: readonly Row[],
): { score: string; change: Change }[] {
  const kept: Record<string, number> = {};
  const changes: { score: string; change: Change }[] = [];
  let current = base;
  for (const row of rows) {
    if (row.reading === 'no effect') continue;
    const runs = new Map<number, Run>();
    for (const v of trialValues(row.value)) {
      const r = runAt(data, single, { ...kept, [row.score]: v });
      runs.set(v, r);
      console.error(
        `[fit] ${row.score} ${row.value} → ${v}: A ${r.right.A} (${r.problems.A} problems), B ${r.right.B} (${r.problems.B} problems)`,
      );
    }
    const d = decide(
      trialOf(row.value, current),
      [...runs].map(([v, r]) => trialOf(v, r)),
    );
    const chose = (['A', 'B'] as const).map(
      (h) => `on ${h} ${d.chosen[h].value}${d.chosen[h].value === row.value ? '' : d.confirmed[h] ? ' (confirmed)' : ' (not confirmed)'}`,
    );
    console.error(`[fit] ${row.score}: current A ${current.right.A}, B ${current.right.B}; chosen ${chose.join(', ')}`);
    if (!d.kept) continue;
    kept[row.score] = d.kept.to.value;
    current = runs.get(d.kept.to.value)!;
    changes.push({ score: row.score, change: d.kept });
  }
  const final = runAt(data, single, kept);
  console.log(
    `\nFit: ${changes.length} changes kept, one sweep over ${rows.filter((r) => r.reading !== 'no effect').length} scores with an effect.\n`,
  );
  if (changes.length > 0) {
    console.log('| score | from | to | chosen on | A before → after | B before → after | problems A | problems B |');
    console.log('|---|---:|---:|---|---|---|---|---|');
    for (const { score, change: c } of changes)
      console.log(
        `| ${score} | ${c.from.value} | ${c.to.value} | ${c.chosenOn} | ${c.from.right.A} → ${c.to.right.A} | ${c.from.right.B} → ${c.to.right.B} | ${c.from.problems.A} → ${c.to.problems.A} | ${c.from.problems.B} → ${c.to.problems.B} |`,
      );
  }
  console.log(`\nBaseline: ${rightLine(base, size)}; problems A ${base.problems.A}, B ${base.problems.B}.`);
  console.log(`After the sweep: ${rightLine(final, size)}; problems A ${final.problems.A}, B ${final.problems.B}.`);
  return changes;
}

/** Writes the kept changes into their data files as `fitted(…)` entries, then formats the files. */
function write(changes: readonly { score: string; change: Change }[], size: HalfCounts): void {
  const files = readdirSync(SCORES_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => resolve(SCORES_DIR, f));
  const touched = new Set<string>();
  for (const { score, change } of changes) {
    const [group, key] = [score.slice(0, score.indexOf('.')), score.slice(score.indexOf('.') + 1)];
    const file = files.find((f) => readFileSync(f, 'utf8').includes(`scoreGroup('${group}'`));
    if (!file) throw new Error(`no file in ${SCORES_DIR} defines scoreGroup('${group}', …)`);
    writeFileSync(file, rewriteScore(readFileSync(file, 'utf8'), group, key, change.to.value, fittedSource(change, size)));
    touched.add(file);
  }
  if (touched.size > 0) execFileSync('npx', ['prettier', '--write', ...touched], { stdio: 'inherit' });
  console.log(`\nWrote ${changes.length} fitted scores into ${touched.size} files.`);
}

function main(): void {
  const argv = process.argv;
  const arg = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const onlyArg = arg('--only');
  const only = onlyArg !== undefined ? new Set(onlyArg.split(',')) : undefined;
  const data = loadEvalData();
  const single = singleCallRequests(data);
  const size = halfSizes(single);
  const t0 = Date.now();
  const base = run(data, single);
  console.error(
    `[ablate] every score at its value: A ${base.right.A}/${size.A}, B ${base.right.B}/${size.B} (${Date.now() - t0} ms a pass)`,
  );
  const groups = [...new Set([...allScores().keys()].map((n) => n.split('.')[0]))];
  console.log(`Registered: ${allScores().size} scores in ${groups.length} group(s): ${groups.join(', ') || 'none'}.\n`);
  const json = arg('--json');
  const save = (rows: readonly Row[], changes?: readonly { score: string; change: Change }[]): void => {
    if (!json) return;
    const kept = changes?.map((c) => ({ ...c, source: fittedSource(c.change, size) }));
    writeFileSync(
      json,
      JSON.stringify({ size, base: { right: base.right, problems: base.problems }, groups, rows, changes: kept }, null, 2),
    );
  };
  const rows = ablate(data, single, size, base, only, argv.includes('--requests'));
  save(rows); // (the ablation's figures are kept even if the fit is stopped)
  if (argv.includes('--fit')) {
    const changes = fit(data, single, size, base, rows);
    save(rows, changes);
    if (argv.includes('--write')) write(changes, size);
  }
  const seconds = (Date.now() - t0) / 1000;
  // (+2: the baseline, and the baseline again after the ablation)
  console.error(`[ablate] ${passes + 2} passes, ${seconds.toFixed(0)} s in all, ${(seconds / (passes + 2)).toFixed(1)} s a pass`);
}

main();
