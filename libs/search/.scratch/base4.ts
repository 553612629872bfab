import { stemmer } from 'stemmer';
import { readJsonl, corpusAsTools, evaluate, DEFAULT_EVAL_DIR } from '/work/main/libs/search/src/eval-data.ts';
import { baselineTokenize } from '/work/main/libs/search/src/bm25-baseline.ts';
const LUCENE = new Set("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(' '));
const plain = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const wordish = (t: string) => t.toLowerCase().match(/\w+/g) ?? [];
type V = { descCamel: boolean; keepWhole: boolean; qdedup: boolean; stemFn: (s: string) => string; qtok?: (t: string) => string[] };
function build(tools: any[], v: V) {
  const stopstem = (x: string[]) => x.filter(w => !LUCENE.has(w)).map(v.stemFn);
  const ident = (s: string) => { const parts = baselineTokenize(s); if (v.keepWhole) parts.push(...plain(s)); return parts; };
  const docs = tools.map(t => stopstem([...ident(t.name), ...(v.descCamel ? baselineTokenize(t.description ?? '') : plain(t.description ?? '')), ...Object.keys(t.inputSchema?.properties ?? {}).flatMap(ident)]));
  const N = docs.length, avg = docs.reduce((a, d) => a + d.length, 0) / N;
  const df = new Map<string, number>(); const tfs = docs.map(d => { const m = new Map<string, number>(); for (const w of d) m.set(w, (m.get(w) ?? 0) + 1); for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1); return m; });
  return { search(q: string, k: number) {
    let qt = stopstem((v.qtok ?? baselineTokenize)(q)); if (v.qdedup) qt = [...new Set(qt)];
    const s = docs.map((d, i) => { let sc = 0; for (const w of qt) { const f = tfs[i].get(w); if (!f) continue; const n = df.get(w)!; const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5)); sc += idf * f * 1.9 / (f + 0.9 * (0.6 + 0.4 * d.length / avg)); } return { name: tools[i].name, score: sc }; });
    return s.filter(x => x.score > 0).sort((a, b) => b.score - a.score).slice(0, k);
  } };
}
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C);
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const m = corpusAsTools(MC);
const vs: Record<string, V> = {
  descPlain: { descCamel: false, keepWhole: false, qdedup: true, stemFn: stemmer },
  descPlainQplain: { descCamel: false, keepWhole: false, qdedup: true, stemFn: stemmer, qtok: plain },
  keepWhole: { descCamel: true, keepWhole: true, qdedup: true, stemFn: stemmer },
  wordish: { descCamel: false, keepWhole: false, qdedup: true, stemFn: stemmer, qtok: wordish },
};
for (const [name, v] of Object.entries(vs)) {
  const r = evaluate(build(tools, v), Q, nameOf);
  const r2 = evaluate(build(m.tools, v), MQ, m.nameOf, () => ['mt']);
  console.log(name, ['all', 'bfcl-nonlive', 'bfcl-live', 'livemcpbench'].map(k => { const x = r.slices.get(k)!; return `${k} r1 ${x.r1.toFixed(3)} r5 ${x.r5.toFixed(3)} n ${x.ndcg10.toFixed(3)}`; }).join(' | '), 'MT', r2.slices.get('mt')!.ndcg10.toFixed(3), r2.slices.get('mt')!.r1.toFixed(3));
}
