import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { BoundToolDefinition } from './types';

/**
 * The snapshot ID of a set of bound-tool definitions (docs/DESIGN.md product rule 8):
 * `snap_` + hex SHA-256 of the RFC 8785 canonical JSON of the definitions sorted by name.
 * Returns the ID, the canonical text the ID hashes, and `json`: the same definitions sorted by
 * name with every object's keys in the order they were published (what the object store holds).
 * RFC 8785 sorts keys, and a schema's property order is meaningful to the model and the mapper
 * (a tool's parameters as its author listed them, "add 17 and 25" onto a, b in that order); it
 * does not change the ID, so two snapshots that differ only in key order are one snapshot.
 */
export function snapshotIdOf(definitions: readonly BoundToolDefinition[]): { snapshotId: string; canonical: string; json: string } {
  const sorted = [...definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const canonical = canonicalize(sorted);
  if (canonical === undefined) throw new Error('snapshot definitions are not JSON-serializable');
  const snapshotId = `snap_${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
  return { snapshotId, canonical, json: JSON.stringify(sorted) };
}

/** Snapshot IDs: `snap_` and 64 lowercase hex digits. */
// Matches the exact shape produced by snapshotIdOf.
export const SNAPSHOT_ID_PATTERN = /^snap_[0-9a-f]{64}$/;
