import { describe, expect, it } from 'vitest';
import type { CatalogRecord } from '@toolsurface/state';
import { snapshotIdOf } from '@toolsurface/core';
import { isBoundToolName, parseAdmissionPolicy, sameCatalog, toCatalogTools } from './catalog';

const rec = (capability: string, names: string[]): CatalogRecord => ({
  capability,
  status: 'ok',
  tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })),
  listedAtMs: 1,
});

describe('catalog helpers', () => {
  it('keeps only the MCP Tool fields', () => {
    expect(
      toCatalogTools([
        {
          name: 'a',
          title: 'A',
          description: 'd',
          inputSchema: { type: 'object' },
          execution: { taskSupport: 'optional' },
          _meta: { x: 1 },
          icons: [],
        },
        { name: '' },
        { title: 'no name' },
        { name: 'b' },
      ]),
    ).toEqual([
      { name: 'a', title: 'A', description: 'd', inputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object' } },
    ]);
  });

  it("makes a tool's strings well-formed and drops a tool whose name is not, so every snapshot of them canonicalises", () => {
    const broken = 'weather \uD83D report'; // a lone high surrogate: half an emoji
    const tools = toCatalogTools([
      {
        name: 'ok',
        description: broken,
        inputSchema: { type: 'object', properties: { ['city\uDC00']: { type: 'string', description: broken, enum: [broken, 'x'] } } },
        annotations: { title: broken },
      },
      { name: 'bad\uD800name', description: 'fine' },
      { name: 'plain', description: 'all well-formed 🌦', inputSchema: { type: 'object' } },
    ]);
    expect(tools.map((t) => t.name)).toEqual(['ok', 'plain']);
    expect(tools[0].description).toBe('weather \uFFFD report');
    expect(tools[0].inputSchema).toEqual({
      type: 'object',
      properties: { ['city\uFFFD']: { type: 'string', description: 'weather \uFFFD report', enum: ['weather \uFFFD report', 'x'] } },
    });
    expect(tools[0].annotations).toEqual({ title: 'weather \uFFFD report' });
    expect(tools[1].description).toBe('all well-formed 🌦');
    // what OpenSurface does with them: RFC 8785 refuses lone surrogates
    const defs = tools.map((t) => ({ ...t, capability: 'careless', originalName: t.name }));
    expect(() => snapshotIdOf(defs)).not.toThrow();
    expect(() => snapshotIdOf([{ ...defs[0], description: broken }])).toThrow(/surrogate/i);
  });

  it('repairs a schema nested 1,500 deep, and leaves a written-out backslash-u alone', () => {
    let deep: Record<string, unknown> = { type: 'string', description: 'bottom \uDC00' };
    for (let i = 0; i < 1500; i++) deep = { type: 'object', properties: { x: deep } };
    const [tool] = toCatalogTools([{ name: 'deep', inputSchema: deep }]);
    let at: Record<string, unknown> = tool.inputSchema;
    for (let i = 0; i < 1500; i++) at = (at.properties as Record<string, Record<string, unknown>>).x;
    expect(at.description).toBe('bottom \uFFFD');
    // a backslash followed by "ud800" is text, not a surrogate: kept as it is, and so is the tool
    const text = { name: 'path', description: 'C:\\ud800\\file', inputSchema: { type: 'object' } };
    expect(toCatalogTools([text])[0].description).toBe('C:\\ud800\\file');
  });

  it('compares status and tools only', () => {
    const r = rec('m', ['a']);
    expect(sameCatalog(r, 'ok', [{ name: 'a', inputSchema: { type: 'object' } }])).toBe(true);
    expect(sameCatalog(r, 'unavailable', r.tools)).toBe(false);
    expect(sameCatalog(undefined, 'ok', [])).toBe(false);
  });

  it('knows bound names, plain and capability-prefixed, of bound capabilities only', () => {
    const catalog = new Map([
      ['memory', rec('memory', ['read_graph'])],
      ['other', rec('other', ['secret'])],
    ]);
    const of = (c: string) => catalog.get(c);
    expect(isBoundToolName('read_graph', ['memory'], of)).toBe(true);
    expect(isBoundToolName('memory.read_graph', ['memory'], of)).toBe(true);
    expect(isBoundToolName('other.read_graph', ['memory', 'other'], of)).toBe(false);
    expect(isBoundToolName('secret', ['memory'], of)).toBe(false);
  });

  it('parses a stored admission policy and refuses a malformed one', () => {
    expect(parseAdmissionPolicy({ default: 'deny', rules: [{ id: 'r', effect: 'allow', tools: ['echo'] }] })).toEqual({
      default: 'deny',
      rules: [{ id: 'r', effect: 'allow', principals: ['*'], capabilities: ['*'], tools: ['echo'] }],
    });
    expect(
      parseAdmissionPolicy({ default: 'allow', rules: [{ id: 'c', effect: 'deny', arguments: { path: '*secret*' } }] })?.rules[0].arguments,
    ).toEqual({ path: '*secret*' });
    expect(parseAdmissionPolicy({ default: 'allow', rules: [{ id: 'c', effect: 'deny', arguments: { path: 1 } }] })).toBeUndefined();
    // A rule's comparison is kept; one that cannot be read makes the whole policy unreadable (deny all).
    expect(parseAdmissionPolicy({ default: 'allow', rules: [{ id: 'c', effect: 'deny', match: 'exact' }] })?.rules[0].match).toBe('exact');
    expect(parseAdmissionPolicy({ default: 'allow', rules: [{ id: 'c', effect: 'deny', match: 'caseless' }] })).toBeUndefined();
    expect(parseAdmissionPolicy({ default: 'maybe' })).toBeUndefined();
    expect(parseAdmissionPolicy({ default: 'allow', rules: [{ id: 'r', effect: 'allow', tools: 'echo' }] })).toBeUndefined();
  });

  it('parses stored limits and refuses the whole policy when one is malformed (every call is then refused)', () => {
    const rate = { calls: 5, perSeconds: 60, per: 'tool' };
    expect(
      parseAdmissionPolicy({ default: 'allow', rules: [], limits: [{ id: 'l', tools: ['echo'], rate, maxArgumentBytes: 10 }] }),
    ).toEqual({
      default: 'allow',
      rules: [],
      limits: [{ id: 'l', principals: ['*'], capabilities: ['*'], tools: ['echo'], rate, maxArgumentBytes: 10 }],
    });
    expect(parseAdmissionPolicy({ default: 'allow', limits: [{ id: 'l', rate: { ...rate, calls: 0 } }] })).toBeUndefined();
    expect(parseAdmissionPolicy({ default: 'allow', limits: [{ id: 'l', rate: { ...rate, per: 'surface' } }] })).toBeUndefined();
    expect(parseAdmissionPolicy({ default: 'allow', limits: [{ id: 'l', maxResultBytes: -1 }] })).toBeUndefined();
    expect(parseAdmissionPolicy({ default: 'allow', limits: {} })).toBeUndefined();
  });
});

describe('parseCapabilitySpec', () => {
  it('fills defaults and refuses malformed specs', async () => {
    const { parseCapabilitySpec } = await import('./catalog');
    expect(parseCapabilitySpec({ transport: 'stdio', command: 'node' })).toEqual({
      transport: 'stdio',
      command: 'node',
      args: [],
      env: {},
      cwd: '',
      timeoutMs: 30_000,
    });
    expect(parseCapabilitySpec({ transport: 'streamable-http', url: 'http://x/mcp', timeoutMs: 5 })).toEqual({
      transport: 'streamable-http',
      url: 'http://x/mcp',
      headers: {},
      timeoutMs: 5,
    });
    expect(parseCapabilitySpec({ transport: 'stdio' })).toMatch('command');
    expect(parseCapabilitySpec({ transport: 'streamable-http', url: 'ftp://x' })).toMatch('url');
    expect(parseCapabilitySpec({ transport: 'stdio', command: 'x', env: { A: 1 } })).toMatch('env');
    expect(parseCapabilitySpec({ transport: 'carrier-pigeon' })).toMatch('unknown transport');
  });
});
