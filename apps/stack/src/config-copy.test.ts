import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadConfigFile, parseConfig } from '@toolsurface/core';
import { describe, expect, it } from 'vitest';
import { httpCapabilityPort, rewriteConfig } from './config-copy';
import { DEFAULT_CONFIG_PATH } from '@toolsurface/devkit';

const text = readFileSync(DEFAULT_CONFIG_PATH, 'utf8');
const dir = dirname(DEFAULT_CONFIG_PATH);

describe('rewriteConfig', () => {
  it('moves the everything URL to the given port and nothing else changes meaning, from any folder', () => {
    const copy = rewriteConfig(text, dir, { httpPorts: { everything: 45678 } });
    const original = loadConfigFile(DEFAULT_CONFIG_PATH);
    // Parsed as if the copy lived somewhere else entirely.
    const moved = parseConfig(copy, '/somewhere/else');
    expect(moved.capabilities.everything).toEqual({ ...original.capabilities.everything, url: 'http://127.0.0.1:45678/mcp' });
    expect(moved.capabilities.filesystem).toEqual(original.capabilities.filesystem);
    expect(moved.capabilities.memory).toEqual(original.capabilities.memory);
    expect(moved.principals).toEqual(original.principals);
    expect(moved.admission).toEqual(original.admission);
  });

  it('keeps the comments of the original', () => {
    expect(rewriteConfig(text, dir, { httpPorts: { everything: 1234 } })).toContain('# 36 bound tools: adaptive resolves to discovery.');
  });

  it('refuses to rewrite a capability without a URL', () => {
    expect(() => rewriteConfig(text, dir, { httpPorts: { memory: 1 } })).toThrow(/no streamable-http capability "memory"/);
  });
});

describe('httpCapabilityPort', () => {
  it('reads the port of a streamable-http capability, undefined for stdio or unknown ones', () => {
    expect(httpCapabilityPort(text, 'everything')).toBe(3001);
    expect(httpCapabilityPort(text, 'memory')).toBeUndefined();
    expect(httpCapabilityPort(text, 'nope')).toBeUndefined();
    expect(httpCapabilityPort('capabilities:\n  web: {transport: streamable-http, url: "https://x.example/mcp"}\n', 'web')).toBe(443);
  });
});
