import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type BoundToolDefinition } from '@toolsurface/core';
import { connectNats, openSnapshotStore } from '@toolsurface/platform';
import { ensureNats, findFreePort, REPO_ROOT, serviceEntry, spawnManaged, waitForServing, type ManagedProcess } from '@toolsurface/stack';
import { readJsonl, type CorpusRecord, type RetrievalQueryRecord } from '@toolsurface/search';
import { SnapshotStore } from '@toolsurface/state';

/** The public eval data beside the repository (../shared/eval). */
export const DEFAULT_EVAL_DIR = resolve(REPO_ROOT, '..', 'shared', 'eval');

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
  /** a file the run writes at its end: its directory is checked before anything starts, so no run's figures are lost to a mistyped path */
  output?: boolean;
}

/**
 * Reads an eval or bench script's command line with `commander`: `--help` prints the flags and
 * exits 0; an unknown flag, a stray argument, a flag without its value, or an input (EvalFlag.input)
 * that cannot be read is a usage error: its message on stderr and exit code 2, before anything is
 * started (a mistyped `--queries` must not quietly measure the default data instead).
 * @returns each given flag's value by name (`'true'` for a flag that takes no value)
 */
export function evalFlags(command: string, summary: string, argv: readonly string[], spec: readonly EvalFlag[]): Map<string, string> {
  const program = new Command(command)
    .description(summary)
    .helpOption('-h, --help', 'print these flags and exit')
    .allowExcessArguments(false)
    .showHelpAfterError('(add --help for the flags)')
    .exitOverride();
  for (const f of spec) program.option(f.value === undefined ? `--${f.name}` : `--${f.name} <${f.value}>`, f.description);
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
    if (v === undefined) continue;
    out.set(f.name, String(v));
    const problem = f.input !== undefined ? unreadable(String(v), f.input) : f.output ? unwritable(String(v)) : undefined;
    if (problem !== undefined) usageError(command, `--${f.name} ${String(v)}: ${problem}`);
  }
  return out;
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
 * Reads an eval data file (JSONL, shared/eval/README.md "Record formats") and checks each record
 * has the fields the scoring reads: a corpus record a string `id` and `name` (ids unique), a query
 * record a string `query` and `source` and an array `relevant` of strings.
 * @throws Error naming the file and the line of the first bad record, before anything runs on it
 */
export function readEvalFile(path: string, kind: 'corpus'): CorpusRecord[];
export function readEvalFile(path: string, kind: 'queries'): QueryRecord[];
export function readEvalFile(path: string, kind: 'corpus' | 'queries'): Array<CorpusRecord | QueryRecord> {
  const out: Array<CorpusRecord | QueryRecord> = [];
  const ids = new Set<string>();
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
      const rec = (r !== null && typeof r === 'object' && !Array.isArray(r) ? r : {}) as Record<string, unknown>;
      const need = (field: string, ok: boolean, what: string): void => {
        if (!ok) throw new Error(`${at}: a ${kind === 'corpus' ? 'corpus' : 'query'} record needs ${what} \`${field}\``);
      };
      if (kind === 'corpus') {
        need('id', typeof rec['id'] === 'string' && rec['id'] !== '', 'a non-empty string');
        need('name', typeof rec['name'] === 'string' && rec['name'] !== '', 'a non-empty string');
        if (ids.has(rec['id'] as string)) throw new Error(`${at}: id ${JSON.stringify(rec['id'])} is on an earlier line too (ids are the snapshot's tool names)`);
        ids.add(rec['id'] as string);
      } else {
        need('query', typeof rec['query'] === 'string', 'a string');
        need('source', typeof rec['source'] === 'string', 'a string');
        need('relevant', Array.isArray(rec['relevant']) && rec['relevant'].every((x) => typeof x === 'string'), 'an array of strings');
      }
      out.push(rec as unknown as CorpusRecord | QueryRecord);
    });
  if (out.length === 0) throw new Error(`${path}: no records`);
  return out;
}

/** Why a file cannot be written where a path says (its directory missing or not writable, or the path a directory), or undefined when it can. */
export function unwritable(path: string): string | undefined {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return 'is a directory';
    accessSync(dirname(resolve(path)), constants.W_OK);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? `no directory ${dirname(resolve(path))}` : (e as Error).message;
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
  const nats = await ensureNats({ url: `nats://127.0.0.1:${await findFreePort()}`, dataDir: join(dir, 'nats'), logPath: join(dir, 'nats.log') });
  const port = await findFreePort();
  let proc: ManagedProcess | undefined;
  try {
    proc = spawnManaged(name, process.execPath, [...(process.env.EVAL_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', serviceEntry(name)], {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: nats.url, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), LOG_LEVEL: 'warn', MAX_SNAPSHOTS: '8', MAX_INDEXED_SNAPSHOTS: '8' },
      logPath: join(dir, `${name}.log`),
    });
    const address = `127.0.0.1:${port}`;
    await waitForServing(address, { timeoutMs: 60_000 });
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
