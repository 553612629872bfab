import type { CallOptions, Client, Metadata, ServiceError } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import type { Autonomy, PresentationMode, PrincipalRef, VIA_PORTAL } from '@toolsurface/core';
import { bearerInterceptor, callUnary, CLIENT_OPTIONS, channelCredentials, type TlsFiles } from '@toolsurface/platform';
import {
  DispatchServiceClient,
  PresentationServiceClient,
  SurfaceServiceClient,
  type CallToolResponse,
  type Presentation,
  type PrincipalSummary,
  type PreviewPresentationResponse,
  type Surface,
} from '@toolsurface/proto';
import { autonomyToProto, modeToProto, principalToProto } from './enums';

/** Where the gateway's front doors are: surface-resolver and dispatch, each host:port. */
export interface GatewayAddresses {
  resolver: string;
  dispatch: string;
}

/** Deadlines of GatewayClient calls, ms. */
export interface GatewayTimeouts {
  /** Surface and presentation calls (default 10 000). */
  controlMs?: number;
  /** CallTool (default 60 000: a tool may be slow). */
  callMs?: number;
}

const tracer = trace.getTracer('toolsurface-cli');

/** The last overload of a generated unary method (the one with metadata and options). */
type UnaryFn<Req, Res> = (
  req: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => unknown;

/**
 * The one small client of the gateway for people and scripts: SurfaceService and
 * PresentationService at surface-resolver, DispatchService at dispatch. Every method has a
 * deadline; a failed call rejects with an AppError carrying the reason code (platform's callUnary).
 */
export class GatewayClient {
  private readonly surfaces: InstanceType<typeof SurfaceServiceClient>;
  private readonly presentation: InstanceType<typeof PresentationServiceClient>;
  private readonly dispatch: InstanceType<typeof DispatchServiceClient>;
  private readonly controlMs: number;
  private readonly callMs: number;

  constructor(
    readonly addresses: GatewayAddresses,
    timeouts: GatewayTimeouts = {},
    /** Bearer token of the orchestrator, where the gateway requires one. */
    token?: string,
    /** TLS (caFile) and mutual TLS (certFile, keyFile) towards the gateway; plaintext when absent. */
    tls?: TlsFiles,
    /** "portal": the changes are a person's through the portal (presentation.changed's actor "portal:<orchestrator>"). */
    via?: typeof VIA_PORTAL,
  ) {
    const options = token ? { ...CLIENT_OPTIONS, interceptors: [bearerInterceptor(token, via)] } : CLIENT_OPTIONS;
    const creds = channelCredentials(tls);
    this.surfaces = new SurfaceServiceClient(addresses.resolver, creds, options);
    this.presentation = new PresentationServiceClient(addresses.resolver, creds, options);
    this.dispatch = new DispatchServiceClient(addresses.dispatch, creds, options);
    this.controlMs = timeouts.controlMs ?? 10_000;
    this.callMs = timeouts.callMs ?? 60_000;
  }

  /** Opens a surface for `principal` (ttlSeconds 0: the server default); resolves the Surface. */
  async openSurface(principal: PrincipalRef, ttlSeconds = 0): Promise<Surface> {
    const res = await this.unary(this.surfaces, 'SurfaceService', 'OpenSurface', this.surfaces.openSurface, {
      principal: principalToProto(principal),
      ttlSeconds,
    });
    return requireField(res.surface, 'OpenSurface');
  }

  /** Reads an open surface; rejects SURFACE_NOT_FOUND or SURFACE_EXPIRED. */
  async getSurface(surfaceId: string): Promise<Surface> {
    const res = await this.unary(this.surfaces, 'SurfaceService', 'GetSurface', this.surfaces.getSurface, { surfaceId });
    return requireField(res.surface, 'GetSurface');
  }

  /** Closes a surface. */
  async closeSurface(surfaceId: string): Promise<void> {
    await this.unary(this.surfaces, 'SurfaceService', 'CloseSurface', this.surfaces.closeSurface, { surfaceId });
  }

  /** A principal's stored mode and autonomy. */
  async getPresentation(principal: PrincipalRef): Promise<Presentation> {
    const res = await this.unary(this.presentation, 'PresentationService', 'GetPresentation', this.presentation.getPresentation, {
      principal: principalToProto(principal),
    });
    return requireField(res.presentation, 'GetPresentation');
  }

  /**
   * Stores a principal's mode and/or autonomy (an omitted one is kept); resolves the stored result.
   * With `expected`, only if the stored mode and autonomy are still those: else rejects PRESENTATION_CHANGED.
   */
  async setPresentation(
    principal: PrincipalRef,
    mode?: PresentationMode,
    autonomy?: Autonomy,
    expected: { mode?: PresentationMode; autonomy?: Autonomy } = {},
  ): Promise<Presentation> {
    const res = await this.unary(this.presentation, 'PresentationService', 'SetPresentation', this.presentation.setPresentation, {
      principal: principalToProto(principal),
      mode: mode ? modeToProto(mode) : 0,
      autonomy: autonomy ? autonomyToProto(autonomy) : 0,
      expectedMode: expected.mode ? modeToProto(expected.mode) : 0,
      expectedAutonomy: expected.autonomy ? autonomyToProto(expected.autonomy) : 0,
    });
    return requireField(res.presentation, 'SetPresentation');
  }

  /** The capabilities bound to a principal. */
  async getBindings(principal: PrincipalRef): Promise<string[]> {
    const res = await this.unary(this.presentation, 'PresentationService', 'GetBindings', this.presentation.getBindings, {
      principal: principalToProto(principal),
    });
    return res.capabilities;
  }

  /** Replaces the capabilities bound to a principal; open surfaces keep their snapshot. */
  async setBindings(principal: PrincipalRef, capabilities: string[]): Promise<string[]> {
    const res = await this.unary(this.presentation, 'PresentationService', 'SetBindings', this.presentation.setBindings, {
      principal: principalToProto(principal),
      capabilities,
    });
    return res.capabilities;
  }

  /** Every principal the caller may act for, with its settings and the mode it resolves to now; `kind` narrows the list. */
  async listPrincipals(kind?: PrincipalRef['kind']): Promise<PrincipalSummary[]> {
    const res = await this.unary(this.presentation, 'PresentationService', 'ListPrincipals', this.presentation.listPrincipals, {
      kind: kind ? principalToProto({ kind, id: 'x' }).kind : 0,
    });
    return res.principals;
  }

  /** What the model would see in each resolved mode if a surface were opened now: tool names and token counts. */
  async previewPresentation(principal: PrincipalRef): Promise<PreviewPresentationResponse> {
    return this.unary(this.presentation, 'PresentationService', 'PreviewPresentation', this.presentation.previewPresentation, {
      principal: principalToProto(principal),
    });
  }

  /** The configuration in effect (admin only), credentials left out; `config` is the parsed config_json. */
  async getEffectiveConfig(): Promise<{ configHash: string; appliedAtMs: number; config: Record<string, unknown> }> {
    const res = await this.unary(this.presentation, 'PresentationService', 'GetEffectiveConfig', this.presentation.getEffectiveConfig, {});
    return { configHash: res.configHash, appliedAtMs: res.appliedAtMs, config: JSON.parse(res.configJson) as Record<string, unknown> };
  }

  /**
   * Calls a tool as the model would (any presented name, meta-tools included). A refusal the model
   * can recover from resolves with `isError` and a reason; a caller error rejects with an AppError.
   */
  callTool(surfaceId: string, name: string, args: Record<string, unknown> = {}, callId = ''): Promise<CallToolResponse> {
    return this.unary(
      this.dispatch,
      'DispatchService',
      'CallTool',
      this.dispatch.callTool,
      { surfaceId, name, argumentsJson: JSON.stringify(args), callId },
      this.callMs,
    );
  }

  /** Closes the channels. */
  close(): void {
    this.surfaces.close();
    this.presentation.close();
    this.dispatch.close();
  }

  private unary<Req, Res>(
    client: Client,
    service: string,
    method: string,
    fn: UnaryFn<Req, Res>,
    req: Req,
    timeoutMs = this.controlMs,
  ): Promise<Res> {
    return callUnary<Req, Res>(client, service, method, fn as never, req, tracer, timeoutMs);
  }
}

/** Throws when a response lacks the message it must carry (a server bug, not a caller mistake). */
function requireField<T>(value: T | undefined, rpc: string): T {
  if (value === undefined) throw new Error(`${rpc} answered without its result`);
  return value;
}
