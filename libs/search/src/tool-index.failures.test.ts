// ToolIndex on the failure kinds of tool search, deprecated tools and the clause guarantee.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolIndex, type HeadReranker, type ToolIndexOptions } from './tool-index.js';
import type { SearchableTool } from './types.js';

describe('failure kinds of tool search', () => {
  const CATALOG: SearchableTool[] = [
    { name: 'ls', description: 'List directory contents.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'git', description: 'Run a git command in a repository.' },
    { name: 'git_status', description: 'Show the working tree status of a git repository.' },
    { name: 'github_search', description: 'Search GitHub repositories, issues and code.' },
    { name: 'cd', description: 'Change the working directory.' },
    { name: 'rm', description: 'Remove files or directories.' },
    { name: 'jq', description: 'Filter and transform JSON with a jq program.' },
    { name: 'ps', description: 'Report the running processes.' },
    { name: 'do', description: 'Run a task now.' },
    { name: 'fs.ls', description: 'List a folder of the virtual file system; like ls.' },
    { name: 'list_directory', description: 'List the files and folders in a directory (ls, dir).' },
    { name: 'remove_file', description: 'Delete a file: rm for one file.' },
    { name: 'get_weather', description: 'Current weather for a city.' },
    { name: 'get_weather_forecast', description: 'Get weather forecast: get the weather for the next days, get weather by city.' },
    { name: 'weather_alerts', description: 'Severe weather alerts; use it to get weather warnings and get weather news.' },
    { name: 'getWeatherHistory', description: 'Weather of past days for a city: get weather history.' },
  ];
  const index = ToolIndex.build(CATALOG);
  const first = (q: string): string | undefined => index.search(q, 5)[0]?.name;

  it('exact name: a tool asked for by its exact name is found first, ahead of tools whose text repeats the name', () => {
    for (const t of CATALOG) expect(first(t.name), t.name).toBe(t.name);
    // the same name in other spellings
    expect(first('get weather')).toBe('get_weather');
    expect(first('getWeather')).toBe('get_weather');
    expect(first('GET_WEATHER')).toBe('get_weather');
    expect(first('get_weather_history')).toBe('getWeatherHistory');
    // written as one word: the analyzer joins a request's camelCase words, not a tool's name
    expect(first('getweatherhistory')).toBe('getWeatherHistory');
    expect(first('getweather')).toBe('get_weather');
    // the last segment of a dotted name
    expect(
      index
        .search('ls', 5)
        .map((h) => h.name)
        .slice(0, 2),
    ).toEqual(['ls', 'fs.ls']);
  });

  it('short names: tools named with 2-3 characters are found alone, in a request, and when the name is a stop word', () => {
    for (const name of ['ls', 'cd', 'rm', 'jq', 'ps', 'git', 'do']) expect(first(name), name).toBe(name);
    expect(first('LS')).toBe('ls');
    // named inside a request: among the first three (fs.ls and list_directory rightly compete)
    const top3 = (q: string): string[] => index.search(q, 3).map((h) => h.name);
    expect(top3('run ls on /tmp')).toContain('ls');
    expect(top3('ls -la')).toContain('ls');
    expect(top3('show running processes with ps')).toContain('ps');
    expect(first('use git to commit')).toBe('git');
    expect(first('jq filter')).toBe('jq');
    expect(first('rm the old file')).toBe('rm');
    // "do" and "it" are stop words: a request made only of them is still read
    expect(first('do it')).toBe('do');
  });

  it('short names: a name a description writes in camelCase (GitHub, arXiv, YouTube) is found as one word, and the other way round', () => {
    const brands = ToolIndex.build([
      { name: 'search_code', description: 'Search code on GitHub.' },
      {
        name: 'get_paper',
        description: 'Get one paper.',
        inputSchema: { type: 'object', properties: { paper_id: { type: 'string', description: 'arXiv paper ID' } } },
      },
      { name: 'play_video', description: 'Play a YouTube video.' },
      { name: 'git_commit', description: 'Record changes in a git repository.' },
      { name: 'hub_status', description: 'Status of the hub.' },
      { name: 'youtube_dl', description: 'Download media.' },
      { name: 'get_weather', description: 'Current weather.' },
    ]);
    const top = (q: string): string | undefined => brands.search(q, 5)[0]?.name;
    // split into "git" and "hub" alone, "github" matched no tool and "arxiv" only by its digits
    expect(top('github')).toBe('search_code');
    expect(top('Github code')).toBe('search_code');
    expect(top('arxiv')).toBe('get_paper');
    expect(top('play a youtube video')).toBe('play_video');
    // a request that writes the camelCase form finds a tool named with the joined word
    expect(
      brands
        .search('YouTube', 2)
        .map((h) => h.name)
        .sort(),
    ).toEqual(['play_video', 'youtube_dl']);
  });

  it('no match: a search with no word in common with any tool returns [] (the service turns it into a reason and a hint)', () => {
    expect(index.search('zzqx frobnicate', 5)).toEqual([]);
    expect(ToolIndex.build([]).search('weather', 5)).toEqual([]);
  });
});

describe('deprecated tools', () => {
  // server-filesystem's own texts
  const fs: SearchableTool[] = [
    {
      name: 'read_file',
      title: 'Read File (Deprecated)',
      description: 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
    },
    {
      name: 'read_text_file',
      title: 'Read Text File',
      description: 'Read the complete contents of a file from the file system as text. Handles various text encodings.',
    },
    { name: 'npmDeprecated', description: 'Check if packages are deprecated' },
  ];

  it('ranks a tool that says it is deprecated after the one that replaces it, and still first by its exact name', () => {
    const index = ToolIndex.build(fs);
    for (const q of ['read a file', 'read the contents of a file', 'read a text file'])
      expect(
        index.search(q, 2).map((h) => h.name),
        q,
      ).toEqual(['read_text_file', 'read_file']);
    expect(index.search('read_file', 1)[0].name).toBe('read_file');
    // a tool about deprecation is not itself deprecated
    expect(index.search('is this npm package deprecated', 1)[0].name).toBe('npmDeprecated');
    // deprecatedDemotion 0 turns it off
    expect(ToolIndex.build(fs, { deprecatedDemotion: 0 }).search('read a file', 1)[0].name).toBe('read_file');
  });

  it('lists a tool once and keeps it for later searches when its postings add 0 (field weights of 5e-324)', () => {
    // (a doc listed again on each posting that adds 0 would overflow the reused list, and the one
    // left out would keep its score past the search, so no later search would find it)
    const tools: SearchableTool[] = [
      ...Array.from({ length: 9 }, (_, i) => ({ name: `t${i}`, description: 'red blue' })),
      { name: 'target', description: 'green' },
    ];
    const tiny = 5e-324;
    const opts: ToolIndexOptions = {
      semantic: false,
      fieldWeights: { name: tiny, title: tiny, description: tiny, params: tiny, paramDescriptions: tiny },
    };
    const index = ToolIndex.build(tools, opts);
    const names = index.search('red blue green', 20).map((h) => h.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('target');
    expect(index.search('green', 20).map((h) => h.name)).toEqual(['target']);
    expect(index.search('target', 20)[0]?.name).toBe('target');
  });

  it('lists a tool once for its exact name when a full demotion takes its score to 0', () => {
    // (the exact-name tier must not list it a second time: its score would read as that of a tool no term reached)
    const index = ToolIndex.build(fs, { deprecatedDemotion: 1 });
    for (const q of ['read_file', 'Read File (Deprecated)']) {
      const names = index.search(q, 10).map((h) => h.name);
      expect(names[0], q).toBe('read_file');
      expect(new Set(names).size, q).toBe(names.length);
    }
  });

  it('lets a deprecated tool gain no place over a tool that is not deprecated, whatever the head stage does', () => {
    const words = ['read', 'write', 'file', 'text', 'issue', 'create', 'delete', 'list', 'search', 'note'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...words), fc.boolean()), { minLength: 6, maxLength: 25 }),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 25, maxLength: 25 }),
        fc.constantFrom(...words),
        (specs, stageScores, word) => {
          const tools: SearchableTool[] = specs.map(([a, b, old], i) => ({
            name: `${a}_${b}_${i}`,
            description: `${old ? 'DEPRECATED: ' : ''}${a} a ${b} and more ${b}`,
          }));
          const stage: HeadReranker = { rerank: (_q, head) => head.map((_, i) => stageScores[i % stageScores.length]) };
          const q = `${word} a ${words[(words.indexOf(word) + 1) % words.length]}`;
          const before = ToolIndex.build(tools, { semantic: false })
            .search(q, 15)
            .map((h) => h.name);
          const after = ToolIndex.build(tools, { semantic: false, headReranker: stage })
            .search(q, 15)
            .map((h) => h.name);
          const isOld = (name: string): boolean => tools.find((t) => t.name === name)!.description!.startsWith('DEPRECATED');
          // (how many tools that are not deprecated stand above it)
          const above = (list: string[], name: string): number => list.slice(0, list.indexOf(name)).filter((n) => !isOld(n)).length;
          for (const name of after)
            if (isOld(name) && before.includes(name)) expect(above(after, name), name).toBeGreaterThanOrEqual(above(before, name));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the order with a head stage that prefers the deprecated tool (the service runs one)', () => {
    // a stage scoring each tool alone knows nothing of deprecation: the order must hold after it,
    // or the discovery service, which runs one, ranks read_file first
    const likesDeprecated: HeadReranker = { rerank: (_q, head) => head.map((h) => (h.name === 'read_file' ? 10 : 0)) };
    const index = ToolIndex.build(fs, { headReranker: likesDeprecated });
    for (const q of ['read a file', 'read a text file'])
      expect(
        index.search(q, 2).map((h) => h.name),
        q,
      ).toEqual(['read_text_file', 'read_file']);
  });
});

describe('clause guarantee with repeated names', () => {
  // names should be unique, but a repeated name is indexed as separate tools: moving one copy
  // must neither drop the other nor depend on where the other lies
  const verbs = ['get', 'create', 'delete', 'list', 'convert'];
  const objects = ['invoice', 'flight', 'weather', 'playlist', 'recipe', 'ticket'];
  const catalog: SearchableTool[] = [];
  for (const v of verbs)
    for (const o of objects)
      for (const copy of [0, 1])
        catalog.push({
          name: `${v}_${o}`,
          description: `${v} the ${o} ${copy === 0 ? 'records for a customer account' : 'details by its identifier and date'}`,
        });
  const on = ToolIndex.build(catalog);
  const off = ToolIndex.build(catalog, { clauseSlots: 0 });
  const multiset = (hits: { name: string }[]): string[] => hits.map((h) => h.name).sort();

  it('returns the same hits as without it, only re-ordered, and the first k of a longer list', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(...verbs),
            fc.constantFrom(...objects),
            fc.constantFrom('customer account records', 'details by identifier', 'for the date'),
          ),
          { minLength: 2, maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 80 }),
        (steps, k) => {
          const q = steps.map(([v, o, rest]) => `${v} the ${o} ${rest}`).join('. Then ');
          const all = on.search(q, 100);
          expect(multiset(all)).toEqual(multiset(off.search(q, 100)));
          expect(on.search(q, k)).toEqual(all.slice(0, k));
        },
      ),
      { numRuns: 150 },
    );
  });
});
