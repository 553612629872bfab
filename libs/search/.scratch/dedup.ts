import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C);
const idx = ToolIndex.build(tools);
const dd = { search(q: string, k: number) { const seen = new Set(); return idx.search(q, 60).filter(h => { const n = nameOf.get(h.name); if (seen.has(n)) return false; seen.add(n); return true; }).slice(0, k); } };
for (const [l, e] of [['plain', idx], ['dedup', dd]] as const) { const r = evaluate(e as any, Q, nameOf); for (const [k, v] of r.slices) console.log(l, k, v.ndcg10.toFixed(3), v.r5.toFixed(3), v.r10.toFixed(3)); }
