import { stemmer } from 'stemmer';
import { readJsonl, corpusAsTools, evaluate, DEFAULT_EVAL_DIR } from '/work/main/libs/search/src/eval-data.ts';
import { baselineTokenize } from '/work/main/libs/search/src/bm25-baseline.ts';
const LUCENE = new Set("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(' '));
const NLTK = new Set("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now".split(' '));
function tok(t: string, stop: Set<string>) { return baselineTokenize(t).filter(w => !stop.has(w)).map(w => stemmer(w)); }
function build(tools: any[], stop: Set<string>, rankDedup: boolean, nested: boolean, nameOf: Map<string,string>) {
  const params = (s: any): string[] => { const p = s?.properties ?? {}; const out = Object.keys(p); if (nested) for (const v of Object.values<any>(p)) { out.push(...params(v)); if (v?.items) out.push(...params(v.items)); } return out; };
  const docs = tools.map(t => tok([t.name, t.description ?? '', ...params(t.inputSchema)].join(' '), stop));
  const N = docs.length, avg = docs.reduce((a, d) => a + d.length, 0) / N;
  const df = new Map<string, number>(); const tfs = docs.map(d => { const m = new Map<string, number>(); for (const w of d) m.set(w, (m.get(w) ?? 0) + 1); for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1); return m; });
  return { search(q: string, k: number) {
    const qt = [...new Set(tok(q, stop))];
    const s = docs.map((d, i) => { let sc = 0; for (const w of qt) { const f = tfs[i].get(w); if (!f) continue; const n = df.get(w)!; const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5)); sc += idf * f * 1.9 / (f + 0.9 * (0.6 + 0.4 * d.length / avg)); } return { name: tools[i].name, score: sc }; });
    let r = s.filter(x => x.score > 0).sort((a, b) => b.score - a.score);
    if (rankDedup) { const seen = new Set(); r = r.filter(x => { const n = nameOf.get(x.name); if (seen.has(n)) return false; seen.add(n); return true; }); }
    return r.slice(0, k);
  } };
}
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C);
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const m = corpusAsTools(MC);
for (const [stop, rd, nested] of [[LUCENE, true, false], [NLTK, false, false], [NLTK, true, false], [LUCENE, false, true]] as const) {
  const r = evaluate(build(tools, stop, rd, nested, nameOf), Q, nameOf);
  const r2 = evaluate(build(m.tools, stop, rd, nested, m.nameOf), MQ, m.nameOf, () => ['mt']);
  console.log(stop.size, rd, nested, ['all', 'bfcl-nonlive', 'bfcl-live', 'livemcpbench'].map(k => { const v = r.slices.get(k)!; return `${k} r1 ${v.r1.toFixed(3)} r5 ${v.r5.toFixed(3)} n ${v.ndcg10.toFixed(3)}`; }).join(' | '), 'MT', r2.slices.get('mt')!.ndcg10.toFixed(3), r2.slices.get('mt')!.r1.toFixed(3));
}
