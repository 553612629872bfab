import { PRINCIPAL_ID_PATTERN, type PrincipalRef } from '@toolsurface/core';

/** A mistake in how the command was typed; the CLI prints it and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Parses `agent:ID` or `gateway:ID` (ID: 1-128 of [A-Za-z0-9_-], core's PRINCIPAL_ID_PATTERN).
 * Throws UsageError naming what is wrong: no kind, an unknown kind, or a bad ID.
 */
export function parsePrincipal(text: string): PrincipalRef {
  const i = text.indexOf(':');
  if (i < 0) throw new UsageError(`principal "${text}" needs a kind: write agent:${text || 'ID'} or gateway:${text || 'ID'}`);
  const kind = text.slice(0, i);
  const id = text.slice(i + 1);
  if (kind !== 'agent' && kind !== 'gateway') {
    throw new UsageError(`principal "${text}" has an unknown kind "${kind}": use agent:ID or gateway:ID`);
  }
  if (!PRINCIPAL_ID_PATTERN.test(id)) {
    throw new UsageError(`principal "${text}" has an invalid ID: use 1-128 letters, digits, "_" or "-"`);
  }
  return { kind, id };
}

/** "agent:researcher" for a principal. */
export function formatPrincipal(p: { kind: string; id: string }): string {
  return `${p.kind}:${p.id}`;
}
