/**
 * Writes what the argument mapper decides for every dev request, in full, so that a change meant
 * to keep behaviour (moving scores into data, splitting a module) can be checked byte for byte:
 * for each request (dev and irrelevance), the detailed mapping (arguments, evidence scores, the
 * confidence's mapping features, and the trace with each value's module, score and runner-up) onto
 * its ground-truth tools and onto four other corpus tools picked by the hash of its id.
 * Run from the repository root, before and after the change, and compare the files:
 *
 *   npx tsx tools/mapper/mapping-snapshot.ts /tmp/before.jsonl
 *   npx tsx tools/mapper/mapping-snapshot.ts /tmp/after.jsonl && cmp /tmp/before.jsonl /tmp/after.jsonl
 */
import { writeFileSync } from 'node:fs';
import { mapPrepared, prepare } from '@toolsurface/analysis';
import { fnv1a } from '@toolsurface/eval-kit';
import { EVAL_NOW } from './eval-lib.js';
import { loadEvalData, scoringSchema } from './data.js';

/** Other corpus tools each request is also mapped onto (selection maps onto every candidate, not only the right one). */
const OTHER_TOOLS = 4;

function main(): void {
  const out = process.argv[2];
  if (!out) throw new Error('usage: mapping-snapshot.ts OUT.jsonl');
  const data = loadEvalData();
  const lines: string[] = [];
  const t0 = Date.now();
  for (const q of [...data.dev, ...data.irrelevant]) {
    const ids = [...(q.relevant_ids ?? [])];
    const h = fnv1a(q.id);
    for (let i = 0; i < OTHER_TOOLS; i++) ids.push(data.corpus[(h + i * 7919) % data.corpus.length].id);
    const { doc, ctx } = prepare(q.query, undefined, { now: EVAL_NOW, trace: true });
    for (const id of ids) {
      const m = mapPrepared(
        { name: id, description: data.byId.get(id)?.description, inputSchema: scoringSchema(q, id, data.byId) },
        doc,
        ctx,
      );
      lines.push(JSON.stringify({ q: q.id, tool: id, m }));
    }
  }
  writeFileSync(out, lines.join('\n') + '\n');
  console.error(`[snapshot] ${lines.length} mappings in ${Date.now() - t0} ms → ${out}`);
}

main();
