import { ToolIndex } from '../src/tool-index.ts';
import { analyze } from '../src/tokenize.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C); const m = corpusAsTools(MC);
const splitRe = /[.;!?\n]+\s|,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and then|then|and also|also|and)\s+/i;
function mk(idx: ToolIndex, mode: string, wClause: number, kRrf: number) {
  return { search(q: string, k: number) {
    const full = idx.search(q, 50);
    const clauses = q.split(splitRe).filter(c => c && analyze(c).length >= 2);
    if (mode === 'off' || clauses.length < 2) return full.slice(0, k);
    const fused = new Map<string, number>();
    full.forEach((h, i) => fused.set(h.name, (fused.get(h.name) ?? 0) + 1 / (kRrf + i)));
    for (const c of clauses.slice(0, 6)) idx.search(c, 10).forEach((h, i) => fused.set(h.name, (fused.get(h.name) ?? 0) + wClause / (kRrf + i)));
    return [...fused].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, score]) => ({ name, score }));
  } };
}
const idx = ToolIndex.build(tools); const midx = ToolIndex.build(m.tools);
for (const [mode, w, kr] of [['off', 0, 0], ['on', 0.5, 10], ['on', 1, 10], ['on', 0.3, 5], ['on', 0.5, 60]] as const) {
  const r = evaluate(mk(idx, mode, w, kr), Q, nameOf).slices; const r2 = evaluate(mk(midx, mode, w, kr), MQ, m.nameOf, () => ['mt']).slices.get('mt')!;
  const bf = (s: string) => r.get(s)!.ndcg10.toFixed(3);
  console.log(mode, w, kr, 'all', bf('all'), 'r5', r.get('all')!.r5.toFixed(3), 'NL', bf('bfcl-nonlive'), 'L', bf('bfcl-live'), 'MCP', bf('livemcpbench'), 'MT', r2.ndcg10.toFixed(3));
}
