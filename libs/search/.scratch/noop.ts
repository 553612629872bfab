import { corpusAsTools, DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
import { ToolIndex } from '../src/tool-index.ts';
const { tools } = corpusAsTools(readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl'));
console.log(tools.length, typeof ToolIndex);
