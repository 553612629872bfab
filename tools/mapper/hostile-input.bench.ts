/**
 * Time of `mapArguments` on long hostile requests (not a test: speed lives in benchmarks). Each
 * pattern is repeated to N characters (default 20,000, the mapper's own cut) and mapped onto
 * tools whose parameters invite the rules that compare spans, commands, lists and numbers.
 * Prints every (pattern, tool) over 50 ms and the slowest of all. Then the other way round: short
 * plain requests onto tools whose schemas are large, the mean time a call against a plain tool
 * (a required enum of 500 values of 20 words; 8 numeric enums whose descriptions explain 2,000
 * codes, 54,000 characters each; an integer whose description does; 8 enums of 2,000 numbers
 * whose descriptions do). Run from the repository root:
 *
 *   npx tsx tools/mapper/hostile-input.bench.ts [N]
 */
import { mapArguments } from '@toolsurface/analysis';
import type { MapperTool } from '@toolsurface/analysis';

const ENUM_VALUES = Array.from(
  { length: 60 },
  (_, i) =>
    ['red', 'green', 'blue', 'small', 'large', 'winter', 'summer', 'morning', 'evening', 'cash'][i % 10] +
    (i >= 10 ? `_${['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'][Math.floor(i / 10) - 1]}` : ''),
);
const t = (props: Record<string, unknown>, req: string[]): MapperTool => ({
  name: 't',
  description: '',
  inputSchema: { type: 'object', properties: props, required: req },
});
const tools: Record<string, MapperTool> = {
  command: t(
    {
      command: { type: 'string', description: 'The shell command to run' },
      timeout_seconds: { type: 'integer', description: 'Timeout in seconds' },
    },
    ['command'],
  ),
  words: t({ items: { type: 'array', items: { type: 'string' } }, color1: { type: 'string' }, color2: { type: 'string' } }, [
    'items',
    'color1',
    'color2',
  ]),
  nums: t(
    {
      num1: { type: 'number' },
      num2: { type: 'number' },
      num3: { type: 'number' },
      adults: { type: 'integer' },
      days: { type: 'integer', description: 'Number of days' },
    },
    ['num1', 'num2', 'num3', 'adults', 'days'],
  ),
  place: t(
    {
      city: { type: 'string', description: "City, e.g. 'Paris, FR'" },
      country: { type: 'string' },
      unit: { type: 'string', description: "Can be 'metric', 'imperial'. Default is metric." },
    },
    ['city', 'country', 'unit'],
  ),
  time: t({ time: { type: 'string', description: 'Time HH:MM' }, id: { type: 'string', description: 'Ticket id' } }, ['time', 'id']),
  search: t({ query: { type: 'string', description: 'The search query.' } }, ['query']),
  ids: t(
    {
      websiteId: { type: 'string', description: 'The website.' },
      userId: { type: 'string', description: 'The user.' },
      items: { type: 'array', items: { type: 'string' } },
      quantities: { type: 'array', items: { type: 'integer' } },
    },
    ['websiteId'],
  ),
  area: t(
    { district_name: { type: 'string', description: 'The district.' }, rate: { type: 'integer', description: 'Duplications per hour.' } },
    ['district_name', 'rate'],
  ),
  math: t(
    {
      function1: { type: 'string', description: 'The first function.' },
      function2: { type: 'string', description: 'The second function.' },
      from_unit: { type: 'string' },
      to_unit: { type: 'string' },
      item: { type: 'string' },
      name: { type: 'string', description: 'The name of the project.' },
    },
    ['function1', 'name'],
  ),
  rates: t(
    Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: 'integer', description: 'The frequency of runs per hour.' }]),
    ),
    ['f0'],
  ),
  // five required enums sharing 60 values ("red", …, "cash_sigma"): each value is matched against the whole request
  enums: t(Object.fromEntries(['a_kind', 'b_kind', 'c_kind', 'd_kind', 'e_kind'].map((n) => [n, { type: 'string', enum: ENUM_VALUES }])), [
    'a_kind',
    'b_kind',
    'c_kind',
    'd_kind',
    'e_kind',
  ]),
};
const N = Number(process.argv[2] ?? 20000);
const patterns = [
  'command ',
  'command line ',
  'use the x command ',
  'and ',
  'red and blue ',
  'a, ',
  "'",
  "'a', ",
  '1 ',
  '1, 2 and ',
  '#a',
  'noon ',
  'midnight 23:00 ',
  'The X ',
  'Abc ',
  'default ',
  'the next ',
  '3 people ',
  'a',
  '1',
  'a@',
  'x=1 ',
  'use the command echo and run 1, 2 and 3 "a" #1 noon The Plaza every week for 3 people. ',
  'search tool ',
  ', and using the x y z ',
  'respond in ',
  ', ',
  'play song ',
  'Web ID is 5, ',
  '2 apples and ',
  '**a b c** ',
  'translate a to French ',
  'compounded monthly ',
  'A',
  'AbCdEfGh',
  'Ab-',
  'Ab District ',
  'twice an hour ',
  'x^2 ',
  '**4** ',
  '1+',
  '2x+',
  '3x^2*',
  'x**2-1 ',
  'in Housten ',
  'y=3x+2 and ',
  '2 cups of ',
  'how many pounds in 3 ',
  'the a project ',
  'project ID a ',
  "名为'a'的",
  'forest water chicken horror ',
  'green winter cash evening ',
];
// whole texts besides the repeated patterns: a long run of spaces before a last word
const texts: [string, string][] = patterns.map((p) => [JSON.stringify(p), p.repeat(Math.ceil(N / p.length)).slice(0, N)]);
texts.push(['"hello" + spaces + "x"', `hello${' '.repeat(N - 6)}x`], ['"hourly "', 'hourly '.repeat(Math.ceil(N / 7)).slice(0, N)]);
// a digit before a long run of spaces (quadratic in the functions-of-x pattern were its spaces not bounded)
texts.push(
  ['"1" + spaces + "+x"', `1${' '.repeat(N - 3)}+x`],
  ['"Integrate 2x" + spaces', `Integrate 2x from 0 to 1${' '.repeat(N - 24)}`],
);
let worst = { ms: 0, what: '' };
for (const [label, text] of texts) {
  for (const [name, tool] of Object.entries(tools)) {
    const started = performance.now();
    mapArguments(tool, text);
    const ms = performance.now() - started;
    if (ms > 50) console.log(`${label.padEnd(24)} ${name.padEnd(8)} ${ms.toFixed(0)} ms`);
    if (ms > worst.ms) worst = { ms, what: `${label} onto ${name}` };
  }
}
console.log(`slowest: ${worst.ms.toFixed(0)} ms (${worst.what}), ${N} characters`);

// short requests onto large schemas: the work that reads the schema alone is done once a parameter,
// not again per request (BENCHMARKS.md has the mean time a call against the plain tool's)
const NATO = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
  'uniform',
  'victor',
  'whiskey',
  'xray',
  'yankee',
  'zulu',
];
const longValues = Array.from({ length: 500 }, (_, i) =>
  Array.from({ length: 20 }, (_, j) => NATO[(i * 7 + j * 3 + (i >> 3)) % 26] + ((i + j) % 5)).join(' '),
);
const codeNotes = Array.from({ length: 2000 }, (_, i) => `'${i}' for ${NATO[i % 26]} ${NATO[(i * 5) % 26]}`).join(', ');
const large: Record<string, MapperTool> = {
  'plain (baseline)': t({ city: { type: 'string', description: 'The city.' }, kind: { type: 'string', enum: ['small', 'large'] } }, [
    'city',
    'kind',
  ]),
  'enum of 500 values of 20 words': t({ kind: { type: 'string', enum: longValues, description: 'The kind of thing' } }, ['kind']),
  '8 numeric enums, 2,000 codes': t(
    Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`c${i}`, { type: 'integer', enum: [1, 2, 3], description: codeNotes }])),
    ['c0', 'c1'],
  ),
  'integer, 2,000 codes': t({ code: { type: 'integer', description: codeNotes } }, ['code']),
  // (each code looked up among 2,000 enum values: costly if done per request, not once a parameter)
  '8 enums of 2,000 numbers, 2,000 codes': t(
    Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [
        `e${i}`,
        { type: 'integer', enum: Array.from({ length: 2000 }, (_, k) => 1999 - k), description: codeNotes },
      ]),
    ),
    ['e0'],
  ),
};
const short = [
  'Please pick the kind of thing for my family trip to Paris next week',
  'I want code alpha bravo for the hotel in golf country',
  'Book a table for 3 at 7pm',
];
console.log('short requests onto large schemas (mean ms a call, 10 passes of 3 requests):');
for (const [label, tool] of Object.entries(large)) {
  mapArguments(tool, short[0]);
  const started = performance.now();
  for (let pass = 0; pass < 10; pass++) for (const r of short) mapArguments(tool, `${r} ${pass}`);
  console.log(`  ${label.padEnd(40)} ${((performance.now() - started) / 30).toFixed(2)}`);
}

// a long request repeating the first word of a long enum's values, which matches none of them:
// costly if each value scans every occurrence of its first word (values × occurrences)
const shared = t({ mode: { type: 'string', enum: Array.from({ length: 10_000 }, (_, i) => `value_${i}_${'x'.repeat(i % 7)}`) } }, ['mode']);
const repeated = `set the mode to ${'value '.repeat(Math.ceil(N / 6))}`.slice(0, N);
const sharedStarted = performance.now();
mapArguments(shared, repeated);
console.log(`enum of 10,000 values sharing their first word, a request repeating it: ${(performance.now() - sharedStarted).toFixed(0)} ms`);
