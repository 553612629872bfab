import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const { tools } = corpusAsTools(readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl'));
const c0 = process.cpuUsage();
const t0 = performance.now(); ToolIndex.build(tools); const cold = performance.now() - t0; const cc = process.cpuUsage(c0);
let warm = 1e9; for (let i = 0; i < 8; i++) { const t1 = performance.now(); ToolIndex.build(tools); warm = Math.min(warm, performance.now() - t1); }
console.log('cold', cold.toFixed(0), 'cpu', ((cc.user + cc.system) / 1000).toFixed(0), 'warm-min', warm.toFixed(0));
