import { accessSync, constants, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { QUERY_MAX_CHARS, type BoundToolDefinition } from '@toolsurface/core';
import { connectNats, openSnapshotStore } from '@toolsurface/platform';
import { ensureNats, failIfExited, findFreePort, REPO_ROOT, spawnManaged, waitForServing, type ManagedProcess } from '@toolsurface/devkit';
import { serviceEntry } from '@toolsurface/stack';
import { DEFAULT_EVAL_DIR, readJsonl, type CorpusRecord, type RetrievalQueryRecord } from '@toolsurface/eval-kit';
import { SnapshotStore } from '@toolsurface/state';

/** The public eval data: $TOOLSURFACE_EVAL_DIR where set, else ../shared/eval beside the repository (@toolsurface/search's DEFAULT_EVAL_DIR). */
export { DEFAULT_EVAL_DIR };

/** One query record of the eval data, with the tool-call fields (shared/eval/README.md). */
export interface QueryRecord extends RetrievalQueryRecord {
  relevant_ids?: string[];
  arguments?: Record<string, unknown[]> | null;
  calls?: Array<{ name: string; arguments: Record<string, unknown[]> }>;
  schema_override?: Record<string, Record<string, unknown>>;
}

export { readJsonl };
export type { CorpusRecord };

/** Corpus records as snapshot definitions: the unique `id` is the tool's name (names repeat in the corpus). */
export function corpusDefinitions(records: readonly CorpusRecord[]): BoundToolDefinition[] {
  return records.map((r) => ({
    name: r.id,
    description: r.description,
    inputSchema: r.parameters ?? { type: 'object', properties: {} },
    capability: 'eval',
    originalName: r.name,
  }));
}

/** The slice of a query for the report: the README's groups. */
export function sliceOf(source: string): string {
  if (source.startsWith('bfcl_v4:live_')) return 'BFCL live';
  if (source.startsWith('bfcl_v4:')) return 'BFCL non-live';
  if (source.toLowerCase().startsWith('livemcpbench')) return 'LiveMCPBench';
  return source;
}

/** The p-th percentile (0-100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** One flag of an eval or bench script. */
export interface EvalFlag {
  /** the flag without its dashes, e.g. `queries` for `--queries` */
  name: string;
  /** the value's placeholder in the help, e.g. `P`; absent for a flag that takes no value */
  value?: string;
  description: string;
  /** an input the run reads: checked before any service starts (a file, or a directory) */
  input?: 'file' | 'dir';
  /** a file the run writes at its end: checked before anything starts, so no run's figures are lost to a mistyped path ('make-dirs': the run makes its directory) */
  output?: boolean | 'make-dirs';
  /** the least whole number the flag takes (its value is then written in digits only) */
  atLeast?: number;
}

/**
 * Reads an eval or bench script's command line with `commander`: `--help` prints the flags and
 * exits 0. These are usage errors, with the message on stderr and exit code 2 before anything
 * starts: an unknown flag, a stray argument, a flag given twice or without its value (or with an
 * empty one), a number that is not written in digits or is under its least value (EvalFlag.atLeast),
 * an input that cannot be read (EvalFlag.input), an output that cannot be written or names an
 * input (EvalFlag.output; `inputs` are the run's input paths, its defaults included). A mistyped
 * `--queries` must not quietly measure the default data instead, nor `--json` overwrite the data.
 * Paths are read from the working directory (the repository root under `npm run`).
 * @returns each given flag's value by name (`'true'` for a flag that takes no value)
 */
export function evalFlags(
  command: string,
  summary: string,
  argv: readonly string[],
  spec: readonly EvalFlag[],
  inputs: (given: ReadonlyMap<string, string>) => string[] = () => [],
): Map<string, string> {
  const program = new Command(command)
    .description(summary)
    .helpOption('-h, --help', 'print these flags and exit')
    .allowExcessArguments(false)
    .showHelpAfterError('(add --help for the flags)')
    .exitOverride();
  for (const f of spec) {
    if (f.value === undefined) {
      program.option(`--${f.name}`, f.description);
      continue;
    }
    program.option(`--${f.name} <${f.value}>`, f.description, (v: string, previous: string | undefined) => {
      if (previous !== undefined) throw new InvalidArgumentError('given twice (each flag takes one value)');
      if (v.trim() === '') throw new InvalidArgumentError('empty');
      if (f.atLeast !== undefined && !(/^\d+$/.test(v) && Number(v) >= f.atLeast))
        throw new InvalidArgumentError(`takes a whole number, at least ${f.atLeast}, in digits`);
      return v;
    });
  }
  try {
    program.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    throw e;
  }
  const given = program.opts<Record<string, string | boolean | undefined>>();
  const out = new Map<string, string>();
  for (const f of spec) {
    const v = given[f.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (v !== undefined) out.set(f.name, String(v));
  }
  const read = new Set(inputs(out).map(fileKey));
  const written = new Map<string, string>();
  for (const f of spec) {
    const v = out.get(f.name);
    if (v === undefined) continue;
    let problem = f.input !== undefined ? unreadable(v, f.input) : f.output ? unwritable(v, f.output === 'make-dirs') : undefined;
    if (problem === undefined && f.output) {
      const key = fileKey(v);
      if (read.has(key)) problem = 'names a file the run also reads or writes (an input, or a default output)';
      else if (written.has(key)) problem = `is where --${written.get(key)} goes too`;
      written.set(key, f.name);
    }
    if (problem !== undefined) usageError(command, `--${f.name} ${v}${v === resolve(v) ? '' : ` (${resolve(v)})`}: ${problem}`);
  }
  return out;
}

/**
 * What a path names, the same for every path to one file: its device and inode where it exists
 * (symbolic and hard links, `./`, `..`), else the real path of its nearest existing directory
 * joined with the rest.
 */
function fileKey(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st !== undefined) return `${st.dev}:${st.ino}`;
  const abs = resolve(path);
  let dir = dirname(abs);
  while (statSync(dir, { throwIfNoEntry: false }) === undefined && dirname(dir) !== dir) dir = dirname(dir);
  try {
    return join(realpathSync(dir), abs.slice(dir.length));
  } catch {
    return abs;
  }
}

/**
 * The usage error of an eval run's input file that cannot be read, or undefined when it can: the
 * flag that named it, or for a default path (`given` false), that it is the flag's default and
 * where the default comes from (a clone away from ../shared/eval has none).
 */
export function inputProblem(flag: string, path: string, given: boolean): string | undefined {
  const problem = unreadable(path, 'file');
  if (problem === undefined) return undefined;
  if (given) return `${flag}: ${resolve(path)}: ${problem}`;
  return `${resolve(path)}: ${problem}: the default of ${flag} is in the eval data folder ${DEFAULT_EVAL_DIR} (TOOLSURFACE_EVAL_DIR where set, else ../shared/eval beside the repository); set TOOLSURFACE_EVAL_DIR or give ${flag}`;
}

/** Why an input path cannot be read as a file or directory, or undefined when it can. */
export function unreadable(path: string, kind: 'file' | 'dir'): string | undefined {
  try {
    const st = statSync(path);
    if (kind === 'file' && !st.isFile()) return 'not a file';
    if (kind === 'dir' && !st.isDirectory()) return 'not a directory';
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message;
  }
}

/**
 * Why a file cannot be written where a path says (the path a directory or a file that cannot be
 * written, its directory missing or not writable), or undefined when it can. With `makeDirs`, a
 * missing directory is one the run makes: its nearest existing ancestor must be a writable directory.
 */
export function unwritable(path: string, makeDirs = false): string | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) return 'is a directory';
    if (st !== undefined && !st.isFile()) return 'not a regular file';
    if (st !== undefined) {
      accessSync(path, constants.W_OK);
      return undefined;
    }
    let dir = dirname(resolve(path));
    if (makeDirs) while (statSync(dir, { throwIfNoEntry: false }) === undefined && dirname(dir) !== dir) dir = dirname(dir);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      return statSync(dir, { throwIfNoEntry: false }) === undefined ? `no directory ${dir}` : `${dir} is not a directory`;
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The kinds of eval data file readEvalFile reads. */
export type EvalFileKind = 'corpus' | 'queries' | 'irrelevance';

/** The line of its file each record readEvalFile read came from (1-based). */
const LINE_OF = new WeakMap<object, number>();

/**
 * Reads an eval data file (JSONL, shared/eval/README.md "Record formats"; a byte-order mark is
 * skipped) and checks each record has the fields the scoring reads. A corpus record: a non-empty
 * string `id` (unique) and `name`. A query record (`queries`, or `irrelevance`: requests no tool
 * serves): a non-empty string `query`, a string `source`, an array `relevant` of strings and, where
 * present, `calls` an array of `{name, arguments}` and `schema_override` an object.
 * Records the scoring can still read are measured with a warning (`warn`): a query longer than the
 * services take is cut to its first QUERY_MAX_CHARS characters, as a client must cut it; a query
 * record without a relevant tool (it scores 0) or an irrelevance record with one (it is measured as
 * a request no tool serves). Where most records are such, the file is not of its kind (the two
 * files swapped, say): an error.
 * @throws Error naming the file and the line of the first bad record, before anything runs on it
 */
export function readEvalFile(path: string, kind: 'corpus', warn?: (message: string) => void): CorpusRecord[];
export function readEvalFile(path: string, kind: 'queries' | 'irrelevance', warn?: (message: string) => void): QueryRecord[];
export function readEvalFile(
  path: string,
  kind: EvalFileKind,
  warn: (message: string) => void = (m) => console.error(`warning: ${m}`),
): Array<CorpusRecord | QueryRecord> {
  const out: Array<CorpusRecord | QueryRecord> = [];
  const ids = new Set<string>();
  const cut: number[] = [];
  const offKind: number[] = [];
  readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const at = `${path}:${i + 1}`;
      let r: unknown;
      try {
        r = JSON.parse(line);
      } catch (e) {
        throw new Error(`${at}: not JSON (${(e as Error).message})`);
      }
      const rec = (isObject(r) ? r : {}) as Record<string, unknown>;
      const need = (field: string, ok: boolean, what: string): void => {
        if (!ok)
          throw new Error(
            `${at}: ${kind === 'corpus' ? 'a corpus' : kind === 'queries' ? 'a query' : 'an irrelevance'} record needs ${what} \`${field}\``,
          );
      };
      if (kind === 'corpus') {
        need('id', typeof rec['id'] === 'string' && rec['id'] !== '', 'a non-empty string');
        need('name', typeof rec['name'] === 'string' && rec['name'] !== '', 'a non-empty string');
        need(
          'description',
          rec['description'] === undefined || rec['description'] === null || typeof rec['description'] === 'string',
          'a string (or null) as',
        );
        need(
          'parameters',
          rec['parameters'] === undefined || rec['parameters'] === null || isObject(rec['parameters']),
          'a JSON Schema object (or null) as',
        );
        if (ids.has(rec['id'] as string))
          throw new Error(`${at}: id ${JSON.stringify(rec['id'])} is on an earlier line too (ids are the snapshot's tool names)`);
        ids.add(rec['id'] as string);
      } else {
        const q = rec['query'];
        need('query', typeof q === 'string' && q.trim() !== '', 'a non-empty string');
        need('source', typeof rec['source'] === 'string', 'a string');
        const relevant = rec['relevant'];
        need('relevant', Array.isArray(relevant) && relevant.every((x) => typeof x === 'string'), 'an array of strings');
        const calls = rec['calls'];
        need(
          'calls',
          calls === undefined ||
            calls === null ||
            (Array.isArray(calls) && calls.every((c) => isObject(c) && typeof c['name'] === 'string' && isObject(c['arguments']))),
          'null or an array of {name, arguments} as',
        );
        need('schema_override', rec['schema_override'] === undefined || isObject(rec['schema_override']), 'an object as');
        // (characters counted as the services count them: code points)
        const chars = [...(q as string)];
        if (chars.length > QUERY_MAX_CHARS) {
          rec['query'] = chars.slice(0, QUERY_MAX_CHARS).join('');
          cut.push(i + 1);
        }
        if ((kind === 'queries') === ((relevant as string[]).length === 0)) offKind.push(i + 1);
      }
      LINE_OF.set(rec, i + 1);
      out.push(rec as unknown as CorpusRecord | QueryRecord);
    });
  if (out.length === 0) throw new Error(`${path}: no records`);
  const lines = (xs: number[]): string => `line${xs.length > 1 ? 's' : ''} ${xs.slice(0, 5).join(', ')}${xs.length > 5 ? ', …' : ''}`;
  if (offKind.length > 0) {
    const what =
      kind === 'queries'
        ? 'name no relevant tool (a file of requests no tool serves is for eval:unified --irrelevance)'
        : 'name a relevant tool (a file of requests with their tools is for --queries)';
    const message = `${path}: ${offKind.length} of ${out.length} records ${what}, ${lines(offKind)}`;
    if (offKind.length * 2 > out.length) throw new Error(message);
    warn(`${message}; measured as they are`);
  }
  if (cut.length > 0)
    warn(
      `${path}: ${cut.length} quer${cut.length > 1 ? 'ies are' : 'y is'} longer than the services take (${QUERY_MAX_CHARS} characters), ${lines(cut)}: cut to the first ${QUERY_MAX_CHARS}`,
    );
  return out;
}

/**
 * Checks that a queries file's tools are in its corpus: a query whose `relevant` names a tool no
 * corpus record has can only score 0 for that tool. Where more than half of the queries do, the
 * files do not belong together (a held-out file measured over another corpus, or MetaTool's
 * queries over the main corpus): an error. Fewer are measured as they are, with a warning.
 * @returns a warning naming the first such query's file and line and how many there are, or undefined when every tool is in the corpus
 * @throws Error with that message when more than half of the queries name such a tool
 */
export function checkRelevantInCorpus(
  queries: readonly QueryRecord[],
  queriesPath: string,
  corpus: readonly CorpusRecord[],
  corpusPath: string,
): string | undefined {
  const names = new Set(corpus.map((r) => r.name));
  const lacking = queries.filter((q) => q.relevant.some((n) => !names.has(n)));
  if (lacking.length === 0) return undefined;
  const first = lacking[0];
  const missing = first.relevant.find((n) => !names.has(n));
  const message = `${queriesPath}:${LINE_OF.get(first) ?? '?'}: relevant tool ${JSON.stringify(missing)} is in no record of ${corpusPath} (${lacking.length} of ${queries.length} queries name such a tool`;
  if (lacking.length * 2 > queries.length) throw new Error(`${message}; is this the corpus they were written for?)`);
  return `${message}; they are measured, and score 0 for it)`;
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A path as the figures record it: relative to the repository root, so no machine's folders are written into a tracked file. */
export function repoRelative(path: string): string {
  return relative(REPO_ROOT, resolve(path));
}

/**
 * Writes a run's figures as JSON to `path`. Where that fails after all (the path was checked
 * before the run: evalFlags), the figures go to stdout after the error, so a finished run loses
 * nothing; the process then exits 1.
 */
export function writeFigures(path: string, figures: unknown): void {
  const text = `${JSON.stringify(figures, null, 2)}\n`;
  try {
    writeFileSync(path, text);
    console.log(`figures written to ${path}`);
  } catch (e) {
    console.error(`could not write the figures to ${path} (${(e as Error).message}); here they are:`);
    process.stdout.write(text);
    process.exitCode = 1;
  }
}

/** Prints a usage error of an eval or bench script and exits 2. */
export function usageError(command: string, message: string): never {
  process.stderr.write(`${command}: ${message}\n(add --help for the flags)\n`);
  process.exit(2);
}

/** A service under evaluation: its own nats-server and the service as a real process on a free port. */
export interface EvalService {
  address: string;
  snapshots: SnapshotStore;
  stop(): Promise<void>;
}

/**
 * Starts a nats-server (own data dir) and one service process; snapshots are written straight to
 * the object store. EVAL_NODE_ARGS (space-separated) are passed to the service's node before its
 * entry, e.g. `EVAL_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` to profile the service under
 * an eval (node refuses --cpu-prof in NODE_OPTIONS).
 */
export async function startEvalService(name: 'discovery' | 'unified-mapper'): Promise<EvalService> {
  const dir = mkdtempSync(join(tmpdir(), `toolsurface-eval-${name}-`));
  const nats = await ensureNats({
    url: `nats://127.0.0.1:${await findFreePort()}`,
    dataDir: join(dir, 'nats'),
    logPath: join(dir, 'nats.log'),
  });
  const port = await findFreePort();
  let proc: ManagedProcess | undefined;
  try {
    proc = spawnManaged(
      name,
      process.execPath,
      [...(process.env.EVAL_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', serviceEntry(name)],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          NATS_URL: nats.url,
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(port),
          LOG_LEVEL: 'warn',
          MAX_SNAPSHOTS: '8',
          MAX_INDEXED_SNAPSHOTS: '8',
        },
        logPath: join(dir, `${name}.log`),
      },
    );
    const address = `127.0.0.1:${port}`;
    // a service that stopped at start (a config error: its log says which) is reported at once,
    // not after the whole wait
    await waitForServing(address, { timeoutMs: 60_000, check: failIfExited(proc) });
    const nc = await connectNats(nats.url, `eval-${name}`);
    const snapshots = new SnapshotStore(await openSnapshotStore(nc));
    return {
      address,
      snapshots,
      async stop() {
        await nc.drain().catch(() => undefined);
        await proc?.stop();
        await nats.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    if (proc) console.error(proc.tail());
    await proc?.stop();
    await nats.stop();
    throw e;
  }
}
