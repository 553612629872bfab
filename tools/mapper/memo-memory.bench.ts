/**
 * Memory the word memos keep per distinct request (not a test: memory lives in benchmarks). Each
 * request is long and holds one word no other request has, the case where a memo entry keyed by
 * a view into the request (V8 makes a slice or split of 13 characters or more one) kept the whole
 * request alive. Prints the heap held after GC per request, for the search analyzer
 * (@toolsurface/search's tokenize, on its ASCII and Unicode paths) and for the mapper
 * (mapArguments). Run from the repository root (it needs --expose-gc):
 *
 *   node --expose-gc --import tsx tools/mapper/memo-memory.bench.ts [N]
 *
 * A memo that keeps a copy of its key holds under 1 KB per request (BENCHMARKS.md); one that kept
 * the request alive would hold tens of KB (docs/decisions/search-icu-word-segmentation.md).
 */
import { tokenize } from '@toolsurface/search';
import { mapArguments } from '@toolsurface/analysis';
import type { MapperTool } from '@toolsurface/analysis';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc --import tsx (see the header)');
const n = Number(process.argv[2] ?? 2000);
if (!(Number.isInteger(n) && n > 0)) throw new Error('N takes a whole number above 0');

/** Heap held after GC per call of `run`, in KB, over n distinct requests. */
function heldPerRequest(run: (i: number) => void): number {
  for (let i = 0; i < 20; i++) run(-1 - i);
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) run(i);
  gc!();
  return (process.memoryUsage().heapUsed - before) / n / 1024;
}

/** A word of 26+ characters no other request has. */
const unique = (i: number): string => `uniqueword${(i + 1e6).toString(36)}abcdefghijklmnop`;
const filler = 'lorem ipsum dolor '.repeat(1800);
const tool: MapperTool = {
  name: 't',
  description: 'Search.',
  inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'The search query' } }, required: ['q'] },
};

console.log(`held per distinct request after GC (KB), ${n} requests of about ${filler.length} characters:`);
console.log(`  search analyzer, ASCII path     ${heldPerRequest((i) => tokenize(`find ${unique(i)} ${filler}`)).toFixed(1)}`);
console.log(`  search analyzer, Unicode path   ${heldPerRequest((i) => tokenize(`find ${unique(i)} café ${filler}`)).toFixed(1)}`);
console.log(
  `  mapper (mapArguments)           ${heldPerRequest((i) => mapArguments(tool, `search for ${unique(i)} ${filler}`)).toFixed(1)}`,
);
