import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startGrpcServer } from '@toolsurface/platform';
import { ensureNats, findFreePort, findFreePorts, NATS_INSTALL_HINT, parseNatsInfo, parseNatsUrl, StackError } from '@toolsurface/devkit';
import { choosePorts, type StackPorts } from './stack';

describe('parseNatsUrl', () => {
  it('reads host and port, 4222 by default, localhost as 127.0.0.1', () => {
    expect(parseNatsUrl('nats://127.0.0.1:4333')).toEqual({ host: '127.0.0.1', port: 4333 });
    expect(parseNatsUrl('nats://localhost')).toEqual({ host: '127.0.0.1', port: 4222 });
  });
  it('refuses other schemes and non-URLs with a message naming NATS_URL', () => {
    expect(() => parseNatsUrl('http://127.0.0.1:4222')).toThrow(/NATS_URL .* must start with nats:\/\//);
    expect(() => parseNatsUrl('127.0.0.1:4222')).toThrow(StackError);
  });
});

describe('parseNatsInfo', () => {
  it('reads the INFO greeting of a NATS server', () => {
    expect(parseNatsInfo('INFO {"version":"2.9.10","jetstream":true} \r\n')).toEqual({ version: '2.9.10', jetstream: true });
  });
  it('is undefined for anything else', () => {
    expect(parseNatsInfo('HTTP/1.1 400 Bad Request\r\n')).toBeUndefined();
    expect(parseNatsInfo('INFO {broken\r\n')).toBeUndefined();
    expect(parseNatsInfo('')).toBeUndefined();
  });
});

describe('ensureNats', () => {
  it('says how to install nats-server when none answers and the binary is missing', async () => {
    const url = `nats://127.0.0.1:${await findFreePort()}`;
    const err = await ensureNats({ url, binary: '/nonexistent/nats-server' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackError);
    expect((err as Error).message).toContain(`no NATS server answers at ${url}`);
    expect((err as Error).message).toContain('sudo apt-get install nats-server');
    expect((err as Error).message).toContain('NATS_URL');
    expect(NATS_INSTALL_HINT).toContain('https://github.com/nats-io/nats-server/releases');
  });

  it('refuses a port where something other than NATS answers', async () => {
    const server = createServer((s) => s.on('error', () => undefined).end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      await expect(ensureNats({ url: `nats://127.0.0.1:${port}` })).rejects.toThrow(/not NATS answers at 127.0.0.1:\d+/);
    } finally {
      server.close();
    }
  });

  it('uses a NATS server with JetStream that already answers, and does not stop it', async () => {
    const server = createServer((s) => s.on('error', () => undefined).write('INFO {"jetstream":true,"version":"2.9.10"}\r\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const nats = await ensureNats({ url: `nats://127.0.0.1:${port}`, binary: '/nonexistent/nats-server' });
      expect(nats.startedByUs).toBe(false);
      await nats.stop();
      expect(server.listening).toBe(true);
    } finally {
      server.close();
    }
  });

  it('refuses a running NATS server without JetStream', async () => {
    const server = createServer((s) => s.on('error', () => undefined).write('INFO {"version":"2.9.10"}\r\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      await expect(ensureNats({ url: `nats://127.0.0.1:${port}` })).rejects.toThrow(/without JetStream/);
    } finally {
      server.close();
    }
  });
});

describe('choosePorts (npm start on a machine where default ports are taken)', () => {
  /** Six free ports standing in for the defaults, so the test never touches 50051-50054, 3001 or 3100. */
  async function fakeDefaults(): Promise<StackPorts> {
    const [resolver, discovery, dispatch, unified, everythingHttp, mcp] = await findFreePorts(6);
    return { resolver, discovery, dispatch, unified, everythingHttp, mcp };
  }
  const opts = { natsUrl: 'nats://127.0.0.1:4222' };

  it('moves a service whose default port something else holds to a free port, and keeps the others', async () => {
    const defaults = await fakeDefaults();
    const squatter = createServer().listen(defaults.resolver, '127.0.0.1');
    await new Promise((r) => squatter.once('listening', r));
    try {
      const ports = await choosePorts(opts, defaults.everythingHttp, defaults);
      expect(ports.resolver).not.toBe(defaults.resolver);
      expect(ports).toEqual({ ...defaults, resolver: ports.resolver });
    } finally {
      squatter.close();
    }
  });

  it('refuses to start a second stack where a gRPC server already answers, and a given port that is taken', async () => {
    const defaults = await fakeDefaults();
    const running = await startGrpcServer('127.0.0.1', defaults.dispatch, []);
    try {
      await expect(choosePorts(opts, undefined, defaults)).rejects.toThrow(/gRPC server already answers on port \d+ for dispatch/);
    } finally {
      await running.stop(100);
    }
    const squatter = createServer().listen(defaults.unified, '127.0.0.1');
    await new Promise((r) => squatter.once('listening', r));
    try {
      await expect(choosePorts({ ...opts, ports: { unified: defaults.unified } }, undefined, defaults)).rejects.toThrow(
        /port \d+ for unified-mapper is already in use/,
      );
    } finally {
      squatter.close();
    }
  });

  it('takes a stack that answers slowly (a loaded machine) for a running one, not for a stranger', async () => {
    const defaults = await fakeDefaults();
    const running = await startGrpcServer('127.0.0.1', 0, []);
    // Holds each connection 1.5 s before passing it on, as a stack on a busy machine answered the
    // first call of a fresh channel; a 1 s probe then took it for a stranger and moved the port.
    const slow = createServer((sock) => {
      sock.on('error', () => {});
      setTimeout(() => {
        const up = connect(running.port, '127.0.0.1').on('error', () => sock.destroy());
        sock.pipe(up).pipe(sock);
      }, 1500);
    }).listen(defaults.dispatch, '127.0.0.1');
    await new Promise((r) => slow.once('listening', r));
    try {
      await expect(choosePorts(opts, undefined, defaults)).rejects.toThrow(/gRPC server already answers on port \d+ for dispatch/);
    } finally {
      slow.close();
      await running.stop(100);
    }
  }, 30_000);
});
