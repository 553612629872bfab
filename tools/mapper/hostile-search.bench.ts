/**
 * Cost of discover_tools' search (@toolsurface/search's ToolIndex with its head
 * reranker) on hostile text, as ratios (not a test: speed lives in benchmarks). For each pattern, a request of 500, 1,000, 2,000 and 4,000 characters (the
 * analyzer's cut) is searched on the eval corpus (3,091 tools, head reranker on, as the discovery
 * service builds it) and the best of 3 times is printed with its growth per doubling: about 2
 * is linear, 4 quadratic. Then one tool whose description is the pattern at 32,000 characters
 * (the most of a tool's text that is read) is indexed beside a plain one, against two plain ones.
 * Run from the repository root:
 *
 *   npx tsx tools/mapper/hostile-search.bench.ts
 *
 * The request patterns: runs of combining marks, variation selectors or identifier joiners with
 * no letter, after a non-ASCII character (the ASCII path never sees them); a pasted log with a long
 * rule line; requests full of values (numbers, times, dates), which the mapper's analysis reads
 * for the head reranker's requiredUnmet feature; and Thai and Myanmar runs, which ICU's segmenter
 * cuts into words. The schemas: large ones (5,000 properties, 5,000 required dates, a required
 * enum of 100,000 values), timed as profiling one (`warm`) and as a search with it in the head,
 * against a plain twin; required enums at the bounds of requiredUnmet's reading (an enum of 256
 * values of 100 characters, 32 required enums of 2 values and 32 of 256, where the mapper's way
 * takes at most 64 values and 8 enums a tool); enums beyond those bounds, read as whole words (64
 * values of 20 words, 8 numeric enums with 10,000-character descriptions); and the costliest
 * within them (64 values of four short words, 8 numeric enums with 500-character descriptions).
 */
import { resolve } from 'node:path';
import { DEFAULT_EVAL_DIR, corpusAsTools, readJsonl, type CorpusRecord } from '@toolsurface/eval-kit';
import { ToolIndex, type SearchableTool } from '@toolsurface/search';
import { LexicalHeadReranker } from '@toolsurface/search';

const EVAL_DIR = DEFAULT_EVAL_DIR;

const patterns: Record<string, (n: number) => string> = {
  'combining marks U+0301': (n) => '\u0301'.repeat(n),
  'variation selectors U+FE0F': (n) => '\ufe0f'.repeat(n),
  '’ then dashes': (n) => '’' + '-'.repeat(n - 1),
  '’ then underscores': (n) => '’' + '_'.repeat(n - 1),
  'emoji then dots': (n) => '😀 ' + '.'.repeat(n - 3),
  'log with a rule line': (n) => `Summarize this log — it’s from the deploy\n${'-'.repeat(n - 60)}\nerror: timeout`,
  numbers: (n) =>
    Array.from({ length: n }, (_, i) => String(i % 100))
      .join(' ')
      .slice(0, n),
  times: (n) => '5 pm 6:30 '.repeat(Math.ceil(n / 10)).slice(0, n),
  dates: (n) => 'on 2024-05-01 and 3/4/2023 '.repeat(Math.ceil(n / 27)).slice(0, n),
  // (Thai writes no spaces between words: ICU's segmenter cuts each run into words)
  'Thai text': (n) => 'ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้าและทำความสะอาด '.repeat(Math.ceil(n / 46)).slice(0, n),
  'Thai tone marks U+0E48': (n) => 'ก' + '\u0e48'.repeat(n - 1),
  // (ICU's segmenter is superlinear in a run's length: 8 s for one pass over 32,000 random Myanmar
  // letters; segmentRun hands it 256 characters at a time)
  'random Myanmar letters': (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(0x1000 + ((i * 7919) % 33))).join(''),
  'plain English (baseline)': (n) => 'find the weather forecast for paris tomorrow and book a table '.repeat(Math.ceil(n / 62)).slice(0, n),
};

const best = (f: () => void, reps = 3): number => {
  let ms = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    f();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
};

const { tools } = corpusAsTools(readJsonl<CorpusRecord>(resolve(EVAL_DIR, 'corpus.jsonl')));
const index = ToolIndex.build(tools, { headReranker: new LexicalHeadReranker(tools) });
while (!index.warm(1000)) {
  // build every lazy table before timing
}
for (const t of tools.slice(0, 300)) index.search(t.name, 10);

console.log('search, best of 3 (ms) at 500 / 1,000 / 2,000 / 4,000 characters, and growth per doubling');
for (const [label, make] of Object.entries(patterns)) {
  const ms = [500, 1000, 2000, 4000].map((n) => best(() => index.search(make(n), 10)));
  const growth = ms.slice(1).map((m, i) => (m / Math.max(ms[i], 1e-3)).toFixed(1));
  console.log(`  ${label.padEnd(28)} ${ms.map((m) => m.toFixed(2)).join(' / ')}   ×${growth.join(' ×')}`);
}

console.log('indexing one tool of 32,000 characters beside a plain one, against two plain tools (ms, best of 3)');
const plain: SearchableTool = { name: 'get_weather', description: 'Weather for a city.' };
const twoPlain = best(() => ToolIndex.build([plain, { name: 'get_time', description: 'Time in a city.' }], { semantic: false }));
for (const [label, make] of Object.entries(patterns)) {
  const ms = best(() => ToolIndex.build([plain, { name: 'hostile_tool', description: make(32_000) }], { semantic: false }));
  console.log(`  ${label.padEnd(28)} ${ms.toFixed(2)} (two plain tools ${twoPlain.toFixed(2)})`);
}

console.log(
  'one tool with a large schema in the head: profiling it (warm) and a search with it second, against a plain twin (ms, best of 3)',
);
const obj = (properties: Record<string, unknown>, required: string[]): Record<string, unknown> => ({
  type: 'object',
  properties,
  required,
});
const schemas: Record<string, () => Record<string, unknown>> = {
  'plain twin (baseline)': () => obj({ city: { type: 'string' }, date: { type: 'string', format: 'date' } }, ['city', 'date']),
  '5,000 optional properties': () =>
    obj(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field_${i}`, { type: 'string' }])), []),
  '5,000 required dates': () => {
    const names = Array.from({ length: 5000 }, (_, i) => `date_${i}`);
    return obj(Object.fromEntries(names.map((k) => [k, { type: 'string', format: 'date' }])), names);
  },
  'required enum of 100,000 values': () =>
    obj({ mode: { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `mode${i}`) } }, ['mode']),
  // (requiredUnmet reads up to 256 values of an enum, of up to 100 characters each, as whole words)
  'required enum of 256 long values': () =>
    obj({ mode: { type: 'string', enum: Array.from({ length: 256 }, (_, i) => `${'weather report '.repeat(6)}variant ${i}`) } }, ['mode']),
  '32 required enums of 2 values': () => {
    const names = Array.from({ length: 32 }, (_, i) => `mode_${i}`);
    return obj(Object.fromEntries(names.map((k, j) => [k, { type: 'string', enum: [`option${j} weather`, `choice${j} weather`] }])), names);
  },
  // (beyond the bounds of the mapper's way of reading enums, read as whole words; then the costliest within them)
  'enum of 64 values of 20 words': () =>
    obj(
      {
        mode: {
          type: 'string',
          description: 'the weather mode',
          enum: Array.from({ length: 64 }, (_, v) => Array.from({ length: 20 }, (_, w) => `w${v * 20 + w}`).join(' ')),
        },
      },
      ['mode'],
    ),
  '8 numeric enums, 10,000-char notes': () => {
    const names = Array.from({ length: 8 }, (_, i) => `code_${i}`);
    return obj(
      Object.fromEntries(
        names.map((k) => [
          k,
          {
            type: 'string',
            enum: ['10', '20'],
            description: Array.from({ length: 3000 }, (_, i) => `'${i}' for weather`)
              .join(', ')
              .slice(0, 10_000),
          },
        ]),
      ),
      names,
    );
  },
  'enum of 64 values of 4 short words': () =>
    obj(
      {
        mode: {
          type: 'string',
          description: 'the weather mode',
          enum: Array.from({ length: 64 }, (_, v) =>
            Array.from(
              { length: 4 },
              (_, w) => `${'bcdfghjklm'[(v * 4 + w) % 10]}a${'npqrstvwxz'[Math.floor((v * 4 + w) / 10) % 10]}`,
            ).join(' '),
          ),
        },
      },
      ['mode'],
    ),
  '8 numeric enums, 500-char notes': () => {
    const names = Array.from({ length: 8 }, (_, i) => `code_${i}`);
    return obj(
      Object.fromEntries(
        names.map((k) => [
          k,
          {
            type: 'string',
            enum: ['10', '20'],
            description: Array.from({ length: 3000 }, (_, i) => `'${i}' for weather`)
              .join(', ')
              .slice(0, 500),
          },
        ]),
      ),
      names,
    );
  },
  '32 required enums of 256 values': () => {
    const names = Array.from({ length: 32 }, (_, i) => `mode_${i}`);
    return obj(
      Object.fromEntries(
        names.map((k, j) => [k, { type: 'string', enum: Array.from({ length: 256 }, (_, i) => `option${j}x${i} weather`) }]),
      ),
      names,
    );
  },
};
for (const [label, make] of Object.entries(schemas)) {
  const tool = { name: 'weather_history', description: 'Past weather of a city on a date.', inputSchema: make() };
  const others = [{ name: 'get_weather', description: 'Current weather of a city.' }];
  const warmMs = best(() => new LexicalHeadReranker([tool, ...others]).warm(60_000));
  const small = ToolIndex.build([tool, ...others], { headReranker: new LexicalHeadReranker([tool, ...others]) });
  small.search('weather in Paris', 10);
  const searchMs = best(() => small.search('past weather in Paris on 2024-05-01', 10), 5);
  console.log(`  ${label.padEnd(32)} warm ${warmMs.toFixed(2)}   search ${searchMs.toFixed(3)}`);
}
