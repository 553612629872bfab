import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bm25Baseline } from './bm25-baseline.js';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl, type CorpusRecord, type QueryRecord } from './eval-data.js';

const CORPUS = resolve(DEFAULT_EVAL_DIR, 'corpus.jsonl');
const QUERIES = resolve(DEFAULT_EVAL_DIR, 'queries.dev.jsonl');
const hasEval = existsSync(CORPUS) && existsSync(QUERIES);
if (!hasEval) console.log(`skipped: the dev-split figures need ${CORPUS} and ${QUERIES} (set TOOLSURFACE_EVAL_DIR)`);

describe('Bm25Baseline', () => {
  it('ranks by BM25 on a toy catalog and never throws', () => {
    const bm25 = Bm25Baseline.build([
      { name: 'get_weather', description: 'Current weather for a city' },
      { name: 'send_email', description: 'Send an email', inputSchema: { properties: { recipient: {} } } },
    ]);
    expect(bm25.search('weather in Paris', 5).map((h) => h.name)).toEqual(['get_weather']);
    expect(bm25.search('recipient', 5)[0].name).toBe('send_email');
    expect(bm25.search('', 5)).toEqual([]);
    expect(bm25.search('x'.repeat(50_000), 5)).toEqual([]);
    expect(bm25.search('weather', Number.NaN)).toEqual([]);
  });

  // eval README "Reference numbers on this dev split": all dev NDCG@10 0.669, Recall@5 0.725 (measured: 0.669, 0.739)
  it.skipIf(!hasEval)('reproduces the README figures on the dev split', () => {
    const { tools, nameOf } = corpusAsTools(readJsonl<CorpusRecord>(CORPUS));
    const queries = readJsonl<QueryRecord>(QUERIES);
    const all = evaluate(Bm25Baseline.build(tools), queries, nameOf).slices.get('all');
    expect(all?.n).toBe(1475);
    expect(Math.abs((all?.ndcg10 ?? 0) - 0.669)).toBeLessThanOrEqual(0.01);
    expect(Math.abs((all?.r5 ?? 0) - 0.725)).toBeLessThanOrEqual(0.02);
  });
});
