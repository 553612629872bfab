import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl').filter((_: any, i: number) => i % 3 === 0);
const { tools, nameOf } = corpusAsTools(C); const m = corpusAsTools(MC);
type P = Record<string, number>;
let p: P = JSON.parse(process.argv[2] ?? '{}');
const keys = (process.argv[3] ?? 'k1,name,params,pd,bname,bdesc,bparams,bpd,syn,rel,kf,cov,bigram,div,divt').split(',');
const toOpts = (p: P) => ({ k1: p.k1, fieldWeights: { name: p.name, title: p.name, params: p.params, paramDescriptions: p.pd }, fieldB: { name: p.bname, title: p.bname, description: p.bdesc, params: p.bparams, paramDescriptions: p.bpd }, synonymWeight: p.syn, relatedWeight: p.rel, knownWordExpansionFactor: p.kf, nameCoverageWeight: p.cov, nameBigramWeight: p.bigram, diversity: p.div, diversityThreshold: p.divt });
const cache = new Map<string, number>();
function score(p: P): number {
  const key = JSON.stringify(p); if (cache.has(key)) return cache.get(key)!;
  const o = toOpts(p);
  const r = evaluate(ToolIndex.build(tools, o), Q, nameOf).slices;
  const r2 = evaluate(ToolIndex.build(m.tools, o), MQ, m.nameOf, () => ['mt']).slices.get('mt')!;
  const s = r.get('all')!.ndcg10 + r2.ndcg10 + 0.2 * r.get('livemcpbench')!.ndcg10;
  console.log(s.toFixed(4), `all ${r.get('all')!.ndcg10.toFixed(3)} r5 ${r.get('all')!.r5.toFixed(3)} mcp ${r.get('livemcpbench')!.ndcg10.toFixed(3)} mt ${r2.ndcg10.toFixed(3)}`, JSON.stringify(p));
  cache.set(key, s); return s;
}
const bounded = new Set(['bname', 'bdesc', 'bparams', 'bpd', 'kf', 'div', 'divt']);
let best = score(p);
for (let round = 0; round < 3; round++) {
  let improved = false;
  for (const k of keys) {
    for (const f of [0.6, 1.5]) {
      const q = { ...p }; let v = q[k] * f; if (bounded.has(k)) v = Math.min(1, v); if (q[k] === 0) v = f > 1 ? 0.1 : 0; q[k] = +v.toFixed(3);
      const s = score(q);
      if (s > best + 0.0005) { best = s; p = q; improved = true; console.log('  ** best', best.toFixed(4)); }
    }
  }
  if (!improved) break;
}
console.log('FINAL', best, JSON.stringify(p));
