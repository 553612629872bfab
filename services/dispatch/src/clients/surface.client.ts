import type { ChannelCredentials } from '@grpc/grpc-js';
import type { Tracer } from '@opentelemetry/api';
import type { PrincipalRef } from '@toolsurface/core';
import { bearerInterceptor, callUnary, CLIENT_OPTIONS, principalToProto } from '@toolsurface/platform';
import {
  CloseSurfaceRequest,
  GetSurfaceRequest,
  OpenSurfaceRequest,
  SurfaceServiceClient,
  type CloseSurfaceResponse,
  type GetSurfaceResponse,
  type OpenSurfaceResponse,
  type Surface,
} from '@toolsurface/proto';

const SERVICE = 'toolsurface.v1.SurfaceService';

/**
 * SurfaceService over gRPC for the MCP endpoint: a session opens, reads and closes its surface at
 * surface-resolver. `token` is the orchestrator bearer token sent where orchestrators are configured.
 */
export class SurfaceClient {
  private readonly client: SurfaceServiceClient;

  constructor(
    address: string,
    private readonly tracer: Tracer,
    private readonly timeoutMs: number,
    credentials: ChannelCredentials,
    token = '',
  ) {
    this.client = new SurfaceServiceClient(address, credentials, {
      ...CLIENT_OPTIONS,
      ...(token ? { interceptors: [bearerInterceptor(token)] } : {}),
    });
  }

  async open(principal: PrincipalRef): Promise<Surface> {
    const res = await callUnary<OpenSurfaceRequest, OpenSurfaceResponse>(
      this.client,
      SERVICE,
      'OpenSurface',
      this.client.openSurface,
      OpenSurfaceRequest.fromPartial({ principal: principalToProto(principal) }),
      this.tracer,
      this.timeoutMs,
    );
    return res.surface!;
  }

  async get(surfaceId: string): Promise<Surface> {
    const res = await callUnary<GetSurfaceRequest, GetSurfaceResponse>(
      this.client,
      SERVICE,
      'GetSurface',
      this.client.getSurface,
      GetSurfaceRequest.fromPartial({ surfaceId }),
      this.tracer,
      this.timeoutMs,
    );
    return res.surface!;
  }

  async close(surfaceId: string): Promise<void> {
    await callUnary<CloseSurfaceRequest, CloseSurfaceResponse>(
      this.client,
      SERVICE,
      'CloseSurface',
      this.client.closeSurface,
      CloseSurfaceRequest.fromPartial({ surfaceId }),
      this.tracer,
      this.timeoutMs,
    );
  }

  closeClient(): void {
    this.client.close();
  }
}
