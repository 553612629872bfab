import { AppError, ReasonCode, requirePrincipal } from '@toolsurface/core';
import {
  modeToProto,
  principalFromProto,
  principalToProto,
  resolvedModeToProto,
  autonomyToProto,
  callerOf,
  toolToProto,
  unary,
  type GrpcDeps,
} from '@toolsurface/platform';
import type { Surface, SurfaceServiceServer } from '@toolsurface/proto';
import type { OpenedSurface, SurfaceResolverService } from '../surface-resolver.service';

const SERVICE = 'toolsurface.v1.SurfaceService';

function toProto({ record, presented }: OpenedSurface): Surface {
  return {
    surfaceId: record.surfaceId,
    principal: principalToProto(record.principal),
    configuredMode: modeToProto(record.configuredMode),
    resolvedMode: resolvedModeToProto(record.resolvedMode),
    snapshotId: record.snapshotId,
    tools: presented.map((p) => toolToProto(p.tool, p.kind)),
    openedAtMs: record.openedAtMs,
    expiresAtMs: record.expiresAtMs,
    boundToolCount: record.boundToolCount,
    collisions: record.collisions,
    autonomy: autonomyToProto(record.autonomy),
    presentedTokens: record.presentedTokens,
  };
}

function surfaceId(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw new AppError(ReasonCode.INVALID_REQUEST, 'surface_id is required');
  return raw;
}

/** SurfaceService over the resolver. */
export function surfaceHandlers(resolver: SurfaceResolverService, deps: GrpcDeps): SurfaceServiceServer {
  return {
    openSurface: unary(
      SERVICE,
      'OpenSurface',
      async (req, info) => {
        const caller = callerOf(info.metadata, resolver.orchestrators());
        const principal = principalFromProto(req.principal);
        requirePrincipal(caller, principal);
        return { surface: toProto(await resolver.openSurface(principal, req.ttlSeconds ?? 0)) };
      },
      deps,
    ),
    getSurface: unary(
      SERVICE,
      'GetSurface',
      async (req, info) => {
        const caller = callerOf(info.metadata, resolver.orchestrators());
        return { surface: toProto(await resolver.getSurface(surfaceId(req.surfaceId), caller)) };
      },
      deps,
    ),
    closeSurface: unary(
      SERVICE,
      'CloseSurface',
      async (req, info) => {
        const caller = callerOf(info.metadata, resolver.orchestrators());
        await resolver.closeSurface(surfaceId(req.surfaceId), caller);
        return {};
      },
      deps,
    ),
  };
}
