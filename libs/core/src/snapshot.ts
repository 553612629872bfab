import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { BoundToolDefinition } from './types';

/**
 * The snapshot ID of a set of bound-tool definitions (DESIGN.md product rule 8):
 * `snap_` + hex SHA-256 of the RFC 8785 canonical JSON of the definitions sorted by name.
 * Returns the ID and the canonical text (what the object store holds).
 */
export function snapshotIdOf(definitions: readonly BoundToolDefinition[]): { snapshotId: string; canonical: string } {
  const sorted = [...definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const canonical = canonicalize(sorted);
  if (canonical === undefined) throw new Error('snapshot definitions are not JSON-serializable');
  const snapshotId = `snap_${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
  return { snapshotId, canonical };
}

/** Snapshot IDs: `snap_` and 64 lowercase hex digits. */
// Matches the exact shape produced by snapshotIdOf.
export const SNAPSHOT_ID_PATTERN = /^snap_[0-9a-f]{64}$/;
