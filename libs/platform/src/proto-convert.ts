import {
  Autonomy as PbAutonomy,
  PresentationMode as PbMode,
  PrincipalKind as PbKind,
  ResolvedMode as PbResolved,
  ToolKind as PbToolKind,
  type Principal as PbPrincipal,
  type Tool as PbTool,
} from '@toolsurface/proto';
import {
  AppError,
  PRINCIPAL_ID_PATTERN,
  ReasonCode,
  type Autonomy,
  type McpTool,
  type PresentationMode,
  type PrincipalRef,
  type ResolvedMode,
} from '@toolsurface/core';

/** A principal from the wire; throws INVALID_REQUEST when missing, of no kind, or with a bad ID. */
export function principalFromProto(p: PbPrincipal | undefined): PrincipalRef {
  if (!p) throw new AppError(ReasonCode.INVALID_REQUEST, 'principal is required');
  const kind = p.kind === PbKind.PRINCIPAL_KIND_AGENT ? 'agent' : p.kind === PbKind.PRINCIPAL_KIND_GATEWAY ? 'gateway' : undefined;
  if (!kind) throw new AppError(ReasonCode.INVALID_REQUEST, 'principal.kind must be AGENT or GATEWAY');
  if (typeof p.id !== 'string' || !PRINCIPAL_ID_PATTERN.test(p.id)) {
    throw new AppError(ReasonCode.INVALID_REQUEST, 'principal.id must be 1-128 characters of letters, digits, "_" or "-"');
  }
  return { kind, id: p.id };
}

/** A principal for the wire. */
export function principalToProto(p: PrincipalRef): PbPrincipal {
  return { kind: p.kind === 'agent' ? PbKind.PRINCIPAL_KIND_AGENT : PbKind.PRINCIPAL_KIND_GATEWAY, id: p.id };
}

/** Presentation mode to the wire. */
export function modeToProto(m: PresentationMode): PbMode {
  switch (m) {
    case 'direct':
      return PbMode.PRESENTATION_MODE_DIRECT;
    case 'discovery':
      return PbMode.PRESENTATION_MODE_DISCOVERY;
    case 'unified':
      return PbMode.PRESENTATION_MODE_UNIFIED;
    case 'adaptive':
      return PbMode.PRESENTATION_MODE_ADAPTIVE;
  }
}

/** Presentation mode from the wire; UNSPECIFIED gives undefined, anything unknown throws INVALID_REQUEST. */
export function modeFromProto(m: PbMode): PresentationMode | undefined {
  switch (m) {
    case PbMode.PRESENTATION_MODE_UNSPECIFIED:
      return undefined;
    case PbMode.PRESENTATION_MODE_DIRECT:
      return 'direct';
    case PbMode.PRESENTATION_MODE_DISCOVERY:
      return 'discovery';
    case PbMode.PRESENTATION_MODE_UNIFIED:
      return 'unified';
    case PbMode.PRESENTATION_MODE_ADAPTIVE:
      return 'adaptive';
    default:
      throw new AppError(ReasonCode.INVALID_REQUEST, `unknown presentation mode ${String(m)}`);
  }
}

/** Resolved mode to the wire. */
export function resolvedModeToProto(m: ResolvedMode): PbResolved {
  return m === 'direct'
    ? PbResolved.RESOLVED_MODE_DIRECT
    : m === 'discovery'
      ? PbResolved.RESOLVED_MODE_DISCOVERY
      : PbResolved.RESOLVED_MODE_UNIFIED;
}

/** Autonomy to the wire. */
export function autonomyToProto(a: Autonomy): PbAutonomy {
  return a === 'supervised' ? PbAutonomy.AUTONOMY_SUPERVISED : PbAutonomy.AUTONOMY_AUTONOMOUS;
}

/** Autonomy from the wire; UNSPECIFIED gives undefined, anything unknown throws INVALID_REQUEST. */
export function autonomyFromProto(a: PbAutonomy): Autonomy | undefined {
  switch (a) {
    case PbAutonomy.AUTONOMY_UNSPECIFIED:
      return undefined;
    case PbAutonomy.AUTONOMY_AUTONOMOUS:
      return 'autonomous';
    case PbAutonomy.AUTONOMY_SUPERVISED:
      return 'supervised';
    default:
      throw new AppError(ReasonCode.INVALID_REQUEST, `unknown autonomy ${String(a)}`);
  }
}

/** An MCP tool for the wire; JSON-valued fields as JSON text. */
export function toolToProto(t: McpTool & { capability?: string; originalName?: string }, kind: 'bound' | 'meta' | 'system'): PbTool {
  return {
    name: t.name,
    title: t.title ?? '',
    description: t.description ?? '',
    inputSchemaJson: JSON.stringify(t.inputSchema ?? { type: 'object' }),
    outputSchemaJson: t.outputSchema ? JSON.stringify(t.outputSchema) : '',
    annotationsJson: t.annotations ? JSON.stringify(t.annotations) : '',
    kind: kind === 'bound' ? PbToolKind.TOOL_KIND_BOUND : kind === 'meta' ? PbToolKind.TOOL_KIND_META : PbToolKind.TOOL_KIND_SYSTEM,
    capability: t.capability ?? '',
    originalName: t.originalName && t.originalName !== t.name ? t.originalName : '',
  };
}
