/**
 * Writes the generated tables of BENCHMARKS.md from the eval results files, so the figures there
 * are the ones the last eval run wrote. Each table sits between two marker lines,
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; everything outside them is prose and
 * stays as written. Node built-ins only. Run from the repository root:
 *
 *   npx tsx tools/bench/benchmarks-md.ts            # rewrite the tables of BENCHMARKS.md
 *   npx tsx tools/bench/benchmarks-md.ts --check    # exit 1, with the diff's first lines, when stale
 *
 * Exit codes: 0 written or up to date, 1 stale (--check), 2 a usage error, a missing or unreadable
 * results file, or markers that do not pair up.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultsTable, type FaultResults } from '@toolsurface/devkit';
import { auditCostTable, type ExecuteToolResults } from './ha-tables';
import { rateLimitTable } from './rate-limit-table';

/** The repository's root (this file is tools/bench/benchmarks-md.ts). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The markdown file and the results files it is built from, relative to the repository's root. */
export const FILES = {
  markdown: 'BENCHMARKS.md',
  discovery: 'test/eval/results/discovery.dev.json',
  unified: 'test/eval/results/unified.dev.json',
  mcp: 'test/eval/results/mcp.bench.json',
  executeTool: 'test/eval/results/execute-tool.bench.json',
  faults: 'test/eval/results/faults.json',
} as const;

/** Retrieval measures of one slice, as test/eval/discovery.eval.ts writes them (shares 0-1). */
export interface Metrics {
  n: number;
  recall1: number;
  recall5: number;
  recall10: number;
  ndcg10: number;
  mrr10: number;
}

/** Latency of one eval pass (ms): the service's p50 and p99, the bare grpc-js floor's p50, the first search. */
export interface Latency {
  p50: number;
  p99: number;
  bareP50: number;
  firstSearchMs: number;
  warmUpCalls: number;
}

/** One pass of `npm run eval:discovery`: measures by slice name, ours beside the BM25 peer. */
export interface DiscoveryPass {
  report: Record<string, { ours: Metrics; bm25: Metrics }>;
  latency: Latency;
}

/** test/eval/results/discovery.dev.json: the main dev pass and, unless skipped, MetaTool's. */
export interface DiscoveryResults {
  main: DiscoveryPass;
  metatool?: DiscoveryPass;
}

/** The calibration's cross-validated figures of one setting (shares 0-1; calls a count). */
export interface CvFigures {
  top1: number;
  executed: number;
  executedCalls: number;
  executedFullyRight: number | null;
  irrelevantExecuted: number;
}

/** One side of test/eval/results/unified.dev.json (shares 0-1). */
export interface UnifiedFigures {
  top1Selection: number;
  argumentAccuracySingleCall: number;
  executedShare: number;
  executedFullyRight: number;
  irrelevantExecuted: number;
}

/** test/eval/results/unified.dev.json, as test/eval/unified.eval.ts writes it (the parts read here). */
export interface UnifiedResults {
  queries: number;
  singleCall: number;
  irrelevantQueries: number;
  ours: UnifiedFigures;
  baseline: UnifiedFigures;
  threshold: number;
  crossValidated: { wholeCorpus: CvFigures; smallSnapshots: CvFigures };
}

/** One path of `npm run bench:mcp`: medians over rounds (ms, calls/s, µs of CPU a call by process role). */
export interface McpPathFigures {
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
  /** 8-client phase; roles: client, dispatch, surface-resolver, nats-server, mcp-proxy, server. */
  cpuUsPerCall: Record<string, number>;
  /** Each round's figures, in round order (the paths of a round ran back to back). */
  rounds: { p50Ms: number; p99Ms: number; callsPerSecond: number }[];
}

/** test/eval/results/mcp.bench.json, as tools/bench/mcp.bench.ts writes it (the parts read here). */
export interface McpResults {
  date: string;
  machine: { cores: number; node: string; loadBefore: number[]; loadAfter: number[] };
  settings: { rounds: number; calls: number; warmup: number; seconds: number; clients: number };
  paths: { toolsurface: McpPathFigures; 'mcp-proxy': McpPathFigures; direct: McpPathFigures };
}

/** Every results file. */
export interface Results {
  discovery: DiscoveryResults;
  unified: UnifiedResults;
  mcp: McpResults;
  executeTool: ExecuteToolResults;
  faults: FaultResults;
}

/** A results file or marker layout this script cannot work with; the message says which and where. */
export class BenchmarksMdError extends Error {
  override name = 'BenchmarksMdError';
}

/**
 * The quality targets of discover_tools (all dev queries, and slices of the eval's report) that
 * BENCHMARKS.md's targets table checks. A target is met when the unrounded figure reaches it:
 * 0.8997 shows as 0.900 and still misses 0.90.
 */
const DISCOVERY_TARGETS = [
  { label: 'all dev NDCG@10', pass: 'main', slice: 'all', metric: 'ndcg10', min: 0.8 },
  { label: 'all dev Recall@5', pass: 'main', slice: 'all', metric: 'recall5', min: 0.9 },
  { label: 'LiveMCPBench NDCG@10', pass: 'main', slice: 'LiveMCPBench', metric: 'ndcg10', min: 0.45 },
  { label: 'MetaTool NDCG@10', pass: 'metatool', slice: 'metatool', metric: 'ndcg10', min: 0.65 },
] as const;

/** docs/DESIGN.md "Performance budget": discover_tools p50 under 2 ms; a new snapshot searchable within 300 ms. */
const LATENCY_BUDGET = { p50Ms: 2, firstSearchMs: 300 } as const;

/** The quality targets of unified_tool (shares 0-1) that BENCHMARKS.md's unified table checks. */
const UNIFIED_TARGETS = {
  top1Selection: 0.75,
  argumentAccuracySingleCall: 0.6,
  executedFullyRight: 0.9,
  irrelevantExecutedMax: 0.05,
} as const;

/** Display names of the report's slice keys; other keys are shown as they are. */
const SLICE_LABELS: Record<string, string> = { all: 'all dev', metatool: 'MetaTool (own corpus)' };

/** Reads one JSON file, naming it in any error. */
function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new BenchmarksMdError(`cannot read ${path}: ${(cause as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new BenchmarksMdError(`${path} is not JSON: ${(cause as Error).message}`);
  }
}

/** Reads the results files under `root`. Throws BenchmarksMdError when one is missing or not JSON. */
export function readResults(root: string = REPO_ROOT): Results {
  return {
    discovery: readJson(join(root, FILES.discovery)) as DiscoveryResults,
    unified: readJson(join(root, FILES.unified)) as UnifiedResults,
    mcp: readJson(join(root, FILES.mcp)) as McpResults,
    executeTool: readJson(join(root, FILES.executeTool)) as ExecuteToolResults,
    faults: readJson(join(root, FILES.faults)) as FaultResults,
  };
}

/** `x` with `digits` decimals; throws when the results file lacks the figure. */
function fixed(x: number | null | undefined, digits: number, what: string): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new BenchmarksMdError(`results: ${what} is missing or not a number`);
  return x.toFixed(digits);
}

/** An integer with thousands separators: 12594 → "12,594". */
function count(n: number): string {
  // a position inside the digits (\B) followed by whole groups of three digits up to the end
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "yes" or "no". */
const met = (ok: boolean): string => (ok ? 'yes' : 'no');

/**
 * A share with the count it stands for ("0.609 (698 of 1,146)"), where the share as shown (three
 * decimals) fits that count and no neighbour; otherwise the share alone.
 */
function shareOf(share: number, total: number, what: string): string {
  const shown = fixed(share, 3, what);
  const right = Math.round(share * total);
  const fits = (k: number) => k >= 0 && k <= total && (k / total).toFixed(3) === shown;
  return total > 0 && fits(right) && !fits(right - 1) && !fits(right + 1) ? `${shown} (${count(right)} of ${count(total)})` : shown;
}

/** A markdown table. */
function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The slice of a pass's report, or a named error. */
function slice(results: DiscoveryResults, pass: 'main' | 'metatool', name: string): { ours: Metrics; bm25: Metrics } {
  const found = results[pass]?.report?.[name];
  if (!found) throw new BenchmarksMdError(`${FILES.discovery}: no ${pass}.report["${name}"] (run eval:discovery without --skip-metatool)`);
  return found;
}

/** Retrieval table: every slice of the main pass, then MetaTool's whole set. Three decimals, as the eval prints. */
function discoveryTable(results: DiscoveryResults): string[] {
  const names: ['main' | 'metatool', string][] = [
    ...Object.keys(results.main.report).map((k) => ['main', k] as ['main', string]),
    ['metatool', 'metatool'],
  ];
  const rows = names.map(([pass, name]) => {
    const { ours, bm25 } = slice(results, pass, name);
    const pair = (m: keyof Metrics) => `${fixed(ours[m], 3, `${name} ${m}`)} / ${fixed(bm25[m], 3, `${name} bm25 ${m}`)}`;
    return [SLICE_LABELS[name] ?? name, count(ours.n), pair('recall1'), pair('recall5'), pair('recall10'), pair('ndcg10'), pair('mrr10')];
  });
  return table(['slice', 'n', 'Recall@1 ours / BM25', 'Recall@5', 'Recall@10', 'NDCG@10', 'MRR@10'], rows);
}

/** The quality targets with this run's figure and whether it reaches them. */
function discoveryTargets(results: DiscoveryResults): string[] {
  const rows = DISCOVERY_TARGETS.map((t) => {
    const value = slice(results, t.pass, t.slice).ours[t.metric];
    return [`${t.label} ≥ ${t.min.toFixed(2)}`, fixed(value, 3, t.label), met(value >= t.min)];
  });
  return table(['target', 'this run (in sample)', 'met'], rows);
}

/** Latency of each pass (ms, p50 and floor to 2 decimals, p99 to 1, the first search whole), then the budget. */
function discoveryLatency(results: DiscoveryResults): string[] {
  const passes: [string, DiscoveryPass | undefined][] = [
    ['dev', results.main],
    ['MetaTool', results.metatool],
  ];
  const rows = passes.flatMap(([label, pass]) => {
    if (!pass) return [];
    const l = pass.latency;
    const share = fixed(l.p50 - l.bareP50, 2, `${label} share`);
    return [
      [
        label,
        `${fixed(l.p50, 2, `${label} p50`)} ms`,
        `${fixed(l.p99, 1, `${label} p99`)} ms`,
        `${fixed(l.bareP50, 2, `${label} bareP50`)} ms`,
        `${share} ms`,
        `${fixed(l.firstSearchMs, 0, `${label} firstSearchMs`)} ms`,
      ],
    ];
  });
  const dev = results.main.latency;
  return [
    ...table(['pass', 'discover_tools p50', 'p99', 'bare grpc-js p50', "service's share", 'first search (indexing on demand)'], rows),
    '',
    `Dev pass, after ${count(dev.warmUpCalls)} untimed warm-up calls: p50 under ${LATENCY_BUDGET.p50Ms} ms ${dev.p50 < LATENCY_BUDGET.p50Ms ? 'met' : 'not met'};`,
    `first search within ${LATENCY_BUDGET.firstSearchMs} ms ${dev.firstSearchMs <= LATENCY_BUDGET.firstSearchMs ? 'met' : 'not met'}.`,
  ];
}

/** unified_tool against the top-BM25-hit baseline, with its targets. */
function unifiedTable(u: UnifiedResults): string[] {
  const t = UNIFIED_TARGETS;
  const executed = Math.round(u.ours.executedShare * u.queries);
  const rows = [
    [
      `top-1 selection (${count(u.queries)})`,
      fixed(u.ours.top1Selection, 3, 'top1Selection'),
      fixed(u.baseline.top1Selection, 3, 'baseline top1Selection'),
      `≥ ${t.top1Selection.toFixed(2)}`,
      met(u.ours.top1Selection >= t.top1Selection),
    ],
    [
      `argument accuracy, single-call (${count(u.singleCall)})`,
      shareOf(u.ours.argumentAccuracySingleCall, u.singleCall, 'argumentAccuracySingleCall'),
      fixed(u.baseline.argumentAccuracySingleCall, 3, 'baseline argumentAccuracySingleCall'),
      `≥ ${t.argumentAccuracySingleCall.toFixed(2)}`,
      met(u.ours.argumentAccuracySingleCall >= t.argumentAccuracySingleCall),
    ],
    [
      `requests executed (confidence ≥ ${u.threshold})`,
      fixed(u.ours.executedShare, 3, 'executedShare'),
      fixed(u.baseline.executedShare, 3, 'baseline executedShare'),
      '',
      '',
    ],
    [
      'executed calls fully right',
      shareOf(u.ours.executedFullyRight, executed, 'executedFullyRight'),
      fixed(u.baseline.executedFullyRight, 3, 'baseline executedFullyRight'),
      `≥ ${t.executedFullyRight.toFixed(2)}`,
      met(u.ours.executedFullyRight >= t.executedFullyRight),
    ],
    [
      `irrelevant requests executed (${count(u.irrelevantQueries)})`,
      fixed(u.ours.irrelevantExecuted, 3, 'irrelevantExecuted'),
      fixed(u.baseline.irrelevantExecuted, 3, 'baseline irrelevantExecuted'),
      `≤ ${Math.round(t.irrelevantExecutedMax * 100)}%`,
      met(u.ours.irrelevantExecuted <= t.irrelevantExecutedMax),
    ],
  ];
  return table(['measure', 'ours', 'top BM25 hit, no mapping', 'target', 'met'], rows);
}

/** The calibration's 5-fold cross-validated figures, whole corpus and small snapshots. */
function unifiedCv(u: UnifiedResults): string[] {
  const cv = u.crossValidated;
  if (!cv?.wholeCorpus || !cv?.smallSnapshots) throw new BenchmarksMdError(`${FILES.unified}: no crossValidated figures`);
  const row = (label: string, f: CvFigures) => [
    label,
    fixed(f.top1, 3, `${label} top1`),
    `${fixed(f.executed * 100, 1, `${label} executed`)}%`,
    f.executedFullyRight === null ? 'none executed' : shareOf(f.executedFullyRight, f.executedCalls, `${label} executedFullyRight`),
    fixed(f.irrelevantExecuted, 3, `${label} irrelevantExecuted`),
  ];
  return table(
    ['out of fold', 'top-1', 'executed', 'executed calls fully right', 'irrelevant executed'],
    [row('whole corpus', cv.wholeCorpus), row("small snapshots (each request's own candidates)", cv.smallSnapshots)],
  );
}

/** Processes of Toolsurface's own on the MCP endpoint's path (the MCP server and the client are everyone's). */
const TOOLSURFACE_ROLES = ['dispatch', 'surface-resolver', 'nats-server'] as const;

/** docs/DESIGN.md "Performance budget": the MCP endpoint against mcp-proxy in the same run. */
const MCP_BUDGET = { p50Ratio: 0.8 } as const;

/** µs of CPU a call of the given roles of a path, summed. */
function cpuOf(f: McpPathFigures, roles: readonly string[], what: string): number {
  return roles.reduce((sum, role) => {
    const us = f.cpuUsPerCall?.[role];
    if (typeof us !== 'number' || !Number.isFinite(us))
      throw new BenchmarksMdError(`${FILES.mcp}: ${what} cpuUsPerCall.${role} is missing`);
    return sum + us;
  }, 0);
}

/** The three paths of `bench:mcp`: latency, throughput and CPU a call by process. */
function mcpTable(m: McpResults): string[] {
  const { toolsurface: ts, 'mcp-proxy': px, direct } = m.paths;
  const us = (x: number) => `${count(x)} µs`;
  const row = (label: string, f: McpPathFigures, own: string, what: string) => [
    label,
    `${fixed(f.p50Ms, 2, `${what} p50Ms`)} ms`,
    `${fixed(f.p99Ms, 1, `${what} p99Ms`)} ms`,
    count(f.callsPerSecond),
    own,
    us(cpuOf(f, ['server'], what)),
    us(cpuOf(f, ['client'], what)),
  ];
  const tsOwn = cpuOf(ts, TOOLSURFACE_ROLES, 'toolsurface');
  const parts = TOOLSURFACE_ROLES.map((r) => `${r} ${count(cpuOf(ts, [r], 'toolsurface'))}`).join(', ');
  const load = (xs: number[]) => xs.map((x) => fixed(x, 2, 'load average')).join(', ');
  const s = m.settings;
  return [
    ...table(
      ['path', 'p50', 'p99', 'calls/s, 8 clients', 'CPU a call: gateway or proxy', 'MCP server', 'client'],
      [
        row("Toolsurface's MCP endpoint", ts, `${us(tsOwn)} (${parts})`, 'toolsurface'),
        row('mcp-proxy, its defaults', px, us(cpuOf(px, ['mcp-proxy'], 'mcp-proxy')), 'mcp-proxy'),
        row('straight over stdio (floor)', direct, '', 'direct'),
      ],
    ),
    '',
    `Run of ${m.date}, ${m.machine.cores} cores, Node ${m.machine.node}, load average (1, 5, 15 min) ${load(m.machine.loadBefore)} before`,
    `and ${load(m.machine.loadAfter)} after; medians of ${s.rounds} rounds, each ${count(s.calls)} sequential calls after`,
    `${count(s.warmup)} warm-up, then ${s.clients} clients for ${s.seconds} s.`,
  ];
}

/** Toolsurface's figure over mcp-proxy's of each round: their median, least and greatest ("0.98× (0.60-1.47)"). */
function roundRatios(m: McpResults, figure: 'p50Ms' | 'callsPerSecond'): string {
  const ts = m.paths.toolsurface.rounds ?? [];
  const px = m.paths['mcp-proxy'].rounds ?? [];
  if (ts.length === 0 || ts.length !== px.length)
    throw new BenchmarksMdError(`${FILES.mcp}: the paths' rounds are missing or differ in number`);
  const ratios = ts.map((r, i) => r[figure] / px[i][figure]).sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
  return `${fixed(median, 2, `${figure} ratio`)}× (${fixed(ratios[0], 2, figure)}-${fixed(ratios[ratios.length - 1], 2, figure)})`;
}

/**
 * The MCP endpoint's budget against mcp-proxy, as ratios of the same run. Met or not is read on the
 * ratio of the medians; the ratios of each round (whose paths ran back to back) show the spread.
 */
function mcpTargets(m: McpResults): string[] {
  const { toolsurface: ts, 'mcp-proxy': px } = m.paths;
  const p50 = ts.p50Ms / px.p50Ms;
  const rate = ts.callsPerSecond / px.callsPerSecond;
  const own = cpuOf(ts, TOOLSURFACE_ROLES, 'toolsurface');
  const proxy = cpuOf(px, ['mcp-proxy'], 'mcp-proxy');
  return table(
    ['target (against mcp-proxy, same run)', 'this run (ratio of medians)', "rounds' ratios: median (range)", 'met'],
    [
      [`p50 at most ${MCP_BUDGET.p50Ratio}×`, `${fixed(p50, 2, 'p50 ratio')}×`, roundRatios(m, 'p50Ms'), met(p50 <= MCP_BUDGET.p50Ratio)],
      ['calls/s with 8 clients at least 1×', `${fixed(rate, 2, 'throughput ratio')}×`, roundRatios(m, 'callsPerSecond'), met(rate >= 1)],
      ["CPU a call of Toolsurface's processes at most mcp-proxy's", `${count(own)} µs against ${count(proxy)} µs`, '', met(own <= proxy)],
    ],
  );
}

/** Every generated block by marker name, its lines without the markers. */
export function renderBlocks(results: Results): Map<string, string[]> {
  return new Map([
    ['discovery', discoveryTable(results.discovery)],
    ['discovery-targets', discoveryTargets(results.discovery)],
    ['discovery-latency', discoveryLatency(results.discovery)],
    ['unified', unifiedTable(results.unified)],
    ['unified-cv', unifiedCv(results.unified)],
    ['mcp', mcpTable(results.mcp)],
    ['mcp-targets', mcpTargets(results.mcp)],
    ['audit-cost', auditCostTable(results.executeTool)],
    ['rate-limits', rateLimitTable(results.executeTool.rateLimits, results.executeTool, (message) => new BenchmarksMdError(message))],
    ['faults', faultsTable(results.faults)],
  ]);
}

// a whole line that opens or closes a block: `<!-- generated:NAME -->` or `<!-- /generated:NAME -->`
const MARKER = /^<!-- (\/?)generated:([a-z0-9-]+) -->$/;

/**
 * `markdown` with each block's lines replaced by the rendered ones. Every rendered block must be
 * in the file exactly once and every block in the file must be one this script renders; markers
 * must pair up. Throws BenchmarksMdError otherwise.
 */
export function applyBlocks(markdown: string, blocks: Map<string, string[]>): string {
  const out: string[] = [];
  const seen = new Set<string>();
  let open: { name: string; line: number } | undefined;
  markdown.split('\n').forEach((line, i) => {
    const m = MARKER.exec(line.trim());
    if (!m) {
      if (!open) out.push(line);
      return;
    }
    const [, closing, name] = m;
    if (closing) {
      if (open?.name !== name)
        throw new BenchmarksMdError(
          `${FILES.markdown}:${i + 1}: closes "${name}" but ${open ? `"${open.name}" is open` : 'no block is open'}`,
        );
      out.push(...blocks.get(name)!, line);
      open = undefined;
      return;
    }
    if (open)
      throw new BenchmarksMdError(`${FILES.markdown}:${i + 1}: opens "${name}" inside "${open.name}" (opened on line ${open.line})`);
    if (!blocks.has(name))
      throw new BenchmarksMdError(`${FILES.markdown}:${i + 1}: no generator for block "${name}" (known: ${[...blocks.keys()].join(', ')})`);
    if (seen.has(name)) throw new BenchmarksMdError(`${FILES.markdown}:${i + 1}: block "${name}" appears twice`);
    seen.add(name);
    open = { name, line: i + 1 };
    out.push(line);
  });
  if (open) throw new BenchmarksMdError(`${FILES.markdown}:${open.line}: block "${open.name}" is never closed`);
  const missing = [...blocks.keys()].filter((k) => !seen.has(k));
  if (missing.length > 0) throw new BenchmarksMdError(`${FILES.markdown}: no markers for ${missing.map((k) => `"${k}"`).join(', ')}`);
  return out.join('\n');
}

/** A line diff of `before` → `after` ("-" removed, "+" added, "  " kept around changes), at most `max` lines. */
export function diffLines(before: string, after: string, max = 20): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // longest common subsequence table, from the ends (the file is a few hundred lines)
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(`- ${a[i++]}`);
    else ops.push(`+ ${b[j++]}`);
  }
  // keep the changed lines and one line of context either side
  const changed = ops.map((op) => !op.startsWith('  '));
  const kept = ops.filter((_, k) => changed[k] || changed[k - 1] || changed[k + 1]);
  return kept.slice(0, max);
}

/** What the check found: whether the file is current, what it should hold, and the diff's first lines. */
export interface CheckResult {
  upToDate: boolean;
  current: string;
  expected: string;
  diff: string[];
}

/** Compares BENCHMARKS.md under `root` with what this script would write from the results files there. */
export function checkBenchmarks(root: string = REPO_ROOT, results: Results = readResults(root)): CheckResult {
  const current = readFileSync(join(root, FILES.markdown), 'utf8');
  const expected = applyBlocks(current, renderBlocks(results));
  return { upToDate: current === expected, current, expected, diff: current === expected ? [] : diffLines(current, expected) };
}

/** The command line: rewrite, or with --check report staleness. Returns the exit code. */
export function main(args: string[], log: (line: string) => void = console.log): number {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    log(`unknown argument ${unknown[0]}\nusage: npx tsx tools/bench/benchmarks-md.ts [--check]`);
    return 2;
  }
  try {
    const result = checkBenchmarks();
    if (args.includes('--check')) {
      if (result.upToDate) return 0;
      log(`${FILES.markdown} differs from the results files; run npx tsx tools/bench/benchmarks-md.ts. First lines of the diff:`);
      for (const line of result.diff) log(line);
      return 1;
    }
    if (!result.upToDate) writeFileSync(join(REPO_ROOT, FILES.markdown), result.expected);
    log(`${FILES.markdown}: ${result.upToDate ? 'up to date' : 'tables rewritten'}`);
    return 0;
  } catch (error) {
    if (!(error instanceof BenchmarksMdError)) throw error;
    log(error.message);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
