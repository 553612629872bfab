import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, envNats } from './nats';

// NATS is the gateway's trust root: services must be able to authenticate to a NATS that requires it.

let server: ChildProcess;
let url: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  url = `nats://127.0.0.1:${port}`;
  server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '--user', 'dispatch', '--pass', 's3cret-pass'], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const nc = await connectNats(url, 'probe', { user: 'dispatch', pass: 's3cret-pass' });
      await nc.close();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}, 20_000);

afterAll(() => {
  server?.kill();
});

describe('connectNats against a NATS that requires authentication', () => {
  it('connects with the configured user and password', async () => {
    const nc = await connectNats(url, 'test', envNats({ NATS_USER: 'dispatch', NATS_PASSWORD: 's3cret-pass' }));
    expect(nc.isClosed()).toBe(false);
    await nc.close();
  });

  it('is refused without credentials and with a wrong password', async () => {
    await expect(connectNats(url, 'test')).rejects.toThrow(/Authorization Violation/i);
    await expect(connectNats(url, 'test', { user: 'dispatch', pass: 'wrong' })).rejects.toThrow(/Authorization Violation/i);
  });

  it('reads NATS_* variables and refuses incomplete pairs', () => {
    expect(envNats({})).toEqual({});
    expect(envNats({ NATS_TOKEN: 't', NATS_CREDS_FILE: '/etc/nats/dispatch.creds', NATS_TLS_CA_FILE: '/etc/nats/ca.pem' })).toEqual({
      token: 't',
      credsFile: '/etc/nats/dispatch.creds',
      tls: { caFile: '/etc/nats/ca.pem' },
    });
    expect(() => envNats({ NATS_PASSWORD: 'x' })).toThrow('NATS_PASSWORD needs NATS_USER');
    expect(() => envNats({ NATS_TLS_CERT_FILE: '/c.pem' })).toThrow('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE must be set together');
  });
});
