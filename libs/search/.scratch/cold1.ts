import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const { tools } = corpusAsTools(readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl'));
const c0 = process.cpuUsage(); const t0 = performance.now(); ToolIndex.build(tools); const c = process.cpuUsage(c0);
console.log('cold wall', (performance.now() - t0).toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0));
