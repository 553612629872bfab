/**
 * A small MiniSearch-based retriever for the scripts, used when @toolsurface/search (libs/search)
 * is not available. One document per tool: name, description, parameter names and descriptions.
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { MapperTool, RetrievedCandidate, Retriever } from '@toolsurface/mapper';

/** Splits identifiers and text into lower-case stemmed word tokens. */
export function retrievalTokens(text: string): string[] {
  const spaced = text
    // lower/digit -> Upper boundary: "getWeather" -> "get Weather"
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    // acronym -> Word boundary: "HTTPServer" -> "HTTP Server"
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  // runs of letters, marks and digits; everything else separates
  const raw = spaced.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return raw.filter((t) => !STOP.has(t)).map((t) => stemmer(t));
}

/** Very common English words that carry no retrieval signal. */
const STOP = new Set(
  'a an the of for to in on at by with and or is are be can you me my i it this that what how please from as do does'.split(' '),
);

/** Text of one parameter subtree: names, descriptions and enum values. */
function schemaText(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 4) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const props = s['properties'];
  if (props && typeof props === 'object') {
    for (const [k, v] of Object.entries(props as Record<string, unknown>)) {
      out.push(k);
      if (v && typeof v === 'object') {
        const d = (v as Record<string, unknown>)['description'];
        if (typeof d === 'string') out.push(d);
        out.push(...schemaText(v, depth + 1));
      }
    }
  }
  if (s['items']) out.push(...schemaText(s['items'], depth + 1));
  return out;
}

/** Builds a MiniSearch index over the tools; returns a Retriever (best first). */
export function buildMiniSearchRetriever(tools: readonly MapperTool[]): Retriever {
  const ms = new MiniSearch<{ id: number; name: string; description: string; params: string }>({
    fields: ['name', 'description', 'params'],
    storeFields: [],
    tokenize: (text) => retrievalTokens(text),
    processTerm: (t) => t,
    searchOptions: { boost: { name: 2, description: 1, params: 0.5 }, bm25: { k: 0.9, b: 0.4, d: 0.5 } },
  });
  ms.addAll(
    tools.map((t, i) => ({
      id: i,
      name: `${t.name} ${t.title ?? ''}`,
      description: t.description ?? '',
      params: schemaText(t.inputSchema).join(' '),
    })),
  );
  return (query: string, limit: number): RetrievedCandidate[] => {
    if (typeof query !== 'string' || query.trim() === '') return [];
    const hits = ms.search(query.slice(0, 4000));
    return hits.slice(0, limit).map((h) => ({ name: tools[h.id as number].name, score: h.score }));
  };
}
