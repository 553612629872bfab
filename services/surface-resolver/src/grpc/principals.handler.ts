import { mayActFor, requireAdmin, requirePrincipal, AppError, ReasonCode, type PrincipalKind } from '@toolsurface/core';
import {
  autonomyToProto,
  callerOf,
  modeToProto,
  principalFromProto,
  principalToProto,
  resolvedModeToProto,
  unary,
  type GrpcDeps,
} from '@toolsurface/platform';
import { PrincipalKind as ProtoKind, type PresentationServiceServer } from '@toolsurface/proto';
import { ADAPTIVE_THRESHOLD, effectiveConfig, listPrincipals, previewPresentation, TOKENIZER } from '../principal-directory';
import type { SurfaceResolverService } from '../surface-resolver.service';

const SERVICE = 'toolsurface.v1.PresentationService';

function kindFromProto(kind: number | undefined): PrincipalKind | undefined {
  switch (kind ?? ProtoKind.PRINCIPAL_KIND_UNSPECIFIED) {
    case ProtoKind.PRINCIPAL_KIND_UNSPECIFIED:
      return undefined;
    case ProtoKind.PRINCIPAL_KIND_AGENT:
      return 'agent';
    case ProtoKind.PRINCIPAL_KIND_GATEWAY:
      return 'gateway';
    default:
      throw new AppError(ReasonCode.INVALID_REQUEST, `kind ${kind} is not a principal kind (0: both, 1: agent, 2: gateway)`);
  }
}

/** ListPrincipals and GetEffectiveConfig: the read side of PresentationService that the portal and the CLI list from. */
export function principalHandlers(
  resolver: SurfaceResolverService,
  deps: GrpcDeps,
): Pick<PresentationServiceServer, 'listPrincipals' | 'getEffectiveConfig' | 'previewPresentation'> {
  return {
    listPrincipals: unary(
      SERVICE,
      'ListPrincipals',
      async (req, info) => {
        const caller = callerOf(info.metadata, resolver.orchestrators());
        // An orchestrator sees the principals it may act for; no oracle for the others.
        const principals = listPrincipals(resolver, kindFromProto(req.kind)).filter((s) => mayActFor(caller, s.principal));
        return {
          principals: principals.map((s) => ({
            principal: principalToProto(s.principal),
            configuredMode: modeToProto(s.configuredMode),
            resolvedMode: resolvedModeToProto(s.resolvedMode),
            autonomy: autonomyToProto(s.autonomy),
            capabilities: s.capabilities,
            boundToolCount: s.boundToolCount,
            adaptiveThreshold: ADAPTIVE_THRESHOLD,
            inConfig: s.inConfig,
          })),
        };
      },
      deps,
    ),
    previewPresentation: unary(
      SERVICE,
      'PreviewPresentation',
      async (req, info) => {
        const p = principalFromProto(req.principal);
        requirePrincipal(callerOf(info.metadata, resolver.orchestrators()), p);
        const r = previewPresentation(resolver, p);
        return {
          principal: principalToProto(p),
          tokenizer: TOKENIZER,
          boundToolCount: r.boundToolCount,
          modes: r.modes.map((m) => ({ mode: resolvedModeToProto(m.mode), toolNames: m.toolNames, tokens: m.tokens })),
          hidden: r.hidden,
          collisions: r.collisions,
        };
      },
      deps,
    ),
    getEffectiveConfig: unary(
      SERVICE,
      'GetEffectiveConfig',
      async (_req, info) => {
        requireAdmin(callerOf(info.metadata, resolver.orchestrators()));
        const c = effectiveConfig(resolver);
        return { configHash: c.hash, appliedAtMs: c.appliedAtMs, configJson: JSON.stringify(c.config) };
      },
      deps,
    ),
  };
}
