import { ToolIndex } from '../src/tool-index.ts';
import { stem } from '../src/tokenize.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C); const m = corpusAsTools(MC);
const idx = ToolIndex.build(tools); const midx = ToolIndex.build(m.tools);
const lists: Record<string, string> = {
  none: '',
  filler: 'information details detail provide specific specifically currently looking know tell give interested curious assist assistance possible sure thing things something anything way ways some best good great really today right now',
  small: 'information details provide specific specifically looking know tell give interested curious assist assistance',
};
for (const [k, v] of Object.entries(lists)) { (globalThis as any).QF = new Set(v.split(' ').filter(Boolean).map(w => stem(w)));
  const r = evaluate(idx, Q, nameOf).slices; const r2 = evaluate(midx, MQ, m.nameOf, () => ['mt']).slices.get('mt')!;
  console.log(k, 'all', r.get('all')!.ndcg10.toFixed(3), 'r5', r.get('all')!.r5.toFixed(3), 'MCP', r.get('livemcpbench')!.ndcg10.toFixed(3), 'MT', r2.ndcg10.toFixed(3)); }
