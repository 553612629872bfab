/**
 * Writes docs/decisions/README.md, the index of the decision records: one line per record (its
 * title, and whether the idea was kept or dropped), grouped by area, read from the records themselves so the
 * index cannot drift from them.
 *
 *   npx tsx tools/docs/decisions-index.ts           # rewrite the index
 *   npx tsx tools/docs/decisions-index.ts --check   # exit 1 when the index is stale
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the index shows of one record. */
export interface DecisionRecord {
  file: string;
  title: string;
  status: string;
  area: string;
  date?: string;
}

const DECISIONS_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../docs/decisions');

/** Reads a record's title (its first heading) and its Status, Area and Date lines; throws naming the file when one is missing. */
export function parseRecord(file: string, text: string): DecisionRecord {
  const title = /^# (.+)$/m.exec(text)?.[1]?.trim();
  const field = (name: string) => new RegExp(`^- ${name}: (.+)$`, 'm').exec(text)?.[1]?.trim();
  const status = field('Status');
  const area = field('Area');
  if (!title || !status || !area) throw new Error(`${file}: a record needs a "# title", a "- Status:" line and an "- Area:" line`);
  return { file, title, status, area, date: field('Date') };
}

/** The index text for `records`: areas in alphabetical order, records by title within an area. */
export function renderIndex(records: readonly DecisionRecord[]): string {
  const areas = [...new Set(records.map((r) => r.area))].sort();
  const lines = [
    '# Decisions',
    '',
    'One short record per idea kept or dropped (marked), with the figure that decided it and the command that',
    'measured it. The current figures are in [BENCHMARKS.md](../../BENCHMARKS.md); this index is written by',
    '`npx tsx tools/docs/decisions-index.ts` from the records themselves.',
  ];
  for (const area of areas) {
    lines.push('', `## ${area}`, '');
    const inArea = records.filter((r) => r.area === area).sort((a, b) => a.file.localeCompare(b.file));
    // The file's name stands for the record (its title is its first line): the index stays short.
    for (const r of inArea) lines.push(`- [${r.file.replace(/\.md$/, '')}](${r.file})${r.status === 'kept' ? '' : ` (${r.status})`}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The index docs/decisions/README.md should hold now. */
export function expectedIndex(dir = DECISIONS_DIR): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
  return renderIndex(files.map((f) => parseRecord(f, readFileSync(join(dir, f), 'utf8'))));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--check')) {
    console.error('usage: npx tsx tools/docs/decisions-index.ts [--check]');
    process.exit(2);
  }
  const path = join(DECISIONS_DIR, 'README.md');
  const want = expectedIndex();
  if (process.argv.includes('--check')) {
    let have = '';
    try {
      have = readFileSync(path, 'utf8');
    } catch {
      // a missing index is stale
    }
    if (have !== want) {
      console.error('docs/decisions/README.md is stale: run npx tsx tools/docs/decisions-index.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(path, want);
    console.log(`wrote ${path}`);
  }
}
