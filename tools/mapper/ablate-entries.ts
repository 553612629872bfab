/**
 * Entry ablation of the argument mapper's cue-word tables, by halves of the dev data: the
 * table-entry counterpart of ablate-scores.ts (issue 41: "a rule, or a table entry, is kept only
 * where it gains on the half it was not written from"). Every entry of every cue table
 * (libs/analysis/src/arguments/cue-tables.ts: a synonym, a word of a list) is left out alone, and
 * its gain read on half A and on half B (argument accuracy with the right tool given, single-call
 * dev requests). Run from the repository root:
 *
 *   npx tsx tools/mapper/ablate-entries.ts [--only table,table] [--all] [--json FILE]
 *
 * It prints a Markdown table of the entries with an effect (entry, gain on A and on B, values on
 * A and on B, reading, the requests it makes right and wrong; --all lists every entry), then the
 * check of the entries that gain on one half only or lose on a half: all of them are left out
 * together and each is put back alone, so that two entries making the same request right cannot
 * hide each other. An entry holds where, put back alone, it gains on both halves. The entries'
 * source is unknown (every table is hand-set), so either half may be the one an entry was written
 * from: one that gains on one half only, alone and with its peers out, is not shown to gain on
 * the half it was not written from.
 */
import { writeFileSync } from 'node:fs';
import { cueTables, dropCueEntries, restoreCueEntries } from '@toolsurface/analysis';
import { loadEvalData, type EvalData, type QueryRecord } from './data.js';
import { changedRequests, effectOf, halfSizes, rightLine, run, singleCallRequests, type Effect, type Run } from './halves-lib.js';
import { readingOf, type Reading } from './score-fit-lib.js';

interface Row extends Effect {
  table: string;
  entry: string;
  reading: Reading;
  makesRight: string;
  makesWrong: string;
}

type Dropped = Record<string, string[]>;

/**
 * Gives every request's schema a fresh copy: the mapper caches what it reads from a schema by the
 * schema's objects (its parameters, enum lists), and a cache filled with an entry in would hide
 * the entry's absence.
 */
function freshSchemas(data: EvalData, requests: readonly QueryRecord[]): void {
  for (const q of requests) {
    const gid = q.relevant_ids?.[0];
    if (!gid) continue;
    if (q.schema_override?.[gid]) q.schema_override[gid] = structuredClone(q.schema_override[gid]);
    const rec = data.byId.get(gid);
    if (rec?.parameters) rec.parameters = structuredClone(rec.parameters);
  }
}

function runWithout(data: EvalData, requests: readonly QueryRecord[], dropped: Dropped): Run {
  restoreCueEntries();
  dropCueEntries(dropped);
  freshSchemas(data, requests);
  try {
    return run(data, requests);
  } finally {
    restoreCueEntries();
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const at = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const only = at('--only') ? new Set(at('--only')!.split(',')) : undefined;
  const listAll = args.includes('--all');
  const data = loadEvalData();
  const single = singleCallRequests(data);
  const size = halfSizes(single);
  const t0 = Date.now();
  const base = runWithout(data, single, {});
  const tables = cueTables().filter((t) => !only || only.has(t.name));
  const rows: Row[] = [];
  for (const t of tables)
    for (const entry of t.keys) {
      const without = runWithout(data, single, { [t.name]: [entry] });
      const effect = effectOf(base, without);
      const { gains, losses } = changedRequests(base, without);
      rows.push({ table: t.name, entry, ...effect, reading: readingOf(effect), makesRight: gains, makesWrong: losses });
    }
  const again = runWithout(data, single, {});
  if (
    again.right.A !== base.right.A ||
    again.right.B !== base.right.B ||
    again.problems.A !== base.problems.A ||
    again.problems.B !== base.problems.B
  )
    throw new Error(`the baseline moved between passes (${rightLine(base, size)} → ${rightLine(again, size)}): an entry was not put back`);

  console.log(`Right tool given, single-call dev requests: ${rightLine(base, size)}.`);
  console.log(`Argument problems with every entry in: A ${base.problems.A}, B ${base.problems.B}.\n`);
  console.log('| table | entry | gain A | gain B | values A | values B | reading | makes right | makes wrong |');
  console.log('|---|---|---:|---:|---:|---:|---|---|---|');
  for (const r of rows)
    if (listAll || r.reading !== 'no effect')
      console.log(
        `| ${r.table} | ${r.entry} | ${r.gainA} | ${r.gainB} | ${r.valuesA} | ${r.valuesB} | ${r.reading} | ${r.makesRight} | ${r.makesWrong} |`,
      );
  const readings: Reading[] = ['no effect', 'gains on both halves', 'one half only', 'loses on a half'];
  console.log(
    `\n${rows.length} entries in ${tables.length} tables: ${readings.map((g) => `${rows.filter((r) => r.reading === g).length} ${g}`).join(', ')}.`,
  );

  // the entries that fail alone, all left out, each put back alone
  const failing = rows.filter((r) => r.reading === 'one half only' || r.reading === 'loses on a half');
  const allOut: Dropped = {};
  for (const r of failing) (allOut[r.table] ??= []).push(r.entry);
  const floor = runWithout(data, single, allOut);
  console.log(
    `\nThe ${failing.length} entries that gain on one half only or lose on a half, all left out: ${rightLine(floor, size)}; problems A ${floor.problems.A}, B ${floor.problems.B}.`,
  );
  const { gains, losses } = changedRequests(base, floor);
  console.log(`Requests they make right together: ${gains}. Wrong: ${losses}.\n`);
  console.log('| table | entry | put back alone: gain A | gain B | values A | values B | holds |');
  console.log('|---|---|---:|---:|---:|---:|---|');
  const checks = failing.map((r) => {
    const rest: Dropped = {};
    for (const [table, entries] of Object.entries(allOut)) {
      const left = entries.filter((e) => table !== r.table || e !== r.entry);
      if (left.length > 0) rest[table] = left;
    }
    // (the run with the entry put back against the floor without it)
    const e = effectOf(runWithout(data, single, rest), floor);
    const holds = readingOf(e) === 'gains on both halves';
    console.log(`| ${r.table} | ${r.entry} | ${e.gainA} | ${e.gainB} | ${e.valuesA} | ${e.valuesB} | ${holds ? 'yes' : 'no'} |`);
    return { table: r.table, entry: r.entry, alone: e, holds };
  });
  const fail = checks.filter((c) => !c.holds);
  console.log(
    `\nNot shown to gain on the half they were not written from: ${fail.length} of ${failing.length}: ${fail.map((c) => `${c.table}/${c.entry}`).join(', ') || 'none'}.`,
  );
  console.error(`[entries] ${rows.length + failing.length + 3} passes in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const json = at('--json');
  if (json) writeFileSync(json, JSON.stringify({ size, base: { right: base.right, problems: base.problems }, rows, checks }, null, 1));
}

main();
