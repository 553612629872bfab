import { ToolIndex } from '../src/tool-index.ts';
import { DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const tools = C.map((r: any) => ({ name: r.name, description: r.description, inputSchema: r.parameters }));
const r = evaluate(ToolIndex.build(tools), Q, new Map());
for (const [k, v] of r.slices) console.log(k, v.ndcg10.toFixed(3), v.r5.toFixed(3));
