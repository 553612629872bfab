import {
  AppError,
  DISCOVER_LIMIT_DEFAULT,
  DISCOVER_LIMIT_MAX,
  QUERY_MAX_CHARS,
  ReasonCode,
  SNAPSHOT_ID_PATTERN,
  type BoundToolDefinition,
} from '@toolsurface/core';

/** One ranked hit as discover_tools returns it. */
export interface DiscoveryHit {
  name: string;
  description: string;
  score: number;
}

/** A discover_tools answer; an empty one says why and what to try next. */
export interface DiscoveryResult {
  hits: DiscoveryHit[];
  totalTools: number;
  emptyReason: '' | 'NO_MATCH' | 'EMPTY_SNAPSHOT';
  hint: string;
}

/** A search engine over snapshots (embedded index or Meilisearch); results come only from the named snapshot. */
export interface SearchBackend {
  /** Prepares the backend (connects, applies index settings); called once at start, before any other call. */
  init?(): Promise<void>;
  /** Makes a snapshot searchable; resolves only once it is. Idempotent. */
  index(snapshotId: string, tools: readonly BoundToolDefinition[]): Promise<void>;
  /**
   * True once the snapshot is searchable: `index` finished for it in this process, or, for a backend
   * shared by replicas (Meilisearch), in any of them.
   */
  isIndexed(snapshotId: string): Promise<boolean>;
  /** Ranked names and scores, best first, at most `limit`. */
  search(snapshotId: string, query: string, limit: number): Promise<Array<{ name: string; score: number }>>;
}

/** Longest description in a hit, characters (docs/DESIGN.md: hits are short, without schemas). */
export const HIT_DESCRIPTION_MAX = 300;

/**
 * Cuts a description to HIT_DESCRIPTION_MAX UTF-16 code units at a word boundary, with an
 * ellipsis; a cut never splits a surrogate pair (half an emoji would reach the client as U+FFFD).
 */
export function cutDescription(text: string | undefined): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim(); // collapse runs of whitespace
  if (t.length <= HIT_DESCRIPTION_MAX) return t;
  let cut = t.slice(0, HIT_DESCRIPTION_MAX - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1); // a high surrogate whose pair was cut off
  const space = cut.lastIndexOf(' ');
  return `${space > HIT_DESCRIPTION_MAX * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** A limit within 1..DISCOVER_LIMIT_MAX; 0 or absent means the default. */
export function boundLimit(limit: number | undefined): number {
  if (!limit || !Number.isFinite(limit) || limit <= 0) return DISCOVER_LIMIT_DEFAULT;
  return Math.min(Math.floor(limit), DISCOVER_LIMIT_MAX);
}

/** Checks a snapshot ID's shape (INVALID_REQUEST) before any lookup. */
export function checkSnapshotId(id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new AppError(ReasonCode.INVALID_REQUEST, 'snapshot_id is required');
  if (!SNAPSHOT_ID_PATTERN.test(id))
    throw new AppError(ReasonCode.SNAPSHOT_NOT_FOUND, 'snapshot_id is not a snapshot ID (snap_ and 64 hex digits)');
  return id;
}

/** Checks a query: a non-empty string of at most QUERY_MAX_CHARS characters (INVALID_REQUEST otherwise). */
export function checkQuery(q: unknown): string {
  if (typeof q !== 'string' || q.trim() === '') throw new AppError(ReasonCode.INVALID_REQUEST, 'query must be a non-empty string');
  // Characters as JSON Schema's maxLength counts them (code points), so a query the meta-tool accepts is accepted here.
  if (q.length > QUERY_MAX_CHARS && [...q].length > QUERY_MAX_CHARS)
    throw new AppError(ReasonCode.INVALID_REQUEST, `query must be at most ${QUERY_MAX_CHARS} characters`);
  return q;
}

/** Shapes ranked names into hits, and explains an empty result. */
export function toResult(
  ranked: Array<{ name: string; score: number }>,
  byName: ReadonlyMap<string, BoundToolDefinition>,
  totalTools: number,
): DiscoveryResult {
  const hits: DiscoveryHit[] = [];
  for (const r of ranked) {
    const t = byName.get(r.name);
    // (an empty description says nothing: the title stands in for it, as for a missing one)
    if (t) hits.push({ name: t.name, description: cutDescription(t.description || t.title), score: Math.round(r.score * 1000) / 1000 });
  }
  if (hits.length > 0) return { hits, totalTools, emptyReason: '', hint: '' };
  if (totalTools === 0) {
    return {
      hits,
      totalTools,
      emptyReason: 'EMPTY_SNAPSHOT',
      hint: 'No tools are bound to this surface at all; searching again will not help. Tell the user no tools are available.',
    };
  }
  return {
    hits,
    totalTools,
    emptyReason: 'NO_MATCH',
    hint: `Nothing among ${totalTools} tools matched. Try fewer or more general words (an action and an object, e.g. "read file"), or a tool name.`,
  };
}
