import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C); const m = corpusAsTools(MC);
for (const [pw, pl, pk] of [[0, 5, 1], [0.2, 5, 1], [0.3, 6, 0.3], [0.3, 5, 0.3], [0.5, 6, 0.2], [0.3, 4, 0.3]]) { (globalThis as any).PW = pw; (globalThis as any).PL = pl; (globalThis as any).PK = pk;
  const idx = ToolIndex.build(tools); const midx = ToolIndex.build(m.tools);
  const r = evaluate(idx, Q, nameOf).slices; const r2 = evaluate(midx, MQ, m.nameOf, () => ['mt']).slices.get('mt')!;
  console.log(pw, pl, pk, 'all', r.get('all')!.ndcg10.toFixed(3), 'r5', r.get('all')!.r5.toFixed(3), 'MCP', r.get('livemcpbench')!.ndcg10.toFixed(3), 'MT', r2.ndcg10.toFixed(3)); }
