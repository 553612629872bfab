// SearchBackend over Meilisearch (SEARCH_BACKEND=meilisearch): one shared index, every document
// tagged with its snapshot, every search filtered to one snapshot.
//
// Index layout (index `toolsurface_tools` by default, primary key `id`):
//   id                  `<64 hex digits of the snapshot id>-<n>`, n = the tool's position by name
//   snapshot_id         filterable; the only filter ever sent is snapshotFilter(id) on a validated id
//   name                the tool's name, verbatim
//   name_words          the name split into lower-case words (`getCurrentWeather` → `get current weather`)
//   name_last           the tool's own name in words: qualifiers (`server:`) and dotted prefixes dropped
//   title, description
//   param_names, param_descriptions   from inputSchema (nested properties, items, anyOf/oneOf/allOf; string enums)
//
// User text goes only into `q`. A snapshot's documents are added in one task, and a Meilisearch task
// is atomic, so the presence of document `<hex>-0` means the whole snapshot is searchable: that is
// how a replica learns that another one indexed a snapshot.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Meilisearch,
  MeilisearchApiError,
  type EnqueuedTaskPromise,
  type Hit,
  type MultiSearchQuery,
  type Settings,
  type Task,
} from 'meilisearch';
import { SNAPSHOT_ID_PATTERN, type BoundToolDefinition } from '@toolsurface/core';
import type { SearchBackend } from '../domain/discovery';

/** The index every snapshot shares unless told otherwise. */
export const DEFAULT_INDEX_UID = 'toolsurface_tools';
/** Searchable attributes, most important first (Meilisearch's `attribute` ranking rule follows this order). */
export const SEARCHABLE_ATTRIBUTES = [
  'name',
  'name_words',
  'name_last',
  'title',
  'description',
  'param_names',
  'param_descriptions',
] as const;
/** Ranking rules: all query words, fewest typos, then where they matched (name before description) before how close together. */
export const RANKING_RULES = ['words', 'typo', 'attribute', 'proximity', 'exactness'] as const;
/** Most characters of one indexed text (description, one parameter description). */
export const MAX_TEXT_CHARS = 32_000;
/** Most parameter names (and, separately, parameter texts) indexed per tool. */
export const MAX_PARAMS = 1_000;
/** Characters of a query sent as `q` (Meilisearch reads only the first 10 words anyway). */
export const MAX_QUERY_CHARS = 4_000;
/** Candidates fetched by each exact-name probe. */
export const EXACT_POOL = 20;
/** A query of more words than this cannot be a tool name or title: no exact-name probes. */
const EXACT_MAX_WORDS = 16;
/** Snapshots remembered as indexed by this process (a cache: the index itself is the record). */
const KNOWN_MAX = 10_000;

/** One tool as stored in Meilisearch. */
export type ToolDocument = {
  id: string;
  snapshot_id: string;
  name: string;
  name_words: string;
  name_last: string;
  title: string;
  description: string;
  param_names: string[];
  param_descriptions: string[];
};

type RetrievedHit = Hit<Pick<ToolDocument, 'name' | 'title'>>;

export interface MeilisearchBackendOptions {
  /** MEILI_URL */
  url: string;
  /** MEILI_API_KEY; empty for an instance without a master key. */
  apiKey?: string;
  /** Index holding every snapshot's tools (default `toolsurface_tools`). */
  indexUid?: string;
  /** MEILI_EMBEDDER: name of an embedder configured on the index; empty turns hybrid search off. */
  embedder?: string;
  /** MEILI_SEMANTIC_RATIO: 0 = keyword only, 1 = semantic only (default 0.5). */
  semanticRatio?: number;
  /** MEILI_TASK_TIMEOUT_MS: longest wait for one Meilisearch task (default 30 s). */
  taskTimeoutMs?: number;
  /** Longest wait for one HTTP request (default 10 s). */
  requestTimeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Pure parts (unit-tested without a server)

/** The hex part of a snapshot id; throws unless it matches SNAPSHOT_ID_PATTERN. */
export function snapshotHex(snapshotId: string): string {
  if (!SNAPSHOT_ID_PATTERN.test(snapshotId)) throw new Error('not a snapshot id (snap_ and 64 hex digits)');
  return snapshotId.slice('snap_'.length);
}

/** The only filter expression this backend sends: one validated, quoted snapshot id. */
export function snapshotFilter(snapshotId: string): string {
  snapshotHex(snapshotId); // validates: `snap_` and hex only, so the quotes cannot be broken out of
  return `snapshot_id = "${snapshotId}"`;
}

/** Document id of a snapshot's n-th tool (by name). */
export function documentId(snapshotId: string, n: number): string {
  return `${snapshotHex(snapshotId)}-${n}`;
}

/** Lower-case words of an identifier or a phrase: split on camelCase and on anything but letters, digits and their marks. */
export function nameWords(text: string): string {
  const t = text.length > 4096 ? text.slice(0, 4096) : text;
  return (
    t
      .normalize('NFKC')
      .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2') // getWeather → get Weather
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2') // HTTPServer → HTTP Server
      .toLowerCase()
      .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) // a word starts with a letter or digit; marks only follow one
      ?.join(' ') ?? ''
  );
}

// A content-hash or version-stamp segment of a qualified name ("10fae9e4"): 6+ hex digits with at least one digit.
const HASH_SEGMENT_RE = /^(?=[^\d]*\d)[0-9a-f]{6,}$/i;

/** The tool's own name in a qualified one (`server:tool`, `bfcl:math.factorial:10fae9e4` → `math.factorial`). */
export function baseName(name: string): string {
  const segs = name.split(':').filter((s) => s !== '' && !HASH_SEGMENT_RE.test(s));
  return segs.length === 0 ? name : segs[segs.length - 1];
}

/** Last segment of a dotted name (`math.factorial` → `factorial`), or undefined. */
export function lastDottedSegment(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1) : undefined;
}

/**
 * Exact-name tier of a tool for a query, as the embedded index ranks them: verbatim name 4, name up
 * to case and separators 3, title 2, last dotted segment 1, none 0. A tier > 0 puts the tool first.
 */
export function exactTier(query: string, name: string, title: string | undefined): number {
  const q = query.trim();
  if (q === '' || q.length > 512) return 0;
  const base = baseName(name);
  if (q === name || q === base) return 4;
  const words = nameWords(q);
  if (words === '') return 0;
  if (words === nameWords(base)) return 3;
  if (title && words === nameWords(title)) return 2;
  const last = lastDottedSegment(base);
  if (last !== undefined && words === nameWords(last)) return 1;
  return 0;
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** Parameter names, their descriptions and string enum values, following properties, items and anyOf/oneOf/allOf (6 levels). */
export function collectParams(
  schema: unknown,
  out: { names: string[]; texts: string[] } = { names: [], texts: [] },
  depth = 0,
): { names: string[]; texts: string[] } {
  if (depth > 6 || schema === null || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  const props = s['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [key, sub] of Object.entries(props as Record<string, unknown>)) {
      if (out.names.length < MAX_PARAMS) out.names.push(key);
      if (sub !== null && typeof sub === 'object') {
        const d = (sub as Record<string, unknown>)['description'];
        if (typeof d === 'string' && d !== '' && out.texts.length < MAX_PARAMS) out.texts.push(cut(d));
        const e = (sub as Record<string, unknown>)['enum'];
        if (Array.isArray(e))
          for (const v of e) if (typeof v === 'string' && v !== '' && out.texts.length < MAX_PARAMS) out.texts.push(cut(v));
      }
      collectParams(sub, out, depth + 1);
    }
  }
  if (s['items'] !== undefined) collectParams(s['items'], out, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[k];
    if (Array.isArray(list)) for (const sub of list) collectParams(sub, out, depth + 1);
  }
  return out;
}

/** A snapshot's documents, ids `<hex>-<n>` with n the tool's position by name (the same on every replica). */
export function buildDocuments(snapshotId: string, tools: readonly BoundToolDefinition[]): ToolDocument[] {
  snapshotHex(snapshotId);
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.map((t, n) => {
    const params = collectParams(t.inputSchema);
    const base = baseName(t.name);
    return {
      id: documentId(snapshotId, n),
      snapshot_id: snapshotId,
      name: t.name,
      name_words: nameWords(t.name),
      name_last: nameWords(lastDottedSegment(base) ?? base),
      title: cut(t.title ?? ''),
      description: cut(t.description ?? ''),
      param_names: params.names,
      param_descriptions: params.texts,
    };
  });
}

/** Index settings applied at start. Embedders are not touched: an operator configures them (see README). */
export function meiliSettings(): Settings {
  return {
    searchableAttributes: [...SEARCHABLE_ATTRIBUTES],
    filterableAttributes: ['snapshot_id'],
    // Only what a search needs back; documents stay small on the wire.
    displayedAttributes: ['id', 'snapshot_id', 'name', 'title'],
    sortableAttributes: [],
    rankingRules: [...RANKING_RULES],
    typoTolerance: {
      enabled: true,
      // No typo on words of 4 characters or fewer ("get" must not match "set"), two from 9.
      minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    },
    // Proximity within one attribute is enough for tool texts and indexes faster.
    proximityPrecision: 'byAttribute',
  };
}

/** Longest query word sent; longer ones match nothing anyway. */
const MAX_QUERY_WORD_CHARS = 128;

/**
 * The text sent as `q`: cut to MAX_QUERY_CHARS, without control characters, lone surrogates (the
 * server's JSON parser refuses them), words over MAX_QUERY_WORD_CHARS, or the leading `-` of
 * Meilisearch's negative operator (a model's "- pdf" is not an exclusion). Double quotes (phrases) stay.
 */
export function cleanQuery(query: string): string {
  return query
    .slice(0, MAX_QUERY_CHARS)
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .split(/\s+/)
    .filter((w) => w !== '' && w.length <= MAX_QUERY_WORD_CHARS)
    .map((w) => w.replace(/^-+/, ''))
    .filter((w) => w !== '')
    .join(' ');
}

/**
 * The multi-search of one discover_tools call, or [] when the query has no word to search for (a
 * Meilisearch query without words would list the whole snapshot). Query 0 ranks; queries 1 and 2 only
 * find candidates for the exact-name tiers (name words, then title) that query 0 may rank too low.
 */
export function buildSearchQueries(
  indexUid: string,
  snapshotId: string,
  query: string,
  limit: number,
  hybrid?: { embedder: string; semanticRatio: number },
): MultiSearchQuery[] {
  const filter = snapshotFilter(snapshotId);
  const q = cleanQuery(query);
  const words = nameWords(q);
  if (words === '') return [];
  const retrieve = { attributesToRetrieve: ['name', 'title'], showRankingScore: true };
  const queries: MultiSearchQuery[] = [
    {
      indexUid,
      q,
      filter,
      limit,
      matchingStrategy: 'frequency', // long requests drop their commonest words first, not their last ones
      ...retrieve,
      ...(hybrid ? { hybrid: { embedder: hybrid.embedder, semanticRatio: hybrid.semanticRatio } } : {}),
    },
  ];
  if (words.split(' ').length <= EXACT_MAX_WORDS && q.length <= 512) {
    queries.push(
      {
        indexUid,
        q: words,
        filter,
        limit: EXACT_POOL,
        matchingStrategy: 'all',
        attributesToSearchOn: ['name_words', 'name_last'],
        ...retrieve,
      },
      { indexUid, q: words, filter, limit: EXACT_POOL, matchingStrategy: 'all', attributesToSearchOn: ['title'], ...retrieve },
    );
  }
  return queries;
}

/** Ranked names from a multi-search: exact-name tiers first (score 1), then query 0's order and ranking score. */
export function mergeHits(
  query: string,
  results: ReadonlyArray<ReadonlyArray<RetrievedHit>>,
  limit: number,
): Array<{ name: string; score: number }> {
  const tiered: Array<{ name: string; tier: number; order: number }> = [];
  const seen = new Set<string>();
  let order = 0;
  for (const hits of results) {
    for (const h of hits) {
      if (typeof h.name !== 'string' || seen.has(h.name)) continue;
      seen.add(h.name);
      const tier = exactTier(query, h.name, typeof h.title === 'string' ? h.title : undefined);
      if (tier > 0) tiered.push({ name: h.name, tier, order });
      order++;
    }
  }
  tiered.sort((a, b) => b.tier - a.tier || a.order - b.order);
  const out: Array<{ name: string; score: number }> = tiered.map((t) => ({ name: t.name, score: 1 }));
  const placed = new Set(out.map((h) => h.name));
  for (const h of results[0] ?? []) {
    if (out.length >= limit) break;
    if (typeof h.name !== 'string' || placed.has(h.name)) continue;
    placed.add(h.name);
    const s = h._rankingScore;
    out.push({ name: h.name, score: typeof s === 'number' && Number.isFinite(s) ? Math.min(1, Math.max(0, s)) : 0 });
  }
  return out.slice(0, limit);
}

function assertSucceeded(task: Task, what: string): void {
  if (task.status === 'succeeded') return;
  const reason = task.error ? `${task.error.code}: ${task.error.message}` : `status ${task.status}`;
  throw new Error(`Meilisearch ${what} did not succeed (task ${task.uid}, ${reason})`);
}

function apiErrorCode(err: unknown): string | undefined {
  return err instanceof MeilisearchApiError ? err.cause?.code : undefined;
}

// ---------------------------------------------------------------------------------------------

/** Search over Meilisearch; every replica shares the index, so a snapshot is indexed once for all of them. */
export class MeilisearchBackend implements SearchBackend {
  readonly indexUid: string;
  private readonly client: Meilisearch;
  private readonly embedder: string;
  private readonly semanticRatio: number;
  private readonly taskTimeoutMs: number;
  /** Snapshots known to be searchable → whether they have documents (insertion order = recency, for the cap). */
  private readonly known = new Map<string, boolean>();
  private readonly inflight = new Map<string, Promise<void>>();
  private ready: Promise<void> | undefined;

  constructor(options: MeilisearchBackendOptions) {
    this.indexUid = options.indexUid ?? DEFAULT_INDEX_UID;
    this.embedder = options.embedder ?? '';
    this.semanticRatio = options.semanticRatio ?? 0.5;
    this.taskTimeoutMs = options.taskTimeoutMs ?? 30_000;
    this.client = new Meilisearch({
      host: options.url,
      apiKey: options.apiKey || undefined,
      timeout: options.requestTimeoutMs ?? 10_000,
      clientAgents: ['toolsurface-discovery'],
    });
  }

  /** Creates the index if needed, applies its settings and checks the embedder; once (retried after a failure). */
  init(): Promise<void> {
    this.ready ??= this.applySettings().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async applySettings(): Promise<void> {
    let primaryKey: string | undefined;
    try {
      primaryKey = (await this.client.getRawIndex(this.indexUid)).primaryKey ?? undefined;
    } catch (err) {
      if (apiErrorCode(err) !== 'index_not_found') throw err;
      const created = await this.finished(this.client.createIndex(this.indexUid, { primaryKey: 'id' }), `creating index ${this.indexUid}`);
      // Another replica may have created it in between.
      if (created.error?.code !== 'index_already_exists') assertSucceeded(created, `creating index ${this.indexUid}`);
      primaryKey = 'id';
    }
    if (primaryKey !== undefined && primaryKey !== 'id') {
      throw new Error(`Meilisearch index ${this.indexUid} has primary key "${primaryKey}", expected "id": it belongs to something else`);
    }
    const settings = await this.finished(
      this.client.index(this.indexUid).updateSettings(meiliSettings()),
      `settings update of ${this.indexUid}`,
    );
    assertSucceeded(settings, `settings update of ${this.indexUid}`);
    if (this.embedder !== '') {
      const embedders = await this.client.index(this.indexUid).getEmbedders();
      if (!embedders || !(this.embedder in embedders)) {
        throw new Error(
          `MEILI_EMBEDDER "${this.embedder}" is not configured on Meilisearch index ${this.indexUid} (configured: ${Object.keys(embedders ?? {}).join(', ') || 'none'})`,
        );
      }
    }
  }

  async index(snapshotId: string, tools: readonly BoundToolDefinition[]): Promise<void> {
    snapshotHex(snapshotId);
    if (this.known.has(snapshotId)) return;
    let p = this.inflight.get(snapshotId);
    if (!p) {
      p = this.addSnapshot(snapshotId, tools).finally(() => this.inflight.delete(snapshotId));
      this.inflight.set(snapshotId, p);
    }
    return p;
  }

  private async addSnapshot(snapshotId: string, tools: readonly BoundToolDefinition[]): Promise<void> {
    await this.init();
    // An empty snapshot has nothing to store: knowing it here is enough (it is never searched).
    if (tools.length > 0 && !(await this.inIndex(snapshotId))) {
      const docs = buildDocuments(snapshotId, tools);
      // One task for the whole snapshot: it is atomic, so a snapshot is either all there or not at all.
      const task = await this.finished(
        this.client.index<ToolDocument>(this.indexUid).addDocuments(docs, { primaryKey: 'id' }),
        `indexing ${snapshotId}`,
      );
      assertSucceeded(task, `indexing ${docs.length} tools of ${snapshotId}`);
    }
    this.remember(snapshotId, tools.length > 0);
  }

  async isIndexed(snapshotId: string): Promise<boolean> {
    const hasDocuments = this.known.get(snapshotId);
    if (hasDocuments !== undefined) {
      this.remember(snapshotId, hasDocuments); // recency
      return true;
    }
    if (!SNAPSHOT_ID_PATTERN.test(snapshotId)) return false;
    await this.init();
    if (!(await this.inIndex(snapshotId))) return false;
    this.remember(snapshotId, true); // indexed by another replica (or an earlier run)
    return true;
  }

  async search(snapshotId: string, query: string, limit: number): Promise<Array<{ name: string; score: number }>> {
    if (!SNAPSHOT_ID_PATTERN.test(snapshotId) || typeof query !== 'string') return [];
    const max = Math.min(Math.floor(limit), 1000);
    if (!(max >= 1)) return [];
    const hybrid = this.embedder !== '' ? { embedder: this.embedder, semanticRatio: this.semanticRatio } : undefined;
    const queries = buildSearchQueries(this.indexUid, snapshotId, query, max, hybrid);
    if (queries.length === 0) return [];
    await this.init();
    const res = await this.client.multiSearch<{ queries: MultiSearchQuery[] }, Pick<ToolDocument, 'name' | 'title'>>({ queries });
    const ranked = mergeHits(
      query,
      res.results.map((r) => r.hits),
      max,
    );
    // Nothing found for a snapshot thought indexed: if its documents are gone (index dropped or
    // recreated), forget it, so that the next request indexes it again instead of answering empty.
    if (ranked.length === 0 && this.known.get(snapshotId) === true && !(await this.inIndex(snapshotId))) this.known.delete(snapshotId);
    return ranked;
  }

  /**
   * Waits until a task has finished (succeeded, failed or canceled) and returns it; throws after
   * taskTimeoutMs. Polls task status itself, first every few milliseconds (a small snapshot takes
   * tens of ms), backing off to 100 ms. Not the client's waitTask: with a request timeout set, it
   * leaves one abort listener per poll on its shared signal (MaxListenersExceededWarning).
   */
  private async finished(enqueued: EnqueuedTaskPromise, what: string): Promise<Task> {
    const { taskUid } = await enqueued;
    const deadline = Date.now() + this.taskTimeoutMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const task = await this.client.tasks.getTask(taskUid);
      if (task.status !== 'enqueued' && task.status !== 'processing') return task;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`Meilisearch ${what}: task ${taskUid} still ${task.status} after ${this.taskTimeoutMs} ms (MEILI_TASK_TIMEOUT_MS)`);
      await sleep(Math.min(pause, left));
    }
  }

  /** Whether the snapshot's first document is in the index (the whole snapshot is then: one atomic task). */
  private async inIndex(snapshotId: string): Promise<boolean> {
    try {
      await this.client.index<ToolDocument>(this.indexUid).getDocument(documentId(snapshotId, 0), { fields: ['id'] });
      return true;
    } catch (err) {
      const code = apiErrorCode(err);
      if (code === 'document_not_found' || code === 'index_not_found') return false;
      throw err;
    }
  }

  private remember(snapshotId: string, hasDocuments: boolean): void {
    this.known.delete(snapshotId);
    this.known.set(snapshotId, hasDocuments);
    while (this.known.size > KNOWN_MAX) this.known.delete(this.known.keys().next().value!);
  }
}
