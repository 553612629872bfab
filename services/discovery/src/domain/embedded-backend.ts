import { sharedEncoder, ToolIndex } from '@toolsurface/search';
import { LexicalHeadReranker } from '@toolsurface/search';
import type { BoundToolDefinition } from '@toolsurface/core';
import type { SearchBackend } from './discovery';

/** Options of the embedded backend. */
export interface EmbeddedBackendOptions {
  /** Weight of ToolIndex's semantic stage (default: ToolIndex's, 0.6); 0 turns it off. */
  semanticWeight?: number;
  /**
   * The learned second stage over the first 15 hits (@toolsurface/search's LexicalHeadReranker;
   * libs/search/README.md "Ranking"); default on, `false` turns it off.
   */
  headRerank?: boolean;
  /**
   * Bytes the indexes may take together, by indexBytes' estimate (default: no bound but
   * `maxSnapshots`). The least recently used go first; the newest index always stays.
   */
  maxBytes?: number;
}

/**
 * Estimated heap bytes of one snapshot's index and head-reranker profiles once warmed: 4 KiB a
 * tool and 32 bytes a term occurrence. Measured as heap after GC with profiles built: the
 * 3,091-tool eval corpus 19.3 MB (this says 17.3), 10,000 synthetic tools of 30 parameters 78-93 MB
 * (this says 151). A count of snapshots alone would let 64 snapshots of 3,000 tools take about
 * 1.2 GB, past the deployment's 1 GiB limit.
 */
export function indexBytes(index: ToolIndex): number {
  return 4096 * index.size + 32 * index.termOccurrences;
}

/** Milliseconds of profile building per turn of the event loop when a new snapshot's head-reranker profiles are built in the background. */
const WARM_SLICE_MS = 8;
/** Resolves after a turn of the event loop (the requests waiting in it are answered first). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Milliseconds of a new snapshot's index build per turn of the event loop (ToolIndex.buildAsync). */
const BUILD_SLICE_MS = 8;

/** The in-process search backend: one ToolIndex per snapshot, least recently used dropped past `maxSnapshots` or `options.maxBytes`. */
export class EmbeddedBackend implements SearchBackend {
  private readonly indexes = new Map<string, ToolIndex>();
  /** indexBytes of the indexes held, together */
  private bytes = 0;
  /** snapshots whose per-tool work is still being done in the background, oldest first */
  private readonly warmQueue: { snapshotId: string; index: ToolIndex; stage: LexicalHeadReranker | undefined }[] = [];
  constructor(
    private readonly maxSnapshots: number,
    private readonly options: EmbeddedBackendOptions = {},
  ) {}

  /**
   * The semantic stage as configured: `on`, `off` (weight 0) or `unavailable` (its table,
   * @toolsurface/search's data/semantic-static.bin, cannot be read: searches are lexical only).
   */
  semanticStage(): 'on' | 'off' | 'unavailable' {
    if (this.options.semanticWeight === 0) return 'off';
    return sharedEncoder() === undefined ? 'unavailable' : 'on';
  }

  /** Warms the index code up at start (see warmUp), so a new snapshot's first index and searches do not run on cold code. */
  async init(): Promise<void> {
    warmUp(this.options.headRerank !== false);
  }

  async index(snapshotId: string, tools: readonly BoundToolDefinition[]): Promise<void> {
    if (this.indexes.has(snapshotId)) return;
    // (a turn of the event loop between the pieces that cannot be sliced: reading the snapshot,
    // the head reranker's tables, the build)
    await nextTurn();
    const defs = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }));
    const headReranker = this.options.headRerank === false ? undefined : new LexicalHeadReranker(defs);
    await nextTurn();
    // built in slices (ToolIndex.buildAsync): other snapshots' searches and the health service are
    // answered meanwhile, where a 10,000-tool snapshot held the event loop for most of a second
    const index = await ToolIndex.buildAsync(defs, { semanticWeight: this.options.semanticWeight, headReranker }, BUILD_SLICE_MS);
    // (another call indexed it while this one was building)
    if (this.indexes.has(snapshotId)) return;
    this.indexes.set(snapshotId, index);
    this.bytes += indexBytes(index);
    // a search does a tool's own work (head-reranker profile, semantic encoding, signature) when
    // the tool first reaches a head; the rest is done in short slices between requests, so later
    // searches find it ready
    this.warmQueue.push({ snapshotId, index, stage: headReranker });
    if (this.warmQueue.length === 1) setImmediate(() => this.warmStep()).unref();
    const maxBytes = this.options.maxBytes ?? Infinity;
    while (this.indexes.size > 1 && (this.indexes.size > this.maxSnapshots || this.bytes > maxBytes)) {
      const [oldest, dropped] = this.indexes.entries().next().value!;
      this.indexes.delete(oldest);
      this.bytes -= indexBytes(dropped);
      // its background work goes with it: a queued job would hold the dropped index in memory until its turn
      for (let j = this.warmQueue.length - 1; j >= 0; j--) if (this.warmQueue[j].index === dropped) this.warmQueue.splice(j, 1);
    }
  }

  /** indexBytes of the indexes held, together. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Snapshots whose per-tool background work is not done yet (0 once every indexed snapshot is ready). */
  get pendingWarmUps(): number {
    return this.warmQueue.length;
  }

  /**
   * One slice (WARM_SLICE_MS) of the first queued snapshot's background work a turn of the event
   * loop: its head reranker's profiles, then its index's own (ToolIndex.warm). A snapshot dropped
   * from the indexes meanwhile is skipped; snapshots indexed back to back wait their turn, so a
   * turn never holds the loop for more than one slice.
   */
  private warmStep(): void {
    const job = this.warmQueue[0];
    if (job === undefined) return;
    // (warm never throws: a tool it cannot profile keeps its search place)
    let done = false;
    if (this.indexes.get(job.snapshotId) !== job.index) done = true;
    else if (job.stage !== undefined) {
      if (job.stage.warm(WARM_SLICE_MS)) job.stage = undefined;
    } else done = job.index.warm(WARM_SLICE_MS);
    if (done) this.warmQueue.shift();
    if (this.warmQueue.length > 0) setImmediate(() => this.warmStep()).unref();
  }

  async isIndexed(snapshotId: string): Promise<boolean> {
    return this.indexes.has(snapshotId);
  }

  async search(snapshotId: string, query: string, limit: number): Promise<Array<{ name: string; score: number }>> {
    const index = this.indexes.get(snapshotId);
    if (!index) return [];
    // Refresh recency for the LRU.
    this.indexes.delete(snapshotId);
    this.indexes.set(snapshotId, index);
    return index.search(query, limit);
  }
}

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'convert', 'calculate', 'send', 'read', 'write', 'book'];
const OBJECTS = [
  'weather',
  'file',
  'invoice',
  'stock_price',
  'flight',
  'email',
  'user',
  'document',
  'image',
  'route',
  'currency',
  'news',
  'repository',
  'event',
];
const PARAMS = ['city', 'query', 'path', 'limit', 'start_date', 'endDate', 'amount', 'symbol', 'user_id', 'format'];

/**
 * Builds a synthetic catalog (every verb × object: snake_case, camelCase and dotted names, English
 * and Chinese descriptions, nested parameters) and searches it a few hundred times. In a fresh
 * process V8 runs the analyzer and search on cold code first: a new snapshot's first searches then
 * take several milliseconds each instead of a fraction of one. Done once at start (0.1-0.3 s on 2 cores)
 * rather than at a user's first request.
 */
function warmUp(headRerank: boolean): void {
  const tools: BoundToolDefinition[] = [];
  let n = 0;
  for (const verb of VERBS) {
    for (const object of OBJECTS) {
      const words = `${verb} ${object.replace('_', ' ')}`;
      const name =
        n % 3 === 0 ? `${verb}_${object}` : n % 3 === 1 ? `${verb}${object[0].toUpperCase()}${object.slice(1)}` : `${object}.${verb}`;
      const p1 = PARAMS[n % PARAMS.length];
      const p2 = PARAMS[(n + 3) % PARAMS.length];
      tools.push({
        name: `warmup:${name}`,
        description:
          n % 7 === 0
            ? `获取${object}信息，并返回结果列表`
            : `${words[0].toUpperCase()}${words.slice(1)} for a given ${p1}. Returns the ${object} details as JSON.`,
        inputSchema: {
          type: 'object',
          properties: {
            [p1]: { type: 'string', description: `The ${p1.replace('_', ' ')} to use` },
            [p2]: { type: 'object', properties: { value: { type: 'string', enum: ['a', 'b'] } } },
          },
        },
        capability: 'warmup',
        originalName: name,
      });
      n++;
    }
  }
  const index = ToolIndex.build(tools, { headReranker: headRerank ? new LexicalHeadReranker(tools) : undefined });
  for (const t of tools) {
    index.search(t.originalName, 10);
    index.search(`Please ${t.description ?? ''} in Paris tomorrow, then save it to /tmp/out.md`, 10);
  }
}
