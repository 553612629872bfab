import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig (search backend)', () => {
  it('defaults to the embedded backend, keyword search, 30 s task timeout', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      searchBackend: 'embedded',
      meiliUrl: '',
      meiliApiKey: '',
      meiliEmbedder: '',
      meiliSemanticRatio: 0.5,
      meiliTaskTimeoutMs: 30_000,
    });
  });

  it('reads the Meilisearch variables', () => {
    const c = loadConfig({
      SEARCH_BACKEND: 'meilisearch',
      MEILI_URL: 'http://meilisearch:7700',
      MEILI_API_KEY: 'k',
      MEILI_EMBEDDER: 'tools-e5',
      MEILI_SEMANTIC_RATIO: '0.25',
      MEILI_TASK_TIMEOUT_MS: '120000',
    });
    expect(c).toMatchObject({
      searchBackend: 'meilisearch',
      meiliUrl: 'http://meilisearch:7700',
      meiliApiKey: 'k',
      meiliEmbedder: 'tools-e5',
      meiliSemanticRatio: 0.25,
      meiliTaskTimeoutMs: 120_000,
    });
    expect(loadConfig({ MEILI_EMBEDDER: 'e', MEILI_SEMANTIC_RATIO: '1' }).meiliSemanticRatio).toBe(1);
    expect(loadConfig({ MEILI_EMBEDDER: 'e', MEILI_SEMANTIC_RATIO: '0' }).meiliSemanticRatio).toBe(0);
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => loadConfig({ SEARCH_BACKEND: 'meilisearch' })).toThrow(/MEILI_URL/);
    expect(() => loadConfig({ MEILI_EMBEDDER: 'a b' })).toThrow(/MEILI_EMBEDDER/);
    expect(() => loadConfig({ MEILI_SEMANTIC_RATIO: '0.5' })).toThrow(/MEILI_SEMANTIC_RATIO needs MEILI_EMBEDDER/);
    for (const bad of ['1.5', '-0.1', 'half', '.5', '0,5']) {
      expect(() => loadConfig({ MEILI_EMBEDDER: 'e', MEILI_SEMANTIC_RATIO: bad }), bad).toThrow(/MEILI_SEMANTIC_RATIO/);
    }
    expect(() => loadConfig({ MEILI_TASK_TIMEOUT_MS: '10' })).toThrow(/MEILI_TASK_TIMEOUT_MS/);
  });
});

describe('loadConfig (embedded index)', () => {
  it('reads the semantic stage weight, 0.6 by default and 0 to turn it off', () => {
    expect(loadConfig({}).semanticWeight).toBe(1);
    expect(loadConfig({ SEARCH_SEMANTIC_WEIGHT: '0' }).semanticWeight).toBe(0);
    expect(loadConfig({ SEARCH_SEMANTIC_WEIGHT: '1.25' }).semanticWeight).toBe(1.25);
    for (const bad of ['-1', 'on', '5', '0,6'])
      expect(() => loadConfig({ SEARCH_SEMANTIC_WEIGHT: bad }), bad).toThrow(/SEARCH_SEMANTIC_WEIGHT/);
  });

  it('turns the head reranker on by default and off with SEARCH_HEAD_RERANK=false', () => {
    expect(loadConfig({}).headRerank).toBe(true);
    expect(loadConfig({ SEARCH_HEAD_RERANK: 'false' }).headRerank).toBe(false);
    expect(loadConfig({ SEARCH_HEAD_RERANK: 'true' }).headRerank).toBe(true);
    for (const bad of ['off', '0', 'no']) expect(() => loadConfig({ SEARCH_HEAD_RERANK: bad }), bad).toThrow(/SEARCH_HEAD_RERANK/);
  });
});
