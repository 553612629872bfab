import type { PrincipalRef } from '@toolsurface/core';

/**
 * What shapes each principal's presented tools under one config, comparable across two configs:
 * principal `<kind>.<id>` → its presentation and bindings as JSON, and the admission policy, whose
 * unconditional denials hide tools from every surface. Capabilities are left out: a capability whose
 * tools change is announced by dispatch (`catalog.changed`).
 */
export interface SurfaceInputs {
  principals: Map<string, string>;
  admission: string;
}

/**
 * The inputs of a config as ConfigView reads it: `records` are its `presentation.<kind>.<id>` and
 * `bindings.<kind>.<id>` entries (the effective ones, overrides included).
 */
export function surfaceInputs(records: Array<[string, unknown]>, admission: unknown): SurfaceInputs {
  const byPrincipal = new Map<string, Record<string, unknown>>();
  for (const [key, value] of records) {
    const dot = key.indexOf('.');
    const field = key.slice(0, dot);
    const who = key.slice(dot + 1);
    byPrincipal.set(who, { ...byPrincipal.get(who), [field]: value });
  }
  const principals = new Map([...byPrincipal].map(([who, v]) => [who, JSON.stringify([v.presentation ?? null, v.bindings ?? null])]));
  return { principals, admission: JSON.stringify(admission ?? null) };
}

/**
 * The principals whose presented tools may differ between two configs: those added, dropped or
 * changed, or every one of either config when the admission policy changed. Sorted, each once.
 */
export function principalsChanged(before: SurfaceInputs, after: SurfaceInputs): PrincipalRef[] {
  const all = new Set([...before.principals.keys(), ...after.principals.keys()]);
  const everyone = before.admission !== after.admission;
  const changed = [...all].filter((who) => everyone || before.principals.get(who) !== after.principals.get(who)).sort();
  return changed.flatMap((who) => {
    const dot = who.indexOf('.');
    const kind = who.slice(0, dot);
    // Keys are written from PrincipalRef kinds; anything else in the bucket is not a principal.
    return kind === 'agent' || kind === 'gateway' ? [{ kind, id: who.slice(dot + 1) } as PrincipalRef] : [];
  });
}
