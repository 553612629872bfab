import {
  credentials,
  makeGenericClientConstructor,
  Server,
  ServerCredentials,
  type Client,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_OPTIONS } from './grpc';

// Calls from dispatch to discovery and unified-mapper spread over every replica a name resolves
// to (a headless Service in deploy/k8s), on real grpc-js servers and clients. Two servers on
// two ports stand for two pods; an `ipv4:` target lists both, as DNS would.

const raw = (b: Buffer): Buffer => b;
const DEFINITION: ServiceDefinition = {
  whoami: {
    path: '/test.Balance/WhoAmI',
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
};
const BalanceClient = makeGenericClientConstructor(DEFINITION, 'Balance');
type WhoAmI = Client & { whoami(req: Buffer, cb: (err: ServiceError | null, res?: Buffer) => void): void };

const servers: Server[] = [];
const ports: number[] = [];

beforeAll(async () => {
  for (const name of ['replica-a', 'replica-b']) {
    const server = new Server();
    server.addService(DEFINITION, {
      whoami: (_call: ServerUnaryCall<Buffer, Buffer>, cb: sendUnaryData<Buffer>) => cb(null, Buffer.from(name)),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    servers.push(server);
    ports.push(port);
  }
});

afterAll(() => {
  for (const s of servers) s.forceShutdown();
});

/** Which replica answered each of `n` sequential calls. */
async function answers(options: object, n: number): Promise<string[]> {
  const client = new BalanceClient(
    `ipv4:127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}`,
    credentials.createInsecure(),
    options,
  ) as unknown as WhoAmI;
  const call = (): Promise<string> =>
    new Promise<string>((resolve, reject) => client.whoami(Buffer.alloc(0), (err, res) => (err ? reject(err) : resolve(res!.toString()))));
  try {
    // The first call opens the channel; round_robin connects to every address meanwhile, and a
    // loaded machine may take a moment for the second.
    await call();
    await new Promise((r) => setTimeout(r, 1000));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(await call());
    return out;
  } finally {
    client.close();
  }
}

describe('CLIENT_OPTIONS', () => {
  it('spreads calls over every address of the target (round_robin)', async () => {
    const seen = await answers(CLIENT_OPTIONS, 20);
    // both replicas answer, and neither takes fewer than a quarter of the calls
    expect(new Set(seen)).toEqual(new Set(['replica-a', 'replica-b']));
    expect(seen.filter((s) => s === 'replica-a').length).toBeGreaterThanOrEqual(5);
    expect(seen.filter((s) => s === 'replica-b').length).toBeGreaterThanOrEqual(5);
  });

  it('differs from grpc-js default, which pins every call to one address (pick_first)', async () => {
    const rest: Record<string, unknown> = { ...CLIENT_OPTIONS };
    delete rest['grpc.service_config'];
    expect(new Set(await answers(rest, 20)).size).toBe(1);
  });
});
