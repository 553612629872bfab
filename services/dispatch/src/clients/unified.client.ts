import type { ChannelCredentials } from '@grpc/grpc-js';
import type { Tracer } from '@opentelemetry/api';
import { callUnary, CLIENT_OPTIONS } from '@toolsurface/platform';
import { MapRequestRequest, UnifiedServiceClient, type MapRequestResponse } from '@toolsurface/proto';
import type { UnifiedPort } from '../domain/ports';

const SERVICE = 'toolsurface.v1.UnifiedService';

/** UnifiedService over gRPC: deadline, trace context and reason mapping through callUnary. */
export class UnifiedClient implements UnifiedPort {
  private readonly client: UnifiedServiceClient;

  constructor(
    address: string,
    private readonly tracer: Tracer,
    private readonly timeoutMs: number,
    credentials: ChannelCredentials,
  ) {
    this.client = new UnifiedServiceClient(address, credentials, CLIENT_OPTIONS);
  }

  async mapRequest(req: { snapshotId: string; request: string; contextJson: string; preferredTools: string[] }, deadline: number) {
    const res = await callUnary<MapRequestRequest, MapRequestResponse>(
      this.client,
      SERVICE,
      'MapRequest',
      this.client.mapRequest,
      MapRequestRequest.fromPartial(req),
      this.tracer,
      this.timeoutMs,
      deadline,
    );
    return { decision: res.decision, metadata: res.metadata, explanation: res.explanation };
  }

  close(): void {
    this.client.close();
  }
}
