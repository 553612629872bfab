import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultNatsBinary } from './nats-server';

describe('defaultNatsBinary', () => {
  const saved = { PATH: process.env.PATH, NATS_SERVER_BIN: process.env.NATS_SERVER_BIN };
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.NATS_SERVER_BIN === undefined) delete process.env.NATS_SERVER_BIN;
    else process.env.NATS_SERVER_BIN = saved.NATS_SERVER_BIN;
  });

  it('takes NATS_SERVER_BIN where it is set', () => {
    process.env.NATS_SERVER_BIN = '/opt/nats/bin/nats-server';
    expect(defaultNatsBinary()).toBe('/opt/nats/bin/nats-server');
  });

  it("finds Debian's /usr/sbin/nats-server when PATH lacks /usr/sbin", () => {
    delete process.env.NATS_SERVER_BIN;
    process.env.PATH = '/nonexistent';
    expect(defaultNatsBinary()).toBe(existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
  });
});
