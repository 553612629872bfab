import { Metadata, credentials, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import {
  DiscoveryServiceClient,
  DispatchServiceClient,
  PresentationServiceClient,
  PrincipalKind,
  SurfaceServiceClient,
  UnifiedServiceClient,
  type CallToolResponse,
  type Principal,
  type Surface,
} from '@toolsurface/proto';
import { bearerInterceptor } from '@toolsurface/platform';

/** gRPC clients of the four services with promise-returning calls. */
export class Clients {
  readonly surface: SurfaceServiceClient;
  readonly presentation: PresentationServiceClient;
  readonly dispatch: DispatchServiceClient;
  readonly discovery: DiscoveryServiceClient;
  readonly unified: UnifiedServiceClient;

  constructor(
    addr: { resolver: string; dispatch: string; discovery: string; unified: string },
    token?: string,
    creds: ChannelCredentials = credentials.createInsecure(),
  ) {
    const c = creds;
    const opts = {
      'grpc.max_send_message_length': 32 * 1024 * 1024,
      'grpc.max_receive_message_length': 32 * 1024 * 1024,
      ...(token ? { interceptors: [bearerInterceptor(token)] } : {}),
    };
    this.surface = new SurfaceServiceClient(addr.resolver, c, opts);
    this.presentation = new PresentationServiceClient(addr.resolver, c, opts);
    this.dispatch = new DispatchServiceClient(addr.dispatch, c, opts);
    this.discovery = new DiscoveryServiceClient(addr.discovery, c, opts);
    this.unified = new UnifiedServiceClient(addr.unified, c, opts);
  }

  close(): void {
    for (const c of [this.surface, this.presentation, this.dispatch, this.discovery, this.unified]) c.close();
  }

  /** Opens a surface for `agent:<id>` / `gateway:<id>`. */
  async open(principal: string, ttlSeconds = 0): Promise<Surface> {
    const res = await unaryCall<{ surface?: Surface }>(this.surface, 'openSurface', { principal: principalOf(principal), ttlSeconds });
    return res.surface!;
  }

  /** CallTool with arguments given as an object (or raw JSON text). */
  call(surfaceId: string, name: string, args: unknown = {}, metadata?: Metadata): Promise<CallToolResponse> {
    return unaryCall<CallToolResponse>(
      this.dispatch,
      'callTool',
      { surfaceId, name, argumentsJson: typeof args === 'string' ? args : JSON.stringify(args), callId: `call-${Math.random()}` },
      metadata,
    );
  }
}

/** `agent:x` or `gateway:x` as a protobuf Principal. */
export function principalOf(s: string): Principal {
  const [kind, id] = s.split(':');
  return { kind: kind === 'gateway' ? PrincipalKind.PRINCIPAL_KIND_GATEWAY : PrincipalKind.PRINCIPAL_KIND_AGENT, id };
}

/** Calls a unary method by name; rejects with the ServiceError. */
export function unaryCall<R>(client: object, method: string, req: unknown, metadata = new Metadata()): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    (client as Record<string, (...a: unknown[]) => void>)[method].call(
      client,
      req,
      metadata,
      { deadline: Date.now() + 30_000 },
      (err: ServiceError | null, res: R) => (err ? reject(err) : resolve(res)),
    );
  });
}

/** The ServiceError a call rejected with (fails when it resolved). */
export async function callError(p: Promise<unknown>): Promise<ServiceError & { reason: string }> {
  try {
    await p;
  } catch (e) {
    const se = e as ServiceError;
    return Object.assign(se, { reason: String(se.metadata?.get('toolsurface-reason')?.[0] ?? '') });
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** The text of an MCP content array given as JSON. */
export function textOf(contentJson: string): string {
  const content = JSON.parse(contentJson || '[]') as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('\n');
}

/** A unary method that sends and receives raw bytes (for requests no generated client would build). */
export function rawUnaryMethod(path: string) {
  const same = (b: Buffer) => b;
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: same,
    requestDeserialize: same,
    responseSerialize: same,
    responseDeserialize: same,
  } as const;
}
