import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findFreePort, findFreePorts, isPortOpen, probeTcp, waitForPort } from './net';

/** A TCP server on a free port that greets each client with `greeting` (nothing when undefined). */
async function listen(greeting?: string) {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    if (greeting !== undefined) socket.write(greeting);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('ports', () => {
  it('findFreePorts gives distinct ports nobody listens on', async () => {
    const ports = await findFreePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const p of ports) expect(await isPortOpen('127.0.0.1', p)).toBe(false);
    expect(await findFreePort()).toBeGreaterThan(0);
  });

  it('isPortOpen and probeTcp see a listener and its greeting', async () => {
    const s = await listen('INFO {"jetstream":true}\r\n');
    try {
      expect(await isPortOpen('127.0.0.1', s.port)).toBe(true);
      expect(await probeTcp('127.0.0.1', s.port)).toBe('INFO {"jetstream":true}\r\n');
    } finally {
      await s.close();
    }
    expect(await probeTcp('127.0.0.1', s.port)).toBeUndefined();
  });

  it('probeTcp resolves "" for a listener that says nothing', async () => {
    const s = await listen();
    try {
      expect(await probeTcp('127.0.0.1', s.port, 200)).toBe('');
    } finally {
      await s.close();
    }
  });

  it('waitForPort resolves once something listens and stops at once when check throws', async () => {
    const port = await findFreePort();
    const server = createServer();
    setTimeout(() => server.listen(port, '127.0.0.1'), 300);
    await waitForPort('127.0.0.1', port, { timeoutMs: 5000, intervalMs: 50 });
    server.close();
    const t = Date.now();
    await expect(
      waitForPort('127.0.0.1', await findFreePort(), {
        timeoutMs: 10_000,
        check: () => {
          throw new Error('the server exited with code 1');
        },
      }),
    ).rejects.toThrow('the server exited with code 1');
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it('waitForPort rejects after its timeout', async () => {
    await expect(waitForPort('127.0.0.1', await findFreePort(), { timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(/within 300 ms/);
  });
});
