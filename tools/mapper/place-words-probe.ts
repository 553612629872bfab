// What the place words (@toolsurface/search's ToolIndexOptions.placeWordWeight, asksForPlaces) cost or give
// a catalog shaped like real MCP servers: for each marked request of probe/requests.ts, the
// rank of its first clearly right tool with the words off and at the given weight, and the mean
// reciprocal rank over all. At weight 1, read by the head reranker too, a geocoding tool takes the
// first place from the tool most requests name (docs/decisions/search-place-words.md). Check any
// new implied-word rule the same way.
// Run from the repository root: npx tsx tools/mapper/place-words-probe.ts [--weight W] [--rows]
import { ToolIndex } from '@toolsurface/search';
import { LexicalHeadReranker } from '@toolsurface/search';
import { catalog } from './probe/catalog.js';
import { right } from './probe/requests.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--weight');
const weight = at >= 0 ? Number(argv[at + 1]) : undefined;
if (weight !== undefined && !(weight >= 0)) throw new Error('--weight takes a number ≥ 0');
const tools = catalog as { name: string; description: string; inputSchema: Record<string, unknown> }[];
const off = ToolIndex.build(tools, { placeWordWeight: 0, headReranker: new LexicalHeadReranker(tools) });
const on = ToolIndex.build(tools, { placeWordWeight: weight, headReranker: new LexicalHeadReranker(tools) });
const rank = (index: ToolIndex, q: string, ok: string[]): number => {
  const i = index.search(q, 10).findIndex((h) => ok.includes(h.name));
  return i < 0 ? Infinity : i + 1;
};
let n = 0;
let mrrOff = 0;
let mrrOn = 0;
let lostFirst = 0;
let gainedFirst = 0;
for (const [q, ok] of Object.entries(right)) {
  n++;
  const a = rank(off, q, ok);
  const b = rank(on, q, ok);
  mrrOff += 1 / a;
  mrrOn += 1 / b;
  if (a === 1 && b > 1) lostFirst++;
  if (a > 1 && b === 1) gainedFirst++;
  if (argv.includes('--rows') && a !== b) console.log(`${String(a).padStart(8)} → ${String(b).padEnd(8)} ${q}`);
}
console.log(
  `${n} requests, ${tools.length} tools, place words at ${weight ?? 'the default weight'}: MRR@10 ${(mrrOff / n).toFixed(3)} → ${(mrrOn / n).toFixed(3)}; the right tool lost the first place in ${lostFirst}, gained it in ${gainedFirst}`,
);
