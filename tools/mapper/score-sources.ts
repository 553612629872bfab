/**
 * The dev requests each mapper score's rule was written from (Score.from), with their half of the
 * dev split (FNV-1a of the request id, even → A, odd → B, as tools/mapper/split-eval.ts): a rule
 * written from requests of one half is kept only where it gains on the other (issue 41). Run from
 * the repository root:
 *
 *   npx tsx tools/mapper/score-sources.ts [--json FILE]
 *
 * Prints a Markdown table of the score groups (entries, entries with a known source, the source ids
 * of each half), then each entry with a known source: its ids and halves, and the half it is to be
 * judged on ('B' for a rule written from A only, 'A' for one written from B only, none where its
 * sources lie in both halves). With --json, writes the same per entry to FILE.
 */
import { writeFileSync } from 'node:fs';
import { allScores } from '@toolsurface/analysis';
import { halfOf, type Half } from './halves-lib.js';
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

main();
