import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const { tools } = corpusAsTools(readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl'));
const out = [];
for (let i = 0; i < 6; i++) { const c0 = process.cpuUsage(); const t0 = performance.now(); ToolIndex.build(tools); const c = process.cpuUsage(c0); out.push(`${(performance.now() - t0).toFixed(0)}ms wall/${((c.user) / 1000).toFixed(0)}ms cpu`); }
console.log(out.join('  '));
