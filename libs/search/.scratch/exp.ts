import { ToolIndex } from '../src/tool-index.ts';
import { corpusAsTools, DEFAULT_EVAL_DIR, evaluate, readJsonl } from '../src/eval-data.ts';
const C = readJsonl<any>(DEFAULT_EVAL_DIR + '/corpus.jsonl');
const Q = readJsonl<any>(DEFAULT_EVAL_DIR + '/queries.dev.jsonl');
const MC = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/corpus.jsonl');
const MQ = readJsonl<any>(DEFAULT_EVAL_DIR + '/metatool/queries.dev.jsonl');
const { tools, nameOf } = corpusAsTools(C); const m = corpusAsTools(MC);
const configs: Record<string, any> = JSON.parse(process.argv[2] ?? '{"default":{}}');
const dump = process.argv[3];
for (const [label, opts] of Object.entries(configs)) {
  const idx = ToolIndex.build(tools, opts);
  const r = evaluate(idx, Q, nameOf);
  const r2 = evaluate(ToolIndex.build(m.tools, opts), MQ, m.nameOf, () => ['mt']);
  const s = (k: string) => r.slices.get(k)!;
  console.log(label.padEnd(14), `ALL n ${s('all').ndcg10.toFixed(3)} r5 ${s('all').r5.toFixed(3)} r1 ${s('all').r1.toFixed(3)} | NL ${s('bfcl-nonlive').ndcg10.toFixed(3)} | L ${s('bfcl-live').ndcg10.toFixed(3)} | MCP ${s('livemcpbench').ndcg10.toFixed(3)} r5 ${s('livemcpbench').r5.toFixed(3)} | MT ${r2.slices.get('mt')!.ndcg10.toFixed(3)} r1 ${r2.slices.get('mt')!.r1.toFixed(3)}`);
  if (dump) {
    const fs = await import('node:fs');
    const rows = [...r.perQuery, ...r2.perQuery].map(p => JSON.stringify({ src: p.q.source, q: p.q.query.slice(0, 300), rel: p.q.relevant, got: p.ranked.slice(0, 5), ndcg: +p.ndcg10.toFixed(3) }));
    fs.writeFileSync(dump, rows.join('\n'));
  }
}
