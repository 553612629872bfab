// Test support: an in-memory stand-in for the few Meilisearch HTTP routes the backend uses, served
// through a replacement `fetch`, so the real `meilisearch` client runs unchanged against it.
// It checks what a real server would refuse (an undeclared filterable attribute, a filter other
// than `snapshot_id = "<id>"`, a missing primary key with two `*id` candidates, an unknown embedder)
// and makes tasks asynchronous (documents become visible only when their task succeeds). Its
// ranking is deliberately crude (share of query words found, earlier attribute first): it tests
// the wire and the flow, not Meilisearch's relevance.

type Doc = Record<string, unknown>;

interface FakeIndex {
  uid: string;
  primaryKey: string | null;
  settings: Record<string, unknown>;
  docs: Map<string, Doc>;
}

interface FakeTask {
  uid: number;
  indexUid: string | null;
  type: string;
  status: 'enqueued' | 'processing' | 'succeeded' | 'failed';
  /** Polls left before it runs. */
  delay: number;
  run: () => { code: string; message: string } | void;
  error: { code: string; message: string; type: string; link: string } | null;
  enqueuedAt: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

const FILTER_RE = /^snapshot_id = "(snap_[0-9a-f]{64})"$/;

function words(text: unknown): string[] {
  if (Array.isArray(text)) return text.flatMap(words);
  if (typeof text !== 'string') return [];
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function apiError(status: number, code: string, message = code): Response {
  return json(status, { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });
}

export class FakeMeilisearch {
  readonly indexes = new Map<string, FakeIndex>();
  readonly tasks = new Map<number, FakeTask>();
  readonly requests: RecordedRequest[] = [];
  /** Polls a task stays enqueued/processing before it runs. */
  taskDelay = 1;
  /** Makes the next document addition task fail with this error code. */
  failNextDocuments: string | undefined;
  private nextTaskUid = 0;

  /** The replacement for globalThis.fetch. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Like fetch: an aborted signal rejects with its reason (the client's task timeout relies on it).
    if (init?.signal?.aborted) throw init.signal.reason;
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as unknown) : undefined;
    this.requests.push({ method, path: url.pathname, search: url.search, body });
    return this.route(method, url, body);
  };

  /** The bodies of the multi-search requests received so far. */
  multiSearches(): Array<{ queries: Array<Record<string, unknown>> }> {
    return this.requests.filter((r) => r.path === '/multi-search').map((r) => r.body as { queries: Array<Record<string, unknown>> });
  }

  private enqueue(indexUid: string | null, type: string, run: FakeTask['run']): Response {
    const task: FakeTask = {
      uid: this.nextTaskUid++,
      indexUid,
      type,
      status: 'enqueued',
      delay: this.taskDelay,
      run,
      error: null,
      enqueuedAt: new Date().toISOString(),
    };
    this.tasks.set(task.uid, task);
    return json(202, { taskUid: task.uid, indexUid, status: 'enqueued', type, enqueuedAt: task.enqueuedAt });
  }

  private poll(task: FakeTask): void {
    if (task.status !== 'enqueued' && task.status !== 'processing') return;
    if (task.delay > 0) {
      task.delay--;
      task.status = 'processing';
      return;
    }
    const err = task.run();
    if (err) {
      task.status = 'failed';
      task.error = { ...err, type: 'invalid_request', link: '' };
    } else task.status = 'succeeded';
  }

  private ensureIndex(uid: string): FakeIndex {
    let ix = this.indexes.get(uid);
    if (!ix) this.indexes.set(uid, (ix = { uid, primaryKey: null, settings: {}, docs: new Map() }));
    return ix;
  }

  private route(method: string, url: URL, body: unknown): Response {
    const parts = url.pathname
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
    const [a, b, c, d, e] = parts;
    if (a === 'tasks' && b !== undefined && method === 'GET') {
      const task = this.tasks.get(Number(b));
      if (!task) return apiError(404, 'task_not_found');
      this.poll(task);
      return json(200, {
        uid: task.uid,
        batchUid: null,
        indexUid: task.indexUid,
        status: task.status,
        type: task.type,
        canceledBy: null,
        error: task.error,
        duration: null,
        enqueuedAt: task.enqueuedAt,
        startedAt: null,
        finishedAt: null,
      });
    }
    if (a === 'indexes' && b === undefined && method === 'POST') {
      const { uid, primaryKey } = body as { uid: string; primaryKey?: string };
      return this.enqueue(uid, 'indexCreation', () => {
        if (this.indexes.has(uid)) return { code: 'index_already_exists', message: `Index \`${uid}\` already exists.` };
        this.ensureIndex(uid).primaryKey = primaryKey ?? null;
      });
    }
    if (a === 'multi-search' && method === 'POST') return this.multiSearch(body as { queries: Array<Record<string, unknown>> });
    if (a !== 'indexes' || b === undefined) return apiError(404, 'not_found');
    const ix = this.indexes.get(b);
    if (c === undefined) {
      if (method === 'GET')
        return ix ? json(200, { uid: ix.uid, primaryKey: ix.primaryKey, createdAt: '', updatedAt: '' }) : apiError(404, 'index_not_found');
      if (method === 'DELETE') {
        return this.enqueue(b, 'indexDeletion', () => {
          if (!this.indexes.delete(b)) return { code: 'index_not_found', message: 'index not found' };
        });
      }
    }
    if (c === 'settings' && d === undefined && method === 'PATCH') {
      return this.enqueue(b, 'settingsUpdate', () => {
        Object.assign(this.ensureIndex(b).settings, body as object);
      });
    }
    if (c === 'settings' && d === 'embedders' && method === 'GET') {
      return ix ? json(200, ix.settings['embedders'] ?? {}) : apiError(404, 'index_not_found');
    }
    if (c === 'documents' && d === undefined && method === 'POST') {
      const docs = body as Doc[];
      const pkParam = url.searchParams.get('primaryKey');
      return this.enqueue(b, 'documentAdditionOrUpdate', () => {
        if (this.failNextDocuments) {
          const code = this.failNextDocuments;
          this.failNextDocuments = undefined;
          return { code, message: 'injected failure' };
        }
        const target = this.ensureIndex(b);
        if (target.primaryKey === null) {
          if (pkParam) target.primaryKey = pkParam;
          else {
            const candidates = Object.keys(docs[0] ?? {}).filter((k) => k.toLowerCase().endsWith('id'));
            if (candidates.length !== 1) return { code: 'index_primary_key_multiple_candidates_found', message: candidates.join(', ') };
            target.primaryKey = candidates[0];
          }
        }
        const pk = target.primaryKey;
        for (const doc of docs) {
          const id = doc[pk];
          if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,511}$/.test(id)) return { code: 'invalid_document_id', message: String(id) };
        }
        // All or nothing, as a Meilisearch task.
        for (const doc of docs) target.docs.set(doc[pk] as string, doc);
      });
    }
    if (c === 'documents' && d !== undefined && e === undefined && method === 'GET') {
      if (!ix) return apiError(404, 'index_not_found');
      const doc = ix.docs.get(d);
      if (!doc) return apiError(404, 'document_not_found');
      const fields = url.searchParams.get('fields');
      return json(200, fields ? Object.fromEntries(fields.split(',').map((f) => [f, doc[f]])) : doc);
    }
    return apiError(404, 'not_found', `${method} ${url.pathname}`);
  }

  private multiSearch(body: { queries: Array<Record<string, unknown>> }): Response {
    const results = [];
    for (const q of body.queries) {
      const ix = this.indexes.get(String(q['indexUid']));
      if (!ix) return apiError(404, 'index_not_found');
      const filter = q['filter'];
      const filterable = (ix.settings['filterableAttributes'] as string[] | undefined) ?? [];
      let snapshotId: string | undefined;
      if (filter !== undefined) {
        const m = typeof filter === 'string' ? FILTER_RE.exec(filter) : null;
        if (!m || !filterable.includes('snapshot_id'))
          return apiError(400, 'invalid_search_filter', `unsupported filter ${JSON.stringify(filter)}`);
        snapshotId = m[1];
      }
      const hybrid = q['hybrid'] as { embedder?: string } | undefined;
      if (hybrid && !(hybrid.embedder && hybrid.embedder in ((ix.settings['embedders'] as object | undefined) ?? {}))) {
        return apiError(400, 'invalid_search_embedder', `embedder ${hybrid.embedder} not found`);
      }
      const searchable = (ix.settings['searchableAttributes'] as string[] | undefined) ?? ['*'];
      const on = (q['attributesToSearchOn'] as string[] | undefined) ?? searchable;
      for (const attr of on) if (!searchable.includes(attr)) return apiError(400, 'invalid_search_attributes_to_search_on', attr);
      const qWords = [...new Set(words(q['q']))].slice(0, 10);
      const all = q['matchingStrategy'] === 'all';
      const scored: Array<{ doc: Doc; score: number }> = [];
      for (const doc of ix.docs.values()) {
        if (snapshotId !== undefined && doc['snapshot_id'] !== snapshotId) continue;
        if (qWords.length === 0) {
          scored.push({ doc, score: 1 }); // placeholder search: everything
          continue;
        }
        let matched = 0;
        let firstAttr = on.length;
        for (const w of qWords) {
          const at = on.findIndex((attr) => words(doc[attr]).includes(w));
          if (at >= 0) {
            matched++;
            firstAttr = Math.min(firstAttr, at);
          }
        }
        if (matched === 0 || (all && matched < qWords.length)) continue;
        scored.push({ doc, score: matched / qWords.length - firstAttr * 0.01 });
      }
      scored.sort((x, y) => y.score - x.score);
      const limit = typeof q['limit'] === 'number' ? q['limit'] : 20;
      const retrieve = q['attributesToRetrieve'] as string[] | undefined;
      const hits = scored.slice(0, limit).map(({ doc, score }) => ({
        ...(retrieve ? Object.fromEntries(retrieve.map((f) => [f, doc[f]])) : doc),
        ...(q['showRankingScore'] ? { _rankingScore: Math.max(0, Math.min(1, score)) } : {}),
      }));
      results.push({
        indexUid: ix.uid,
        hits,
        query: q['q'] ?? '',
        processingTimeMs: 0,
        limit,
        offset: 0,
        estimatedTotalHits: scored.length,
      });
    }
    return json(200, { results });
  }
}
