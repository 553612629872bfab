import { connect, createServer, type Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Asks the OS for one free TCP port on `host` (binds port 0, reads it, releases it). */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await findFreePorts(1, host);
  return port;
}

/** Asks the OS for `count` distinct free TCP ports on `host`, holding all of them until every one is picked. */
export async function findFreePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error(`no TCP address for a socket on ${host}`);
      ports.push(address.port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/**
 * Connects to host:port and resolves the first bytes the peer sends within `timeoutMs` ('' when it
 * accepted but sent nothing), or undefined when the connection was refused or timed out.
 */
export function probeTcp(host: string, port: number, timeoutMs = 500): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let connected = false;
    let received = '';
    const finish = (value: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(connected ? received : undefined), timeoutMs);
    socket.once('connect', () => {
      connected = true;
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.includes('\n')) finish(received);
    });
    socket.once('error', () => finish(connected ? received : undefined));
    socket.once('close', () => finish(connected ? received : undefined));
  });
}

/** True when a TCP connection to host:port is accepted within `timeoutMs` (default 500 ms). */
export function isPortOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => done(false), timeoutMs);
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Options of `waitForPort`. */
export interface WaitForPortOptions {
  /** Give up after this many ms (default 30 000). */
  timeoutMs?: number;
  /** Poll interval in ms (default 100). */
  intervalMs?: number;
  /** Called before every attempt; throw from it to stop waiting (e.g. the process that should listen died). */
  check?: () => void;
}

/** Waits until host:port accepts TCP connections; rejects with an Error after `timeoutMs` or when `check` throws. */
export async function waitForPort(host: string, port: number, opts: WaitForPortOptions = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    opts.check?.();
    if (await isPortOpen(host, port, 500)) return;
    if (Date.now() >= deadline) throw new Error(`nothing accepted connections on ${host}:${port} within ${opts.timeoutMs ?? 30_000} ms`);
    await sleep(opts.intervalMs ?? 100);
  }
}
