import { describe, expect, it } from 'vitest';
import { applyBlocks, BenchmarksMdError, checkBenchmarks, readResults, renderBlocks, type Results } from './benchmarks-md';

/** A deep copy of the results, so a test can change one figure. */
const copy = (results: Results): Results => structuredClone(results);

describe('BENCHMARKS.md generated tables', () => {
  it('holds what the results files give (run `npx tsx tools/bench/benchmarks-md.ts` when this fails)', () => {
    const result = checkBenchmarks();
    expect(result.diff.join('\n'), 'BENCHMARKS.md is stale; first lines of the diff').toBe('');
    expect(result.upToDate).toBe(true);
  });

  it('changes the table when a results value changes, and the check then reports it', () => {
    const results = readResults();
    const before = renderBlocks(results).get('discovery-targets')!.join('\n');
    expect(before).toContain('| LiveMCPBench NDCG@10 ≥ 0.45 | 0.413 | no |');

    const changed = copy(results);
    changed.discovery.main.report.LiveMCPBench.ours.ndcg10 = 0.4567;
    const blocks = renderBlocks(changed);
    expect(blocks.get('discovery-targets')!.join('\n')).toContain('| LiveMCPBench NDCG@10 ≥ 0.45 | 0.457 | yes |');
    expect(blocks.get('discovery')!.join('\n')).toContain(
      '| LiveMCPBench | 60 | 0.166 / 0.069 | 0.422 / 0.200 | 0.491 / 0.262 | 0.457 / 0.207 |',
    );

    const stale = checkBenchmarks(undefined, changed);
    expect(stale.upToDate).toBe(false);
    expect(stale.diff).toContain('- | LiveMCPBench NDCG@10 ≥ 0.45 | 0.413 | no |');
    expect(stale.diff).toContain('+ | LiveMCPBench NDCG@10 ≥ 0.45 | 0.457 | yes |');
  });

  it('reads a target as met only when the unrounded figure reaches it', () => {
    const changed = copy(readResults());
    changed.discovery.main.report.all.ours.recall5 = 0.8997; // shown as 0.900, still short of 0.90
    expect(renderBlocks(changed).get('discovery-targets')).toContain('| all dev Recall@5 ≥ 0.90 | 0.900 | no |');
  });

  it("reads the MCP endpoint against mcp-proxy as ratios of medians, with each round's ratios beside", () => {
    const changed = copy(readResults());
    const px = changed.mcp.paths['mcp-proxy'];
    changed.mcp.paths.toolsurface.callsPerSecond = px.callsPerSecond * 1.25;
    changed.mcp.paths.toolsurface.rounds = px.rounds.map((r, i) => ({ ...r, callsPerSecond: r.callsPerSecond * (i + 1) }));
    const targets = renderBlocks(changed).get('mcp-targets')!.join('\n');
    expect(targets).toMatch(/\| calls\/s with 8 clients at least 1× \| 1\.25× \| 3\.00× \(1\.00-5\.00\) \| yes \|/);
    changed.mcp.paths.toolsurface.cpuUsPerCall.dispatch = px.cpuUsPerCall['mcp-proxy'] + 1;
    expect(renderBlocks(changed).get('mcp-targets')!.join('\n')).toMatch(/processes at most mcp-proxy's \| .* \| no \|$/m);
  });

  it("shows the rate-limited principals' p50 ratios by round and refuses results without them", () => {
    const changed = copy(readResults());
    changed.executeTool.rateLimits = {
      target: 'spool',
      calls: 3000,
      rounds: [
        { unlimitedP50: 1, unlimitedP99: 4, leasedP50: 1.01, leasedP99: 5, oneTokenP50: 1.25, oneTokenP99: 6 },
        { unlimitedP50: 2, unlimitedP99: 8, leasedP50: 1.98, leasedP99: 9, oneTokenP50: 2.6, oneTokenP99: 10 },
      ],
      callsPerSecond: { unlimited: 1000, leased: 990, oneToken: 860 },
      ratio: { leasedCallsPerSecond: 0.99, oneTokenCallsPerSecond: 0.86 },
    };
    const rendered = renderBlocks(changed).get('rate-limits')!.join('\n');
    expect(rendered).toContain('| p50 ratio to unlimited | 1 | 1.010, 0.990 | 1.250, 1.300 |');
    expect(rendered).toContain('| calls/s ratio to unlimited | 1 | 0.990 | 0.860 |');
    delete changed.executeTool.rateLimits;
    expect(() => renderBlocks(changed)).toThrow(BenchmarksMdError);
  });

  it('refuses markers that do not pair up or name no table', () => {
    const blocks = renderBlocks(readResults());
    const all = [...blocks.keys()].map((k) => `<!-- generated:${k} -->\n<!-- /generated:${k} -->`).join('\n');
    expect(() => applyBlocks(all, blocks)).not.toThrow();
    expect(() => applyBlocks(`${all}\n<!-- generated:nosuch -->\n<!-- /generated:nosuch -->`, blocks)).toThrow(BenchmarksMdError);
    expect(() => applyBlocks(all.replace('<!-- /generated:discovery -->', ''), blocks)).toThrow(/opens|never closed/);
    expect(() => applyBlocks(all.replace(/<!-- \/?generated:unified-cv -->\n?/g, ''), blocks)).toThrow(/no markers for "unified-cv"/);
  });
});
