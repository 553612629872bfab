import { describe, expect, it } from 'vitest';
import { mcpKeyFor, readMcpKeys, tokenDigest } from './auth';
import { parseConfig } from './config-file';

const key = { id: 'laptop', keySha256: tokenDigest('key-a-0123456789'), principals: ['agent:a-*'] };
const other = { id: 'ci', keySha256: tokenDigest('key-b-0123456789'), principals: ['gateway:ci'] };

describe('MCP keys', () => {
  it('admit only their own principals', () => {
    const keys = [key, other];
    expect(mcpKeyFor('Bearer key-a-0123456789', keys, { kind: 'agent', id: 'a-1' })?.id).toBe('laptop');
    expect(mcpKeyFor('bearer key-b-0123456789', keys, { kind: 'gateway', id: 'ci' })?.id).toBe('ci');
    // Another principal's key, a wrong key, no key, a malformed header.
    expect(mcpKeyFor('Bearer key-b-0123456789', keys, { kind: 'agent', id: 'a-1' })).toBeUndefined();
    expect(mcpKeyFor('Bearer key-a-0123456789', keys, { kind: 'agent', id: 'b-1' })).toBeUndefined();
    expect(mcpKeyFor('Bearer nope', keys, { kind: 'agent', id: 'a-1' })).toBeUndefined();
    expect(mcpKeyFor(undefined, keys, { kind: 'agent', id: 'a-1' })).toBeUndefined();
    expect(mcpKeyFor('Basic key-a-0123456789', keys, { kind: 'agent', id: 'a-1' })).toBeUndefined();
    expect(mcpKeyFor('Bearer key a', keys, { kind: 'agent', id: 'a-1' })).toBeUndefined();
  });

  it('read a stored record failing closed', () => {
    expect(readMcpKeys(undefined)).toEqual([]);
    expect(readMcpKeys([key])).toEqual([key]);
    expect(readMcpKeys({ not: 'a list' })).toBeUndefined();
    expect(readMcpKeys([{ ...key, keySha256: 'abc' }])).toBeUndefined();
    expect(readMcpKeys([{ ...key, principals: [1] }])).toBeUndefined();
  });

  it('are validated in the config file, and a config without them keeps its hash', () => {
    const base = 'capabilities: {}\nprincipals: [{ kind: agent, id: a-1 }]\n';
    const digest = tokenDigest('key-a-0123456789');
    const cfg = parseConfig(`${base}mcp_keys:\n  - { id: laptop, key_sha256: "${digest}", principals: ["agent:a-1"] }\n`, '/tmp');
    expect(cfg.mcpKeys).toEqual([{ id: 'laptop', keySha256: digest, principals: ['agent:a-1'] }]);
    expect(parseConfig(base, '/tmp').mcpKeys).toEqual([]);
    expect(parseConfig(base, '/tmp').hash).not.toBe(cfg.hash);
    expect(() => parseConfig(`${base}mcp_keys: [{ id: x, key_sha256: "plain", principals: ["*"] }]\n`, '/tmp')).toThrow(
      /mcp_keys\/0\/key_sha256/,
    );
    expect(() => parseConfig(`${base}mcp_keys: [{ id: x, key_sha256: "${digest}", principals: [] }]\n`, '/tmp')).toThrow(/principals/);
    expect(() =>
      parseConfig(
        `${base}mcp_keys:\n  - { id: x, key_sha256: "${digest}", principals: ["*"] }\n  - { id: x, key_sha256: "${digest}", principals: ["*"] }\n`,
        '/tmp',
      ),
    ).toThrow(/repeats id "x"/);
  });
});
