import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status,
  type Client,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcServer, type GrpcServerHandle } from '@toolsurface/platform';
import { transportRefusals, type TransportRefusal } from './transport-refusals';

// A real grpc-js server and client on loopback: the refusals below are made by grpc-js itself.

const PATH = '/test.v1.EchoService/Echo';
const LIMIT = 1024;
const same = (b: Buffer) => b;
const METHOD = {
  path: PATH,
  requestStream: false,
  responseStream: false,
  requestSerialize: same,
  requestDeserialize: same,
  responseSerialize: same,
  responseDeserialize: same,
} as const;

let server: GrpcServerHandle;
let client: Client & { echo: (req: Buffer, md: Metadata, opts: object, cb: (err: ServiceError | null, res?: Buffer) => void) => void };
const refusals: TransportRefusal[] = [];
const handled: number[] = [];

beforeAll(async () => {
  server = await startGrpcServer(
    '127.0.0.1',
    0,
    [
      {
        name: 'test.v1.EchoService',
        definition: { echo: METHOD },
        implementation: {
          echo: (call: ServerUnaryCall<Buffer, Buffer>, cb: sendUnaryData<Buffer>) => {
            handled.push(call.request.length);
            // A refusal by the handler itself is the call path's to audit, not the transport's.
            if (call.request[0] === 0x21) cb({ code: status.INVALID_ARGUMENT, details: 'no' });
            else cb(null, call.request);
          },
        },
      },
    ],
    { 'grpc.max_receive_message_length': LIMIT, interceptors: [transportRefusals(PATH, (r) => refusals.push(r))] },
  );
  const Ctor = makeGenericClientConstructor({ echo: METHOD }, 'EchoService');
  client = new Ctor(`127.0.0.1:${server.port}`, credentials.createInsecure()) as unknown as typeof client;
});

afterAll(async () => {
  client?.close();
  await server?.stop(1000);
});

function echo(bytes: Buffer): Promise<{ err: ServiceError | null; res?: Buffer }> {
  const md = new Metadata();
  md.set('authorization', 'Bearer some-token');
  return new Promise((resolve) => client.echo(bytes, md, { deadline: Date.now() + 10_000 }, (err, res) => resolve({ err, res })));
}

describe('transportRefusals', () => {
  it('reports a request over the message limit, once, with its size and metadata; the handler never runs', async () => {
    const before = handled.length;
    const { err } = await echo(Buffer.alloc(LIMIT + 500, 0x61));
    expect(err?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ reason: 'REQUEST_TOO_LARGE', requestBytes: LIMIT + 500 });
    expect(refusals[0].metadata.get('authorization')).toEqual(['Bearer some-token']);
    expect(handled.length).toBe(before);
  });

  it('reports nothing for a request that reached the handler, answered or refused there', async () => {
    refusals.length = 0;
    const ok = await echo(Buffer.from('hello'));
    expect(ok.res?.toString()).toBe('hello');
    const no = await echo(Buffer.from('!refuse'));
    expect(no.err?.code).toBe(status.INVALID_ARGUMENT);
    expect(refusals).toEqual([]);
    expect(handled.slice(-2)).toEqual([5, 7]);
  });

  it('reports each oversize call of many at once', async () => {
    refusals.length = 0;
    const results = await Promise.all([1, 2, 3, 4, 5].map((k) => echo(Buffer.alloc(LIMIT + k, 0x62))));
    expect(results.map((r) => r.err?.code)).toEqual(results.map(() => status.RESOURCE_EXHAUSTED));
    expect(refusals.map((r) => r.requestBytes).sort()).toEqual([LIMIT + 1, LIMIT + 2, LIMIT + 3, LIMIT + 4, LIMIT + 5]);
  });
});
