import { describe, expect, it } from 'vitest';
import { ToolIndex, type HeadReranker } from './tool-index.js';
import type { SearchableTool } from './types.js';

// twenty tools that all match "report" so the head is full; two of them have exact names
const TOOLS: SearchableTool[] = Array.from({ length: 20 }, (_, i) => ({
  name: i === 7 ? 'report' : `report_tool_${i}`,
  description: `Builds report number ${i} ${'with extra words '.repeat(i % 4)}for a team.`,
}));

/** A reranker that reverses the head it is given and records what it saw. */
function reverser(): HeadReranker & { seen: string[][]; size: number } {
  const r = {
    seen: [] as string[][],
    size: 0,
    rerank(_q: string, head: readonly { name: string; score: number }[], stats: { size: number; docFreq(t: string): number }) {
      r.seen.push(head.map((h) => h.name));
      r.size = stats.size;
      return head.map((_, i) => i);
    },
  };
  return r;
}

describe('ToolIndex head reranker (second stage)', () => {
  const plain = ToolIndex.build(TOOLS, { semantic: false });

  it('re-orders only the first headDepth places, by the scores it returns', () => {
    const stage = reverser();
    const index = ToolIndex.build(TOOLS, { semantic: false, headReranker: stage, headDepth: 5 });
    const before = plain.search('build a team report', 20).map((h) => h.name);
    const after = index.search('build a team report', 20).map((h) => h.name);
    expect(stage.seen[0]).toEqual(before.slice(0, 5));
    expect(after.slice(0, 5)).toEqual(before.slice(0, 5).reverse());
    expect(after.slice(5)).toEqual(before.slice(5));
    expect(stage.size).toBe(20);
  });

  it('re-orders the same head whatever the limit, so a smaller limit is a prefix', () => {
    const index = ToolIndex.build(TOOLS, { semantic: false, headReranker: reverser(), headDepth: 8 });
    const ten = index.search('team report', 10).map((h) => h.name);
    expect(index.search('team report', 3).map((h) => h.name)).toEqual(ten.slice(0, 3));
  });

  it('keeps reported scores non-increasing after re-ordering', () => {
    const index = ToolIndex.build(TOOLS, { semantic: false, headReranker: reverser() });
    const scores = index.search('build a team report', 20).map((h) => h.score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
  });

  it('keeps an exact-name match first and out of the head it hands over', () => {
    const stage = reverser();
    const index = ToolIndex.build(TOOLS, { semantic: false, headReranker: stage });
    const hits = index.search('report', 10);
    expect(hits[0].name).toBe('report');
    expect(stage.seen[0]).not.toContain('report');
  });

  it('leaves the search order when the reranker throws, returns NaN or the wrong length', () => {
    const before = plain.search('build a team report', 10).map((h) => h.name);
    const bad: HeadReranker[] = [
      {
        rerank: () => {
          throw new Error('boom');
        },
      },
      { rerank: (_q, head) => head.map(() => NaN) },
      { rerank: () => [1, 2] },
      { rerank: () => undefined },
    ];
    for (const headReranker of bad) {
      expect(
        ToolIndex.build(TOOLS, { semantic: false, headReranker })
          .search('build a team report', 10)
          .map((h) => h.name),
      ).toEqual(before);
    }
  });

  it('gives the index document frequencies of analyzed terms', () => {
    const index = ToolIndex.build(TOOLS, { semantic: false });
    expect(index.termStats.docFreq('report')).toBe(20);
    expect(index.termStats.docFreq('extra')).toBe(15);
    expect(index.termStats.docFreq('nonexistentword')).toBe(0);
  });
});
