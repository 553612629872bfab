import { analyze } from '../src/tokenize.ts';
import { DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
import { readFileSync } from 'node:fs';
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const doc = new Map(MC.map((c: any) => [c.name, new Set([...analyze(c.name), ...analyze(c.description)])]));
const R = readFileSync('/tmp/d.jsonl', 'utf8').split('\n').map(l => JSON.parse(l)).filter((r: any) => r.src.startsWith('metatool'));
let zero = 0, fail = 0, zeroFail = 0;
for (const r of R) { const q = new Set(analyze(r.q)); const d = doc.get(r.rel[0])!; const ov = [...q].filter(t => d.has(t)).length; if (ov === 0) zero++; if (!r.got.slice(0, 1).includes(r.rel[0])) { fail++; if (ov === 0) zeroFail++; } }
console.log('n', R.length, 'zero-overlap', zero, 'fail@1', fail, 'zero-overlap among fail', zeroFail);
