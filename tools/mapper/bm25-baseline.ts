/**
 * The eval README's reference peer: plain Okapi BM25 (k1 0.9, b 0.4) over name + description +
 * parameter names, identifiers split on `._-` and camelCase, no stemming. Used only to print the
 * "top BM25 hit, maps nothing" baseline next to our numbers.
 */
import type { MapperTool, RetrievedCandidate, Retriever } from '@toolsurface/mapper';

/** Lower-cased word tokens with identifiers split on camelCase and punctuation. */
function tokens(text: string): string[] {
  // lower/digit -> Upper boundary, then acronym -> Word boundary
  const spaced = text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  // runs of letters, marks and digits
  return spaced.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** Builds the plain BM25 peer as a Retriever. */
export function buildBm25Baseline(tools: readonly MapperTool[]): Retriever {
  const k1 = 0.9;
  const b = 0.4;
  const postings = new Map<string, [number, number][]>();
  const len: number[] = [];
  tools.forEach((t, d) => {
    const props = (t.inputSchema?.['properties'] ?? {}) as Record<string, unknown>;
    const toks = tokens([t.name, t.description ?? '', ...Object.keys(props)].join(' '));
    len.push(toks.length);
    const tf = new Map<string, number>();
    for (const w of toks) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, n] of tf) {
      const p = postings.get(w) ?? [];
      p.push([d, n]);
      postings.set(w, p);
    }
  });
  const avg = len.reduce((a, x) => a + x, 0) / Math.max(1, len.length);
  const n = tools.length;
  return (query: string, limit: number): RetrievedCandidate[] => {
    const scores = new Map<number, number>();
    for (const w of tokens(query)) {
      const p = postings.get(w);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5));
      for (const [d, tf] of p) scores.set(d, (scores.get(d) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len[d]) / avg)));
    }
    return [...scores.entries()]
      .sort((a, c) => c[1] - a[1] || a[0] - c[0])
      .slice(0, limit)
      .map(([d, s]) => ({ name: tools[d].name, score: s }));
  };
}
