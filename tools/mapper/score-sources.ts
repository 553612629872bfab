/**
 * The dev requests each mapper score's rule was written from (Score.from), with their half of the
 * dev split (FNV-1a of the request id, even → A, odd → B, as tools/mapper/split-eval.ts): a rule
 * written from requests of one half is kept only where it gains on the other (issue 41). Run from
 * the repository root:
 *
 *   npx tsx tools/mapper/score-sources.ts [--json FILE] [--effects]
 *
 * Prints a Markdown table of the score groups (entries, entries with a known source, the source ids
 * of each half), then each entry with a known source: its ids and halves, and the half it is to be
 * judged on ('B' for a rule written from A only, 'A' for one written from B only, none where its
 * sources lie in both halves). With --json, writes the same per entry to FILE.
 *
 * --effects then turns off together (set to 0) the scores written from each half's requests and
 * reads what each half loses (argument accuracy with the right tool given, single-call dev
 * requests): on the half they were written from (their gain in sample) and on the other (their
 * gain out of sample). Rules that generalise gain about as much out of sample as in sample; the
 * difference is what the dev figures overstate.
 */
import { writeFileSync } from 'node:fs';
import { allScores, resetScores, setScores } from '@toolsurface/analysis';
import { loadEvalData } from './data.js';
import { halfOf, halfSizes, run, singleCallRequests, type Half } from './halves-lib.js';
import { sourceHalves } from './score-fit-lib.js';

/** One score entry with a known source. */
interface Sourced {
  name: string;
  from: { id: string; half: Half }[];
  /** The half the rule was not written from, where its sources lie in one half only. */
  judgeOn?: Half;
}

function main(): void {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
  if (jsonAt >= 0 && !jsonOut) throw new Error('usage: score-sources.ts [--json FILE]');

  const groups = new Map<string, { entries: number; sourced: Sourced[] }>();
  for (const [name, s] of allScores()) {
    const group = name.slice(0, name.indexOf('.'));
    const g = groups.get(group) ?? { entries: 0, sourced: [] };
    groups.set(group, g);
    g.entries++;
    if (s.from === undefined) continue;
    const from = s.from.map((id) => ({ id, half: halfOf(id) }));
    const written = sourceHalves(s.from);
    const judgeOn: Half | undefined = written === 'A' ? 'B' : written === 'B' ? 'A' : undefined;
    g.sourced.push({ name, from, ...(judgeOn ? { judgeOn } : {}) });
  }

  const lines = ['| group | entries | with a known source | source ids in A | source ids in B |', '|---|---|---|---|---|'];
  const total = { entries: 0, sourced: 0, A: new Set<string>(), B: new Set<string>() };
  for (const [group, g] of groups) {
    const ids = { A: new Set<string>(), B: new Set<string>() };
    for (const e of g.sourced) for (const f of e.from) ids[f.half].add(f.id);
    lines.push(`| ${group} | ${g.entries} | ${g.sourced.length} | ${ids.A.size} | ${ids.B.size} |`);
    total.entries += g.entries;
    total.sourced += g.sourced.length;
    for (const h of ['A', 'B'] as const) for (const id of ids[h]) total[h].add(id);
  }
  lines.push(`| all | ${total.entries} | ${total.sourced} | ${total.A.size} | ${total.B.size} |`);
  for (const [group, g] of groups) {
    if (g.sourced.length === 0) continue;
    lines.push('', `## ${group}`, '');
    for (const e of g.sourced) {
      const judge = e.judgeOn ? `judge on ${e.judgeOn}` : 'sources in both halves';
      lines.push(`- ${e.name}: ${e.from.map((f) => `${f.id} (${f.half})`).join(', ')}; ${judge}`);
    }
  }
  console.log(lines.join('\n'));
  if (args.includes('--effects')) console.log(effects([...groups.values()].flatMap((g) => g.sourced)));
  if (jsonOut) {
    writeFileSync(
      jsonOut,
      `${JSON.stringify(
        [...groups.values()].flatMap((g) => g.sourced),
        null,
        2,
      )}\n`,
    );
    console.error(`[score-sources] ${total.sourced} entries with a known source → ${jsonOut}`);
  }
}

/**
 * The in-sample and out-of-sample gain of the scores written from each half: each set turned off
 * together, and the requests each half loses, as a Markdown table.
 */
function effects(sourced: readonly Sourced[]): string {
  const data = loadEvalData();
  const requests = singleCallRequests(data);
  const size = halfSizes(requests);
  const base = run(data, requests);
  const rate = (n: number, h: Half): string => `${n} (${(n / size[h]).toFixed(3)})`;
  const lines = [
    '',
    '## Gain in sample and out of sample',
    '',
    `With every score: A ${rate(base.right.A, 'A')} of ${size.A}, B ${rate(base.right.B, 'B')} of ${size.B} right (right tool given).`,
    '',
    '| scores turned off | entries | A without them | B without them | gain on the half written from | gain on the other half |',
    '|---|---|---|---|---|---|',
  ];
  const sets: { label: string; written: Half | 'both'; test: (e: Sourced) => boolean }[] = [
    { label: 'written from A only', written: 'A', test: (e) => e.judgeOn === 'B' },
    { label: 'written from B only', written: 'B', test: (e) => e.judgeOn === 'A' },
    { label: 'written from both halves', written: 'both', test: (e) => e.judgeOn === undefined },
  ];
  for (const set of sets) {
    const names = sourced.filter(set.test).map((e) => e.name);
    setScores(Object.fromEntries(names.map((n) => [n, 0])));
    const without = run(data, requests);
    resetScores();
    const loss = { A: base.right.A - without.right.A, B: base.right.B - without.right.B };
    const [inSample, outOfSample] =
      set.written === 'both'
        ? [`${loss.A} (A), ${loss.B} (B)`, 'none']
        : set.written === 'A'
          ? [`${loss.A} (A)`, `${loss.B} (B)`]
          : [`${loss.B} (B)`, `${loss.A} (A)`];
    lines.push(
      `| ${set.label} | ${names.length} | ${rate(without.right.A, 'A')} | ${rate(without.right.B, 'B')} | ${inSample} | ${outOfSample} |`,
    );
  }
  return lines.join('\n');
}

main();
