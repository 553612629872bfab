import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

/** Parses `--name value` flags. */
export function flags(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out.set(argv[i].slice(2), 'true');
    else out.set(argv[i].slice(2), argv[++i]);
  }
  return out;
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
