import type { ChannelCredentials } from '@grpc/grpc-js';
import type { Tracer } from '@opentelemetry/api';
import type { McpTool } from '@toolsurface/core';
import { callUnary, CLIENT_OPTIONS } from '@toolsurface/platform';
import {
  DiscoveryServiceClient,
  DiscoverToolsRequest,
  GetToolSchemaRequest,
  type DiscoverToolsResponse,
  type GetToolSchemaResponse,
} from '@toolsurface/proto';
import type { DiscoveryPort, DiscoveryHit } from '../domain/ports';

const SERVICE = 'toolsurface.v1.DiscoveryService';

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** DiscoveryService over gRPC: deadline, trace context and reason mapping through callUnary. */
export class DiscoveryClient implements DiscoveryPort {
  private readonly client: DiscoveryServiceClient;

  constructor(
    address: string,
    private readonly tracer: Tracer,
    private readonly timeoutMs: number,
    credentials: ChannelCredentials,
  ) {
    this.client = new DiscoveryServiceClient(address, credentials, CLIENT_OPTIONS);
  }

  async discoverTools(req: { snapshotId: string; query: string; limit: number }, deadline: number) {
    const res = await callUnary<DiscoverToolsRequest, DiscoverToolsResponse>(
      this.client,
      SERVICE,
      'DiscoverTools',
      this.client.discoverTools,
      DiscoverToolsRequest.fromPartial(req),
      this.tracer,
      this.timeoutMs,
      deadline,
    );
    const hits: DiscoveryHit[] = res.hits.map((h) => ({ name: h.name, description: h.description, score: h.score }));
    return { hits, totalTools: res.totalTools, emptyReason: res.emptyReason, hint: res.hint };
  }

  async getToolSchema(req: { snapshotId: string; name: string }, deadline: number): Promise<McpTool> {
    const res = await callUnary<GetToolSchemaRequest, GetToolSchemaResponse>(
      this.client,
      SERVICE,
      'GetToolSchema',
      this.client.getToolSchema,
      GetToolSchemaRequest.fromPartial(req),
      this.tracer,
      this.timeoutMs,
      deadline,
    );
    const t = res.tool;
    const tool: McpTool = { name: t?.name ?? req.name, inputSchema: parseJsonObject(t?.inputSchemaJson ?? '') ?? { type: 'object' } };
    if (t?.title) tool.title = t.title;
    if (t?.description) tool.description = t.description;
    const output = parseJsonObject(t?.outputSchemaJson ?? '');
    if (output) tool.outputSchema = output;
    const annotations = parseJsonObject(t?.annotationsJson ?? '');
    if (annotations) tool.annotations = annotations;
    return tool;
  }

  close(): void {
    this.client.close();
  }
}
