import { AppError, ReasonCode, parseConfig, requireAdmin, requirePrincipal } from '@toolsurface/core';
import type { Metadata } from '@grpc/grpc-js';
import {
  actorOfCall,
  autonomyFromProto,
  autonomyToProto,
  callerOf,
  modeFromProto,
  modeToProto,
  principalFromProto,
  principalToProto,
  unary,
  type GrpcDeps,
} from '@toolsurface/platform';
import type { PresentationServiceServer } from '@toolsurface/proto';
import type { SurfaceResolverService } from '../surface-resolver.service';

const SERVICE = 'toolsurface.v1.PresentationService';
/** Largest config text ApplyConfig accepts, bytes. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The admin caller's actor (who makes the change, for presentation.changed); refuses a caller that is not an admin. */
function adminActor(metadata: Metadata, resolver: SurfaceResolverService): string {
  const caller = callerOf(metadata, resolver.orchestrators());
  requireAdmin(caller);
  return actorOfCall(metadata, caller);
}

/** PresentationService over the resolver. `configDir` resolves relative paths of applied configs. */
export function presentationHandlers(
  resolver: SurfaceResolverService,
  configDir: string,
  allowCapabilityChanges: boolean,
  deps: GrpcDeps,
): Omit<PresentationServiceServer, 'listPrincipals' | 'getEffectiveConfig' | 'previewPresentation'> {
  return {
    getPresentation: unary(
      SERVICE,
      'GetPresentation',
      async (req, info) => {
        const p = principalFromProto(req.principal);
        requirePrincipal(callerOf(info.metadata, resolver.orchestrators()), p);
        const r = resolver.presentation(p);
        return { presentation: { principal: principalToProto(p), mode: modeToProto(r.mode), autonomy: autonomyToProto(r.autonomy) } };
      },
      deps,
    ),
    setPresentation: unary(
      SERVICE,
      'SetPresentation',
      async (req, info) => {
        const actor = adminActor(info.metadata, resolver);
        const p = principalFromProto(req.principal);
        const r = await resolver.setPresentation(p, modeFromProto(req.mode), autonomyFromProto(req.autonomy), actor, {
          mode: named('expected_mode', () => (req.expectedMode === undefined ? undefined : modeFromProto(req.expectedMode))),
          autonomy: named('expected_autonomy', () =>
            req.expectedAutonomy === undefined ? undefined : autonomyFromProto(req.expectedAutonomy),
          ),
        });
        return { presentation: { principal: principalToProto(p), mode: modeToProto(r.mode), autonomy: autonomyToProto(r.autonomy) } };
      },
      deps,
    ),
    getBindings: unary(
      SERVICE,
      'GetBindings',
      async (req, info) => {
        const p = principalFromProto(req.principal);
        requirePrincipal(callerOf(info.metadata, resolver.orchestrators()), p);
        return { principal: principalToProto(p), capabilities: resolver.bindings(p) };
      },
      deps,
    ),
    setBindings: unary(
      SERVICE,
      'SetBindings',
      async (req, info) => {
        const actor = adminActor(info.metadata, resolver);
        const p = principalFromProto(req.principal);
        if (!Array.isArray(req.capabilities)) throw new AppError(ReasonCode.INVALID_REQUEST, 'capabilities must be a list');
        return { principal: principalToProto(p), capabilities: await resolver.setBindings(p, req.capabilities, actor) };
      },
      deps,
    ),
    applyConfig: unary(
      SERVICE,
      'ApplyConfig',
      async (req, info) => {
        const actor = adminActor(info.metadata, resolver);
        if (typeof req.configYaml !== 'string' || req.configYaml.trim() === '')
          throw new AppError(ReasonCode.INVALID_REQUEST, 'config_yaml is required');
        if (Buffer.byteLength(req.configYaml) > MAX_CONFIG_BYTES)
          throw new AppError(ReasonCode.INVALID_REQUEST, `config_yaml exceeds ${MAX_CONFIG_BYTES} bytes`);
        const cfg = parseConfig(req.configYaml, configDir);
        // Checked against the config as it stands just before the write (a racing apply: CONFIG_CONFLICT).
        await resolver.applyConfig(
          cfg,
          () => {
            const changed = resolver.capabilitiesChangedBy(cfg);
            // Capabilities are commands dispatch runs: over an unauthenticated API they stay as the file set them.
            if (changed.length > 0 && !allowCapabilityChanges) {
              throw new AppError(
                ReasonCode.PERMISSION_DENIED,
                `ApplyConfig may not add, change or remove capabilities (${changed.slice(0, 5).join(', ')}); change the config file, or start surface-resolver with ALLOW_CAPABILITY_CHANGES=true`,
              );
            }
            // Credentials come from the config file only: an API call cannot mint itself a token.
            if (resolver.orchestratorsChangedBy(cfg) || resolver.mcpKeysChangedBy(cfg)) {
              throw new AppError(
                ReasonCode.PERMISSION_DENIED,
                'ApplyConfig may not change orchestrators or MCP keys; change the config file and restart surface-resolver',
              );
            }
          },
          actor,
        );
        return { configHash: cfg.hash, principals: cfg.principals.length, capabilities: Object.keys(cfg.capabilities).length };
      },
      deps,
    ),
  };
}

/** Decodes a field, naming it in the INVALID_REQUEST of a bad value (the expected_* fields share their enum with mode and autonomy). */
function named<T>(field: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, `${field}: ${e.message}`, { cause: e });
    throw e;
  }
}
