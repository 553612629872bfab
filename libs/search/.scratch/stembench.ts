import { stemmer } from 'stemmer';
import { DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const words = new Set<string>(); for (const c of C) for (const w of JSON.stringify(c).toLowerCase().match(/[a-z]{3,}/g) ?? []) words.add(w);
const c0 = process.cpuUsage(); let n = 0; for (const w of words) n += stemmer(w).length; const c = process.cpuUsage(c0);
console.log(words.size, 'cpu ms', ((c.user + c.system) / 1000).toFixed(0));
