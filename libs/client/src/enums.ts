import type {
  Autonomy as AutonomyName,
  PresentationMode as ModeName,
  PrincipalKind as KindName,
  ResolvedMode as ResolvedName,
} from '@toolsurface/core';
import { Autonomy, PresentationMode, PrincipalKind, ResolvedMode, ToolKind, type Principal } from '@toolsurface/proto';

/** The stored presentation modes by name, in the order the CLI lists them. */
export const MODE_NAMES: readonly ModeName[] = ['direct', 'discovery', 'unified', 'adaptive'];
/** The autonomy settings by name. */
export const AUTONOMY_NAMES: readonly AutonomyName[] = ['autonomous', 'supervised'];

const MODE_TO_PROTO: Record<ModeName, PresentationMode> = {
  direct: PresentationMode.PRESENTATION_MODE_DIRECT,
  discovery: PresentationMode.PRESENTATION_MODE_DISCOVERY,
  unified: PresentationMode.PRESENTATION_MODE_UNIFIED,
  adaptive: PresentationMode.PRESENTATION_MODE_ADAPTIVE,
};

/** Protobuf enum of a presentation mode name. */
export function modeToProto(mode: ModeName): PresentationMode {
  return MODE_TO_PROTO[mode];
}

/** Name of a protobuf presentation mode ("unspecified" for 0 or an unknown value). */
export function modeName(mode: PresentationMode): ModeName | 'unspecified' {
  return (Object.keys(MODE_TO_PROTO) as ModeName[]).find((k) => MODE_TO_PROTO[k] === mode) ?? 'unspecified';
}

/** Name of a protobuf resolved mode ("unspecified" for 0 or an unknown value). */
export function resolvedModeName(mode: ResolvedMode): ResolvedName | 'unspecified' {
  switch (mode) {
    case ResolvedMode.RESOLVED_MODE_DIRECT:
      return 'direct';
    case ResolvedMode.RESOLVED_MODE_DISCOVERY:
      return 'discovery';
    case ResolvedMode.RESOLVED_MODE_UNIFIED:
      return 'unified';
    default:
      return 'unspecified';
  }
}

/** Protobuf enum of an autonomy name. */
export function autonomyToProto(a: AutonomyName): Autonomy {
  return a === 'supervised' ? Autonomy.AUTONOMY_SUPERVISED : Autonomy.AUTONOMY_AUTONOMOUS;
}

/** Name of a protobuf autonomy ("unspecified" for 0 or an unknown value). */
export function autonomyName(a: Autonomy): AutonomyName | 'unspecified' {
  if (a === Autonomy.AUTONOMY_AUTONOMOUS) return 'autonomous';
  if (a === Autonomy.AUTONOMY_SUPERVISED) return 'supervised';
  return 'unspecified';
}

/** Label of a presented tool's kind: bound, meta or system. */
export function toolKindName(k: ToolKind): 'bound' | 'meta' | 'system' | 'unspecified' {
  if (k === ToolKind.TOOL_KIND_BOUND) return 'bound';
  if (k === ToolKind.TOOL_KIND_META) return 'meta';
  if (k === ToolKind.TOOL_KIND_SYSTEM) return 'system';
  return 'unspecified';
}

/** The protobuf Principal of a kind and ID. */
export function principalToProto(p: { kind: KindName; id: string }): Principal {
  return { kind: p.kind === 'gateway' ? PrincipalKind.PRINCIPAL_KIND_GATEWAY : PrincipalKind.PRINCIPAL_KIND_AGENT, id: p.id };
}

/** "agent:ID" / "gateway:ID" of a protobuf Principal ("?:ID" for an unspecified kind). */
export function principalFromProto(p: Principal | undefined): string {
  if (!p) return '?';
  const kind = p.kind === PrincipalKind.PRINCIPAL_KIND_AGENT ? 'agent' : p.kind === PrincipalKind.PRINCIPAL_KIND_GATEWAY ? 'gateway' : '?';
  return `${kind}:${p.id}`;
}
