// The eval scripts' command lines (npm run eval:discovery / eval:unified): whoever checks the
// figures on a held-out split passes its files by flag, so a mistyped flag, a missing file or a bad
// record must stop the run with a usage error (exit 2) before anything starts, never quietly
// measure the default data; and the files given must be the ones measured.
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort, REPO_ROOT } from '@toolsurface/devkit';

const dir = mkdtempSync(join(tmpdir(), 'toolsurface-eval-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The default eval folder of the runs (TOOLSURFACE_EVAL_DIR): fixture files, so no case depends on the shared data beside the checkout. */
const evalDir = join(dir, 'eval');

// Each case starts a tsx process; on a loaded machine one start can take tens of seconds, so the
// budgets are wide (no speed is asserted here).
function run(
  script: 'discovery' | 'unified',
  args: string[],
  timeout = 90_000,
  defaults = evalDir,
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test', 'eval', `${script}.eval.ts`), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, TOOLSURFACE_EVAL_DIR: defaults, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonl = (rows: unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const tool = (id: string, name: string, description: string) => ({
  id,
  name,
  description,
  parameters: { type: 'object', properties: { city: { type: 'string', description: 'a city' } } },
  source: 'fixture',
});
const corpus = join(dir, 'corpus.jsonl');
writeFileSync(
  corpus,
  jsonl([
    tool('t:weather', 'get_weather', 'Current weather of a city'),
    tool('t:hotel', 'book_hotel', 'Book a hotel room in a city'),
    tool('t:flight', 'find_flights', 'Find flights between two airports'),
  ]),
);
const queries = join(dir, 'queries.jsonl');
writeFileSync(
  queries,
  jsonl([
    { id: 'q1', query: 'what is the weather in Paris', relevant: ['get_weather'], source: 'fixture:a' },
    { id: 'q2', query: 'book me a hotel room in Rome', relevant: ['book_hotel'], source: 'fixture:b' },
  ]),
);
mkdirSync(join(evalDir, 'metatool'), { recursive: true });
writeFileSync(join(evalDir, 'corpus.jsonl'), readFileSync(corpus));
writeFileSync(join(evalDir, 'queries.dev.jsonl'), readFileSync(queries));
writeFileSync(
  join(evalDir, 'queries.irrelevance.dev.jsonl'),
  jsonl([{ id: 'i0', query: 'tell me a joke', relevant: [], source: 'fixture', calls: [] }]),
);
writeFileSync(join(evalDir, 'metatool', 'corpus.jsonl'), jsonl([tool('m:news', 'NewsFinder', 'Latest news headlines')]));
writeFileSync(
  join(evalDir, 'metatool', 'queries.dev.jsonl'),
  jsonl([{ id: 'm0', query: 'the latest news', relevant: ['NewsFinder'], source: 'metatool:single_tool' }]),
);
const mtDir = join(dir, 'mt');
const mtQueries = join(dir, 'mt-heldout.jsonl');

describe('npm run eval:discovery', { timeout: 300_000 }, () => {
  it('lists its flags on --help and starts nothing', () => {
    const r = run('discovery', ['--help']);
    expect(r.status).toBe(0);
    for (const flag of ['--corpus', '--queries', '--metatool-dir', '--metatool-queries', '--skip-metatool', '--json', '--warm-up'])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).not.toContain('##');
  });

  it('refuses a mistyped flag, a stray argument and a flag without its value (exit 2, nothing measured)', () => {
    for (const [args, message] of [
      [['--query', queries], "unknown option '--query'"],
      [['queries.jsonl'], 'too many arguments'],
      [['--json'], "'--json <FILE>' argument missing"],
      [['--warm-up', 'many'], 'takes a whole number, at least 0, in digits'],
      [['--warm-up', ''], 'empty'],
      [['--warm-up', '1e1'], 'in digits'],
      [['--queries', queries, '--queries', queries], 'given twice'],
      [['--json', ''], 'empty'],
      [['--skip-metatool', '--metatool-queries', queries], '--skip-metatool leaves that pass out'],
    ] as const) {
      const r = run('discovery', [...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).not.toContain('##');
    }
  });

  it('refuses an input it cannot read, a bad record and an output it could not write, naming each', () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, jsonl([{ id: 'q1', query: 'x', relevant: ['a'], source: 's' }]) + '{"id": "q2", "query": "y", "source": "s"}\n');
    const notJson = join(dir, 'not-json.jsonl');
    writeFileSync(notJson, '{"id": "t1", "name": "a"}\n{oops\n');
    // (a byte-order mark and CRLF line ends are read as any JSONL reader reads them)
    const bom = join(dir, 'bom.jsonl');
    writeFileSync(
      bom,
      '\uFEFF' + jsonl([{ id: 'q1', query: 'x', relevant: ['a'], source: 's' }]).replace('\n', '\r\n') + '{"id": "q2"}\r\n',
    );
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n  \n');
    const blankQuery = join(dir, 'blank-query.jsonl');
    writeFileSync(blankQuery, jsonl([{ id: 'q1', query: ' ', relevant: ['get_weather'], source: 's' }]));
    const irrelevanceAsQueries = join(dir, 'irrelevance-as-queries.jsonl');
    writeFileSync(irrelevanceAsQueries, jsonl([{ id: 'i1', query: 'tell me a joke', relevant: [], source: 's' }]));
    const otherCorpus = join(dir, 'other-corpus-queries.jsonl');
    writeFileSync(
      otherCorpus,
      jsonl([
        { id: 'm1', query: 'news', relevant: ['NewsFinder'], source: 's' },
        { id: 'm2', query: 'recipes', relevant: ['RecipeBook'], source: 's' },
      ]),
    );
    const queriesLink = join(dir, 'queries-link.jsonl');
    symlinkSync(queries, queriesLink);
    const queriesHard = join(dir, 'queries-hard.jsonl');
    linkSync(queries, queriesHard);
    const oddDescription = join(dir, 'odd-description.jsonl');
    writeFileSync(oddDescription, jsonl([{ ...tool('t:a', 'a', 'x'), description: 42 }]));
    const twice = join(dir, 'twice.jsonl');
    writeFileSync(twice, jsonl([tool('t:a', 'a', 'x'), tool('t:a', 'b', 'y')]));
    for (const [args, message] of [
      [['--queries', join(dir, 'missing.jsonl')], `--queries ${join(dir, 'missing.jsonl')}: no such file or directory`],
      [['--corpus', dir], 'not a file'],
      [['--queries', bad, '--corpus', corpus], `${bad}:2: a query record needs an array of strings \`relevant\``],
      [['--corpus', notJson, '--queries', queries, '--skip-metatool'], `${notJson}:2: not JSON`],
      [['--corpus', twice, '--queries', queries, '--skip-metatool'], `${twice}:2: id "t:a" is on an earlier line too`],
      [['--queries', bom, '--corpus', corpus], `${bom}:2: a query record needs a non-empty string`],
      [['--metatool-dir', join(dir, 'nowhere')], 'no such file or directory'],
      [['--json', join(dir, 'no-such-dir', 'out.json')], `no directory ${join(dir, 'no-such-dir')}`],
      // the output must never overwrite an input, a default one included
      [['--corpus', corpus, '--queries', queries, '--skip-metatool', '--json', queries], 'names a file the run also reads or writes'],
      [['--skip-metatool', '--json', join(evalDir, 'corpus.jsonl')], 'names a file the run also reads or writes'],
      // the same file by another path: a symbolic link, a hard link
      [['--corpus', corpus, '--queries', queries, '--skip-metatool', '--json', queriesLink], 'names a file the run also reads or writes'],
      [['--corpus', corpus, '--queries', queriesLink, '--skip-metatool', '--json', queries], 'names a file the run also reads or writes'],
      [['--corpus', corpus, '--queries', queriesHard, '--skip-metatool', '--json', queries], 'names a file the run also reads or writes'],
      [
        ['--corpus', oddDescription, '--queries', queries, '--skip-metatool'],
        `${oddDescription}:1: a corpus record needs a string (or null) as \`description\``,
      ],
      [['--queries', empty, '--corpus', corpus], `${empty}: no records`],
      [['--queries', blankQuery, '--corpus', corpus], `${blankQuery}:1: a query record needs a non-empty string`],
      [
        ['--queries', irrelevanceAsQueries, '--corpus', corpus],
        `${irrelevanceAsQueries}: 1 of 1 records name no relevant tool (a file of requests no tool serves is for eval:unified --irrelevance), line 1`,
      ],
      [
        ['--queries', otherCorpus, '--corpus', corpus, '--skip-metatool'],
        `${otherCorpus}:1: relevant tool "NewsFinder" is in no record of ${corpus} (2 of 2 queries`,
      ],
      [['--metatool-dir', dir], `--metatool-dir: ${join(dir, 'queries.dev.jsonl')}: no such file`],
    ] as const) {
      const r = run('discovery', [...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // (twenty runs of the script, each a new node process: about a second each, more on a loaded machine)
  }, 120_000);

  it('says where a default input comes from when it is missing (a clone away from ../shared/eval)', () => {
    const nowhere = join(dir, 'no-eval-data');
    for (const script of ['discovery', 'unified'] as const) {
      const r = run(script, [], 90_000, nowhere);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `${join(nowhere, 'corpus.jsonl')}: no such file or directory: the default of --corpus is in the eval data folder ${nowhere}`,
      );
      expect(r.stderr).toContain('set TOOLSURFACE_EVAL_DIR or give --corpus');
    }
    // a path given by flag is named by its flag alone
    const r = run('discovery', ['--corpus', join(nowhere, 'corpus.jsonl')], 90_000, nowhere);
    expect(r.stderr).toContain(`--corpus ${join(nowhere, 'corpus.jsonl')}: no such file or directory`);
  });

  it('measures the files it is given, a MetaTool queries file by --metatool-queries included', () => {
    // (a real nats-server and discovery process, as every eval run)
    mkdirSync(mtDir, { recursive: true });
    writeFileSync(
      join(mtDir, 'corpus.jsonl'),
      jsonl([tool('m:news', 'NewsFinder', 'Latest news headlines'), tool('m:recipe', 'RecipeBook', 'Cooking recipes and meal ideas')]),
    );
    // a queries.dev.jsonl that must not be read when --metatool-queries is given
    writeFileSync(join(mtDir, 'queries.dev.jsonl'), '{not json\n');
    writeFileSync(
      mtQueries,
      jsonl([
        { id: 'm1', query: 'show me the latest news headlines', relevant: ['NewsFinder'], source: 'metatool:single_tool' },
        { id: 'm2', query: 'a recipe for dinner', relevant: ['RecipeBook'], source: 'metatool:single_tool' },
        { id: 'm3', query: 'cooking ideas and news', relevant: ['RecipeBook', 'NewsFinder'], source: 'metatool:multi_tool' },
      ]),
    );
    // one query of three names a tool the corpus lacks: measured (it scores 0), with a warning
    const withStray = join(dir, 'with-stray.jsonl');
    // and one is longer than the services take: cut to QUERY_MAX_CHARS, with a warning
    writeFileSync(
      withStray,
      readFileSync(queries, 'utf8') +
        jsonl([
          { id: 'q3', query: 'translate hello', relevant: ['translate'], source: 'fixture:a' },
          { id: 'q4', query: 'the weather in Paris '.repeat(2_000), relevant: ['get_weather'], source: 'fixture:a' },
        ]),
    );
    const out = join(dir, 'figures.json');
    const r = run(
      'discovery',
      [
        '--corpus',
        corpus,
        '--queries',
        withStray,
        '--metatool-dir',
        mtDir,
        '--metatool-queries',
        mtQueries,
        '--warm-up',
        '0',
        '--json',
        out,
      ],
      120_000,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${withStray}:3: relevant tool "translate" is in no record of ${corpus} (1 of 4 queries`);
    expect(r.stderr).toContain(
      `warning: ${withStray}: 1 query is longer than the services take (32000 characters), line 4: cut to the first 32000`,
    );
    const figures = JSON.parse(readFileSync(out, 'utf8')) as {
      queries: string;
      metatoolQueries: string;
      main: { report: Record<string, { ours: { n: number; recall1: number } }> };
      metatool: { report: Record<string, { ours: { n: number } }> };
    };
    // (recorded relative to the repository root, so a tracked results file names no machine's folders)
    expect(resolve(REPO_ROOT, figures.queries)).toBe(withStray);
    expect(resolve(REPO_ROOT, figures.metatoolQueries)).toBe(mtQueries);
    expect(figures.queries.startsWith('/')).toBe(false);
    expect(figures.main.report['all'].ours.n).toBe(4);
    expect(figures.main.report['all'].ours.recall1).toBeCloseTo(3 / 4, 10);
    expect(figures.metatool.report['metatool'].ours.n).toBe(3);
    expect(figures.metatool.report['metatool:multi_tool'].ours.n).toBe(1);
  }, 150_000);
});

describe('first-index.bench', { timeout: 300_000 }, () => {
  it('refuses a --json that names its corpus', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'test', 'eval', 'first-index.bench.ts'), '--corpus', corpus, '--json', corpus],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 90_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('names a file the run also reads or writes');
    expect(readFileSync(corpus, 'utf8')).toContain('get_weather');
  });
});

describe('npm run eval:unified', { timeout: 300_000 }, () => {
  it('refuses a mistyped flag and an input it cannot read before starting anything (exit 2)', () => {
    let r = run('unified', ['--irrelevant', queries]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option '--irrelevant'");
    r = run('unified', ['--irrelevance', join(dir, 'missing.jsonl')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--irrelevance');
    r = run('unified', ['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--png');
    // the files swapped: requests no tool serves given as the ones that name their tools
    const irrelevance = join(dir, 'irrelevance.jsonl');
    writeFileSync(irrelevance, jsonl([{ id: 'i1', query: 'tell me a joke', relevant: [], source: 's', calls: [] }]));
    r = run('unified', ['--corpus', corpus, '--queries', irrelevance, '--irrelevance', queries]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${irrelevance}: 1 of 1 records name no relevant tool`);
    const badCalls = join(dir, 'bad-calls.jsonl');
    writeFileSync(badCalls, jsonl([{ id: 'q1', query: 'weather in Paris', relevant: ['get_weather'], source: 's', calls: 'oops' }]));
    r = run('unified', ['--corpus', corpus, '--queries', badCalls, '--irrelevance', irrelevance]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${badCalls}:1: a query record needs null or an array of {name, arguments} as \`calls\``);
    // the figures and the diagram to one file, the default diagram's included
    for (const args of [
      ['--json', join(dir, 'same.out'), '--png', join(dir, 'same.out')],
      ['--json', join(REPO_ROOT, '.data', 'unified-reliability.png')],
    ]) {
      r = run('unified', ['--corpus', corpus, '--queries', queries, '--irrelevance', irrelevance, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/is where --json goes too|names a file the run also reads or writes/);
    }
    // a diagram path under a file, or a directory, is refused before the run (the run makes a missing directory)
    for (const png of [join(corpus, 'x.png'), dir]) {
      r = run('unified', ['--corpus', corpus, '--queries', queries, '--irrelevance', irrelevance, '--png', png]);
      expect(r.status, png).toBe(2);
      expect(r.stderr).toContain('--png');
    }
  });

  it("stops at once, with the service's own reason, when the mapper service exits at start", () => {
    const irrelevance = join(dir, 'irrelevance.jsonl');
    writeFileSync(irrelevance, jsonl([{ id: 'i1', query: 'tell me a joke', relevant: [], source: 's', calls: [] }]));
    // a model mapper without its model: unified-mapper refuses its configuration and exits 2
    const r = run('unified', ['--corpus', corpus, '--queries', queries, '--irrelevance', irrelevance], 90_000, evalDir, {
      MAPPER: 'openai',
      MAPPER_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      MAPPER_OPENAI_MODEL: '',
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('MAPPER_OPENAI_MODEL must name the model');
    expect(r.stderr).toContain('unified-mapper exited with code 2');
  });

  it("says who answered: a model that never answers leaves the rule engine's figures, and the run says so", async () => {
    const irrelevance = join(dir, 'irrelevance.jsonl');
    writeFileSync(irrelevance, jsonl([{ id: 'i1', query: 'tell me a joke', relevant: [], source: 's', calls: [] }]));
    const out = join(dir, 'model-down.json');
    // a free port: nothing listens, every model request is refused at once
    const closed = await findFreePort();
    const r = run('unified', ['--corpus', corpus, '--queries', queries, '--irrelevance', irrelevance, '--json', out], 90_000, evalDir, {
      MAPPER: 'openai',
      MAPPER_OPENAI_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      MAPPER_OPENAI_MODEL: 'absent-model',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      // (the request no tool serves offers the model no candidate: the rule engine answers it alone)
      "answered by: the model 0 of 3 requests, the rule engine 3; the model's answer not used: unreachable 2",
    );
    expect(r.stderr).toContain("the model answered none of the 3 requests: these are the rule engine's figures (unreachable 2)");
    expect(JSON.parse(readFileSync(out, 'utf8')).answeredBy).toEqual({ model: 0, rules: 3, modelFallbacks: { unreachable: 2 } });
    // without a model the run says the rule engine answered, and warns of nothing
    const rules = run('unified', ['--corpus', corpus, '--queries', queries, '--irrelevance', irrelevance]);
    expect(rules.status, rules.stderr).toBe(0);
    expect(rules.stdout).toContain('answered by: the rule engine, all 3 requests');
    expect(rules.stderr).not.toContain('the model answered none');
  });
});
