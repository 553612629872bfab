// npx tsx test/eval/first-index.bench.ts [--runs N] [--only build|service|search] [--corpus P] [--json FILE]
// How long a new snapshot takes to become searchable (docs/DESIGN.md "Performance budget": 3,000 tools
// indexed and searchable within 300 ms), each run in fresh processes, on cold code as a new service
// replica would run it. Medians over `--runs` (default 7) runs of three measurements:
//   build    ToolIndex.build of the corpus in a fresh child process: the 1st build (cold code, as
//            nothing ran before it) and the 2nd-4th builds of the same process.
//   service  the discovery service's own path in a fresh child process, without NATS or gRPC:
//            EmbeddedBackend.init (the service's warm-up at start), then SnapshotStore.get of the
//            snapshot's canonical blob (TextDecoder + JSON.parse + name map; the blob is served from
//            memory instead of the object store), then EmbeddedBackend.index (the build).
//   search   the full first search, measured exactly as `npm run eval:discovery` measures "first
//            search (indexing on demand)": a fresh nats-server and discovery process (startEvalService),
//            the snapshot saved to the object store, then one discover_tools('warm up') through gRPC
//            on a new client, timed from the call to its answer. Includes the object-store read.
// The machine's other jobs shift absolute figures; compare runs made one after the other.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials } from '@grpc/grpc-js';
import type { ObjectStore } from '@nats-io/obj';
import { snapshotIdOf } from '@toolsurface/core';
import { DiscoveryServiceClient } from '@toolsurface/proto';
import { ToolIndex } from '@toolsurface/search';
import { SnapshotStore } from '@toolsurface/state';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a benchmark runs the service's own internals in process
import { EmbeddedBackend } from '../../services/discovery/src/domain/embedded-backend';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a benchmark runs the service's own internals in process
import { loadConfig } from '../../services/discovery/src/config';
import {
  corpusDefinitions,
  DEFAULT_EVAL_DIR,
  evalFlags,
  readEvalFile,
  readJsonl,
  startEvalService,
  unreadable,
  usageError,
  writeFigures,
  type CorpusRecord,
} from './support';

/** Runs of each measurement when `--runs` is not given. */
const DEFAULT_RUNS = 7;

/** Builds per child process in the `build` measurement: the first on cold code, the rest warmer. */
const BUILDS_PER_PROCESS = 4;

type Figures = Record<string, number>;

/** The middle value (mean of the two middle ones for an even count); NaN for none. */
function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Milliseconds since `t0` (performance.now()). */
const since = (t0: number): number => performance.now() - t0;

/** Child `build`: ToolIndex.build of the corpus BUILDS_PER_PROCESS times, as the embedded backend calls it. */
function childBuild(corpusPath: string): Figures {
  const defs = corpusDefinitions(readJsonl<CorpusRecord>(corpusPath));
  const tools = defs.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }));
  const out: Figures = {};
  for (let i = 1; i <= BUILDS_PER_PROCESS; i++) {
    const t0 = performance.now();
    ToolIndex.build(tools);
    out[`build${i}Ms`] = since(t0);
  }
  return out;
}

/** Child `service`: the discovery service's warm-up, snapshot load (from memory) and index build, each timed. */
async function childService(corpusPath: string): Promise<Figures> {
  const { snapshotId, json } = snapshotIdOf(corpusDefinitions(readJsonl<CorpusRecord>(corpusPath)));
  const blob = new TextEncoder().encode(json);
  // Only getBlob is used by SnapshotStore.get: serve the blob from memory (no NATS in this measurement).
  const store = { getBlob: async () => blob } as unknown as ObjectStore;
  // SEARCH_HEAD_RERANK=false measures the service without its head reranker, read as the service reads it
  const backend = new EmbeddedBackend(8, { headRerank: loadConfig(process.env).headRerank });
  let t0 = performance.now();
  await backend.init();
  const warmUpMs = since(t0);
  t0 = performance.now();
  const snapshot = await new SnapshotStore(store).get(snapshotId);
  const loadMs = since(t0);
  t0 = performance.now();
  await backend.index(snapshotId, snapshot.tools);
  const indexMs = since(t0);
  t0 = performance.now();
  await backend.search(snapshotId, 'warm up', 10);
  const searchMs = since(t0);
  return { warmUpMs, loadMs, indexMs, searchMs, loadIndexSearchMs: loadMs + indexMs + searchMs };
}

/** One fresh child process of this script in `mode`; its figures. */
function inChild(mode: 'build' | 'service', corpusPath: string): Figures {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, '--corpus', corpusPath], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) throw new Error(`child ${mode} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Figures;
}

/** One first search through gRPC against a fresh nats-server and discovery process (as discovery.eval.ts times it). */
async function firstSearch(corpusPath: string): Promise<Figures> {
  const svc = await startEvalService('discovery');
  const client = new DiscoveryServiceClient(svc.address, credentials.createInsecure());
  try {
    const snapshotId = (await svc.snapshots.save(corpusDefinitions(readJsonl<CorpusRecord>(corpusPath)))).snapshot.snapshotId;
    const t0 = performance.now();
    const hits = await new Promise<number>((resolve, reject) =>
      client.discoverTools({ snapshotId, query: 'warm up', limit: 10 }, (err, res) => (err ? reject(err) : resolve(res.hits.length))),
    );
    const firstSearchMs = since(t0);
    if (hits === 0) throw new Error('the first search found nothing: the snapshot was not indexed');
    return { firstSearchMs };
  } finally {
    client.close();
    await svc.stop();
  }
}

/** Medians of each figure over the runs, and every run's value. */
function summarize(runs: Figures[]): Record<string, { median: number; runs: number[] }> {
  const out: Record<string, { median: number; runs: number[] }> = {};
  for (const key of Object.keys(runs[0] ?? {})) {
    const values = runs.map((r) => r[key]);
    out[key] = { median: median(values), runs: values };
  }
  return out;
}

async function main(): Promise<void> {
  const opts = evalFlags(
    'first-index.bench',
    'how long a new snapshot takes to become searchable',
    process.argv.slice(2),
    [
      { name: 'runs', value: 'N', description: `runs of each measurement (default ${DEFAULT_RUNS})`, atLeast: 1 },
      { name: 'only', value: 'WHAT', description: 'one measurement only: build, service or search' },
      { name: 'corpus', value: 'P', description: `corpus JSONL (default ${join(DEFAULT_EVAL_DIR, 'corpus.jsonl')})`, input: 'file' },
      { name: 'json', value: 'FILE', description: 'also write the figures to FILE as JSON', output: true },
      { name: 'child', value: 'KIND', description: '(internal) run one measurement in this process: build or service' },
    ],
    (given) => [given.get('corpus') ?? join(DEFAULT_EVAL_DIR, 'corpus.jsonl')],
  );
  const corpusPath = opts.get('corpus') ?? join(DEFAULT_EVAL_DIR, 'corpus.jsonl');
  const child = opts.get('child');
  if (child === 'build' || child === 'service') {
    console.log(JSON.stringify(child === 'build' ? childBuild(corpusPath) : await childService(corpusPath)));
    return;
  }
  const runs = Number(opts.get('runs') ?? DEFAULT_RUNS);
  const only = opts.get('only');
  if (only !== undefined && only !== 'build' && only !== 'service' && only !== 'search')
    usageError('first-index.bench', '--only takes build, service or search');
  let tools: number;
  try {
    const problem = unreadable(corpusPath, 'file');
    if (problem !== undefined) throw new Error(`--corpus: ${resolve(corpusPath)}: ${problem}`);
    tools = readEvalFile(corpusPath, 'corpus').length;
  } catch (e) {
    usageError('first-index.bench', (e as Error).message);
  }
  console.log(`## first index of a new snapshot: ${tools} tools from ${corpusPath}, ${runs} runs, medians in ms`);
  const report: Record<string, unknown> = { corpus: corpusPath, tools, runs };
  // Runs interleave the measurements (build, service, search, build, …) so a change in the machine's load spreads over all three.
  const per: Record<'build' | 'service' | 'search', Figures[]> = { build: [], service: [], search: [] };
  for (let i = 0; i < runs; i++) {
    if (!only || only === 'build') per.build.push(inChild('build', corpusPath));
    if (!only || only === 'service') per.service.push(inChild('service', corpusPath));
    if (!only || only === 'search') per.search.push(await firstSearch(corpusPath));
  }
  for (const [name, list] of Object.entries(per)) {
    if (list.length === 0) continue;
    const s = summarize(list);
    report[name] = s;
    console.log(
      `${name.padEnd(8)} ${Object.entries(s)
        .map(([k, v]) => `${k} ${v.median.toFixed(1)} [${v.runs.map((x) => x.toFixed(0)).join(' ')}]`)
        .join(', ')}`,
    );
  }
  const jsonPath = opts.get('json');
  if (jsonPath) writeFigures(jsonPath, report);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
