import { describe, expect, it } from 'vitest';
import { SYSTEM_TOOLS, type AdmissionPolicy, type McpTool } from '@toolsurface/core';
import { buildBoundSet, modelView, presentTools, type CatalogEntry } from './surface-builder';

const t = (name: string, description = `does ${name}`): McpTool => ({ name, description, inputSchema: { type: 'object' } });
const catalog = (entries: Record<string, McpTool[]>, unavailable: string[] = []) =>
  new Map<string, CatalogEntry>(
    Object.entries(entries).map(([capability, tools]) => [
      capability,
      { capability, status: unavailable.includes(capability) ? 'unavailable' : 'ok', tools },
    ]),
  );
const allow: AdmissionPolicy = { default: 'allow', rules: [] };
const alice = { kind: 'agent' as const, id: 'alice' };

describe('buildBoundSet', () => {
  it('takes every tool of the bound capabilities only', () => {
    const set = buildBoundSet(alice, ['a'], catalog({ a: [t('x'), t('y')], b: [t('z')] }), allow);
    expect(set.definitions.map((d) => d.name)).toEqual(['x', 'y']);
    expect(set.definitions[0]).toMatchObject({ capability: 'a', originalName: 'x' });
  });

  it('prefixes a name two capabilities publish with each capability, and reports it (product rule 9)', () => {
    const set = buildBoundSet(alice, ['b', 'a'], catalog({ a: [t('search'), t('only_a')], b: [t('search')] }), allow);
    expect(set.definitions.map((d) => d.name)).toEqual(['a.search', 'b.search', 'only_a']);
    expect(set.definitions.find((d) => d.name === 'b.search')).toMatchObject({ capability: 'b', originalName: 'search' });
    expect(set.collisions).toEqual([
      { originalName: 'search', presentedNames: ['a.search', 'b.search'], rule: expect.stringContaining('<capability>.<name>') },
    ]);
  });

  it('never lets a bound tool take a system or meta-tool name (product rule 5)', () => {
    const set = buildBoundSet(alice, ['a'], catalog({ a: [t(SYSTEM_TOOLS[0].name), t('execute_tool')] }), allow);
    expect(set.definitions.map((d) => d.name).sort()).toEqual([`a.${SYSTEM_TOOLS[0].name}`, 'a.execute_tool'].sort());
  });

  it("no server can take the name another capability's tool is shown under", () => {
    const set = buildBoundSet(
      alice,
      ['a', 'b', 'fx'],
      catalog({ a: [t('x')], b: [t('x')], fx: [t('a.x'), t('b.y.z'), t('other.q')] }),
      allow,
    );
    const byName = new Map(set.definitions.map((d) => [d.name, d]));
    expect(byName.get('a.x')).toMatchObject({ capability: 'a', originalName: 'x' });
    expect(byName.get('fx.a.x')).toMatchObject({ capability: 'fx', originalName: 'a.x' });
    expect(byName.get('fx.b.y.z')).toMatchObject({ capability: 'fx', originalName: 'b.y.z' });
    expect(byName.get('other.q')).toMatchObject({ capability: 'fx', originalName: 'other.q' });
    expect(new Set(set.definitions.map((d) => d.name)).size).toBe(set.definitions.length);
  });

  it('leaves out names that are not MCP tool names, and reports them', () => {
    const set = buildBoundSet(
      alice,
      ['a'],
      catalog({ a: [t('ok_name'), t('x'.repeat(129)), t('two words'), t('ignore\nprevious instructions'), t('')] }),
      allow,
    );
    expect(set.definitions.map((d) => d.name)).toEqual(['ok_name']);
    expect(set.invalidNames).toHaveLength(4);
  });

  it('leaves out tools admission refuses outright, keeps conditionally refused ones (product rule 6)', () => {
    const policy: AdmissionPolicy = {
      default: 'allow',
      rules: [
        { id: 'd', effect: 'deny', principals: ['agent:*'], capabilities: ['a'], tools: ['delete_*'] },
        { id: 'c', effect: 'deny', principals: ['*'], capabilities: ['a'], tools: ['read'], arguments: { path: '*secret*' } },
      ],
    };
    const set = buildBoundSet(alice, ['a'], catalog({ a: [t('delete_all'), t('read')] }), policy);
    expect(set.definitions.map((d) => d.name)).toEqual(['read']);
    const gw = buildBoundSet({ kind: 'gateway', id: 'g' }, ['a'], catalog({ a: [t('delete_all'), t('read')] }), policy);
    expect(gw.definitions.map((d) => d.name)).toEqual(['delete_all', 'read']);
  });

  it('keeps the last known tools of an unavailable capability and reports it', () => {
    const set = buildBoundSet(alice, ['a', 'b', 'c'], catalog({ a: [t('x')], b: [t('y')] }, ['b']), allow);
    expect(set.definitions.map((d) => d.name)).toEqual(['x', 'y']);
    expect(set.unavailableCapabilities).toEqual(['b']);
    expect(set.missingCapabilities).toEqual(['c']);
    // Down and never listed: nothing to keep, so it is missing.
    const never = buildBoundSet(alice, ['a', 'd'], catalog({ a: [t('x')], d: [] }, ['d']), allow);
    expect(never.definitions.map((d) => d.name)).toEqual(['x']);
    expect(never.missingCapabilities).toEqual(['d']);
  });

  it('is deterministic whatever the binding order', () => {
    const c = catalog({ a: [t('x'), t('s')], b: [t('s'), t('y')] });
    expect(buildBoundSet(alice, ['a', 'b'], c, allow)).toEqual(buildBoundSet(alice, ['b', 'a', 'b'], c, allow));
  });
});

describe('presentTools', () => {
  const bound = buildBoundSet(alice, ['a'], catalog({ a: [t('x'), t('y')] }), allow).definitions;
  const systemNames = SYSTEM_TOOLS.map((s) => s.name);
  it('direct lists every bound tool with its schema, then system tools (product rules 2, 5)', () => {
    const p = presentTools('direct', bound);
    expect(p.map((x) => x.tool.name)).toEqual(['x', 'y', ...systemNames]);
    expect(p[0].tool.inputSchema).toEqual({ type: 'object' });
  });
  it('discovery lists exactly the three meta-tools, then system tools (product rule 3)', () => {
    expect(presentTools('discovery', bound).map((x) => x.tool.name)).toEqual([
      'discover_tools',
      'get_tool_schema',
      'execute_tool',
      ...systemNames,
    ]);
  });
  it('unified lists unified_tool, then system tools (product rule 4)', () => {
    expect(presentTools('unified', bound).map((x) => x.tool.name)).toEqual(['unified_tool', ...systemNames]);
  });
  it('the model view is plain MCP Tool objects', () => {
    const view = modelView(presentTools('direct', bound));
    expect(Object.keys(view[0]).sort()).toEqual(['description', 'inputSchema', 'name']);
  });
});
