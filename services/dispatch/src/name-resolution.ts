import { isSystemToolName, ReasonCode, SYSTEM_CAPABILITY, type AdmissionResult, type Via } from '@toolsurface/core';
import type { SurfaceRecord } from '@toolsurface/state';
import { META_NAMES } from './call-context';
import { Messages } from './domain/messages';
import type { DispatchPorts } from './domain/ports';

/** Where step 3 resolved a name to. */
export interface Target {
  presentedName: string;
  capability: string;
  originalName: string;
  /** The bound tool's input schema; system tools use their precompiled validators. */
  inputSchema: Record<string, unknown>;
  system: boolean;
}

/**
 * Step 3's answer: the target, or the model-facing refusal with the target when the name resolved
 * and the admission decision when a rule hides the tool.
 */
export type Resolution =
  { ok: true; target: Target } | { ok: false; reason: ReasonCode; message: string; target?: Target; admission?: AdmissionResult };

function refusal(reason: ReasonCode, message: string, target?: Target, admission?: AdmissionResult): Resolution {
  return { ok: false, reason, message, target, admission };
}

/** Step 3: resolves the name a call reached `via`, against the surface's snapshot. */
export async function resolveName(ports: DispatchPorts, surface: SurfaceRecord, name: string, via: Via): Promise<Resolution> {
  const mode = surface.resolvedMode;
  if (isSystemToolName(name)) {
    // Product rule 5: a system tool is never folded behind a meta-tool.
    if (via !== 'direct') return refusal(ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.systemToolBehindMetaTool(name, via));
    return { ok: true, target: { presentedName: name, capability: SYSTEM_CAPABILITY, originalName: name, inputSchema: {}, system: true } };
  }
  if (META_NAMES.has(name)) return refusal(ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.metaToolBehindMetaTool(name, via));
  const snapshot = await ports.snapshots.get(surface.snapshotId);
  const def = snapshot.byName.get(name);
  if (!def) {
    // A name the collision rule prefixed: point to the names it is shown under.
    const presented = snapshot.tools.filter((t) => t.originalName === name && t.name !== name).map((t) => t.name);
    if (presented.length > 0) return refusal(ReasonCode.TOOL_NOT_FOUND, Messages.shownAs(name, presented));
    // Through a meta-tool the snapshot is the whole world (product rule 3); only a call by a
    // name of its own tells an unknown name from one bound since the surface opened. A tool
    // admission hides from the principal gets the answer of an unknown name, word for word, so
    // the answer does not tell that it exists; only the audit names the rule that hides it.
    const hiddenBy = ports.settings.hiddenBy?.(surface.principal, name);
    const hidden: AdmissionResult | undefined = hiddenBy === undefined ? undefined : { decision: 'deny', rule: hiddenBy };
    return via !== 'direct' || ports.settings.isBoundToolName(surface.principal, name)
      ? refusal(ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.notInSnapshot(name, mode), undefined, hidden)
      : refusal(ReasonCode.TOOL_NOT_FOUND, Messages.toolNotFound(name, mode), undefined, hidden);
  }
  const target: Target = {
    presentedName: def.name,
    capability: def.capability,
    originalName: def.originalName,
    inputSchema: def.inputSchema ?? {},
    system: false,
  };
  if (via === 'direct' && mode !== 'direct')
    return refusal(ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE, Messages.notDirectlyCallable(name, mode), target);
  return { ok: true, target };
}
