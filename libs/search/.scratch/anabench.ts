import { analyze, identifierParts } from '../src/tokenize.ts';
import { DEFAULT_EVAL_DIR, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const texts: string[] = [];
const walk = (s: any) => { if (!s || typeof s !== 'object') return; for (const [k, v] of Object.entries<any>(s.properties ?? {})) { texts.push(k); if (typeof v?.description === 'string') texts.push(v.description); walk(v); } if (s.items) walk(s.items); };
for (const c of C) { texts.push(c.name, c.description); walk(c.parameters); }
console.log(texts.length, texts.reduce((a, t) => a + t.length, 0));
for (let r = 0; r < 4; r++) {
  let t0 = performance.now(); let n = 0; for (const t of texts) n += analyze(t).length; const a = performance.now() - t0;
  t0 = performance.now(); let m = 0; for (const t of texts) m += (t.match(/[A-Za-z0-9_.\-/]*[A-Za-z0-9][A-Za-z0-9_.\-/]*/g) ?? []).length; const b = performance.now() - t0;
  t0 = performance.now(); let q = 0; for (const t of texts) for (const w of t.match(/[A-Za-z0-9_.\-/]*[A-Za-z0-9][A-Za-z0-9_.\-/]*/g) ?? []) q += identifierParts(w).length; const c = performance.now() - t0;
  console.log(n, a.toFixed(1), 'regex', b.toFixed(1), 'idparts', c.toFixed(1));
}
