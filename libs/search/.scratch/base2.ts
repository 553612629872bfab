import { stemmer } from 'stemmer';
import { readJsonl, corpusAsTools, evaluate, DEFAULT_EVAL_DIR } from '/work/main/libs/search/src/eval-data.ts';
import { baselineTokenize } from '/work/main/libs/search/src/bm25-baseline.ts';
const STOP = new Set("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(' '));
function tok(t: string, stem: boolean, stop: boolean) { let x = baselineTokenize(t); if (stop) x = x.filter(w => !STOP.has(w)); if (stem) x = x.map(w => stemmer(w)); return x; }
function build(tools: any[], stem: boolean, stop: boolean, dedup: boolean, idfMode: number) {
  const docs = tools.map(t => tok([t.name, t.description ?? '', ...Object.keys(t.inputSchema?.properties ?? {})].join(' '), stem, stop));
  const N = docs.length, avg = docs.reduce((a, d) => a + d.length, 0) / N;
  const df = new Map<string, number>(); const tfs = docs.map(d => { const m = new Map<string, number>(); for (const w of d) m.set(w, (m.get(w) ?? 0) + 1); for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1); return m; });
  return { search(q: string, k: number) {
    let qt = tok(q, stem, stop); if (dedup) qt = [...new Set(qt)];
    const s = docs.map((d, i) => { let sc = 0; for (const w of qt) { const f = tfs[i].get(w); if (!f) continue; const n = df.get(w)!; const idf = idfMode === 0 ? Math.log(1 + (N - n + 0.5) / (n + 0.5)) : Math.log((N - n + 0.5) / (n + 0.5)); sc += idf * f * 1.9 / (f + 0.9 * (0.6 + 0.4 * d.length / avg)); } return { name: tools[i].name, score: sc }; });
    return s.filter(x => x.score > 0).sort((a, b) => b.score - a.score).slice(0, k);
  } };
}
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C);
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl').slice(0);
const m = corpusAsTools(MC);
for (const [stem, stop, dedup, idf] of [[true, true, true, 0], [true, true, true, 1], [false, false, true, 0], [true, false, true, 0]] as const) {
  const r = evaluate(build(tools, stem, stop, dedup, idf), Q, nameOf);
  const r2 = evaluate(build(m.tools, stem, stop, dedup, idf), MQ, m.nameOf, () => ['mt']);
  console.log(stem, stop, dedup, idf, ['all', 'bfcl-nonlive', 'bfcl-live', 'livemcpbench'].map(k => { const v = r.slices.get(k)!; return `${k} r1 ${v.r1.toFixed(3)} r5 ${v.r5.toFixed(3)} n ${v.ndcg10.toFixed(3)}`; }).join(' | '), 'MT', r2.slices.get('mt')!.ndcg10.toFixed(3), r2.slices.get('mt')!.r1.toFixed(3));
}
