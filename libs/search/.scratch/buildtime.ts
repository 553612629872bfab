import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const { tools } = corpusAsTools(readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl'));
for (let i = 0; i < 5; i++) { const t0 = performance.now(); ToolIndex.build(tools); console.log((performance.now() - t0).toFixed(1)); }
