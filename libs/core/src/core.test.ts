import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { admit, limitsFor, RateLimiter, refusedOutright, sizeLimitExceeded, type AdmissionLimit, type AdmissionPolicy } from './admission';
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { Attr } from './attributes';
import { actorOf, authenticate, readOrchestrators, tokenDigest } from './auth';
import { parseConfig } from './config-file';
import { AppError } from './errors';
import { globMatch } from './glob';
import { resolveMode } from './modes';
import { snapshotIdOf } from './snapshot';
import type { BoundToolDefinition } from './types';

const tool = (name: string, extra: Partial<BoundToolDefinition> = {}): BoundToolDefinition => ({
  name,
  description: `does ${name}`,
  inputSchema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'integer' } } },
  capability: 'cap',
  originalName: name,
  ...extra,
});

describe('resolveMode (product rule 1)', () => {
  it('adaptive is direct at 29 bound tools and discovery at 30', () => {
    expect(resolveMode('adaptive', 29)).toBe('direct');
    expect(resolveMode('adaptive', 30)).toBe('discovery');
    expect(resolveMode('adaptive', 0)).toBe('direct');
  });
  it('explicit modes are kept, and adaptive never resolves to unified', () => {
    for (const n of [0, 29, 30, 5000]) {
      expect(resolveMode('direct', n)).toBe('direct');
      expect(resolveMode('discovery', n)).toBe('discovery');
      expect(resolveMode('unified', n)).toBe('unified');
      expect(resolveMode('adaptive', n)).not.toBe('unified');
    }
  });
});

describe('snapshotIdOf (product rule 8)', () => {
  it('is snap_ + sha256 of RFC 8785 JSON of the definitions sorted by name, whatever the input order', () => {
    const a = snapshotIdOf([tool('b'), tool('a')]);
    const b = snapshotIdOf([tool('a'), tool('b')]);
    expect(a.snapshotId).toBe(b.snapshotId);
    expect(a.snapshotId).toMatch(/^snap_[0-9a-f]{64}$/);
    // RFC 8785 sorts object keys: "a" comes before "b" inside the schema's properties.
    expect(a.canonical.indexOf('"a":{"type":"integer"}')).toBeLessThan(a.canonical.indexOf('"b":{"type":"string"}'));
    expect(a.canonical.startsWith('[{"capability":"cap","description":"does a"')).toBe(true);
  });
  it('keeps the published key order in the stored JSON, which does not change the ID', () => {
    const ordered = (props: Record<string, unknown>): BoundToolDefinition => ({
      name: 'speed',
      description: 'v = d / t',
      inputSchema: { type: 'object', properties: props, required: ['distance', 'time'] },
      capability: 'cap',
      originalName: 'speed',
    });
    const zFirst = snapshotIdOf([ordered({ distance: { type: 'number' }, time: { type: 'number' } })]);
    const aFirst = snapshotIdOf([ordered({ time: { type: 'number' }, distance: { type: 'number' } })]);
    expect(zFirst.snapshotId).toBe(aFirst.snapshotId);
    const props = (j: string) => Object.keys((JSON.parse(j) as BoundToolDefinition[])[0].inputSchema.properties as object);
    expect(props(zFirst.json)).toEqual(['distance', 'time']);
    expect(props(aFirst.json)).toEqual(['time', 'distance']);
    expect(props(aFirst.canonical)).toEqual(['distance', 'time']);
  });
  it('changes when any definition changes', () => {
    const base = snapshotIdOf([tool('a')]).snapshotId;
    expect(snapshotIdOf([tool('a', { description: 'other' })]).snapshotId).not.toBe(base);
    expect(snapshotIdOf([tool('a', { capability: 'other' })]).snapshotId).not.toBe(base);
    expect(snapshotIdOf([]).snapshotId).not.toBe(base);
  });
});

describe('globMatch', () => {
  it('matches * and ? and nothing else specially', () => {
    expect(globMatch('read_*', 'read_text_file')).toBe(true);
    expect(globMatch('read_*', 'write_file')).toBe(false);
    expect(globMatch('*secret*', '/x/notes/secret-plans.txt')).toBe(true);
    expect(globMatch('a?c', 'abc')).toBe(true);
    expect(globMatch('a?c', 'ac')).toBe(false);
    expect(globMatch('[ab]', 'a')).toBe(false);
    expect(globMatch('Read_*', 'read_file')).toBe(false);
    expect(globMatch('*', '')).toBe(true);
  });
  it('stays fast on pathological patterns', () => {
    const started = performance.now();
    expect(globMatch('*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('admission', () => {
  const policy: AdmissionPolicy = {
    default: 'allow',
    rules: [
      {
        id: 'no-secrets',
        effect: 'deny',
        principals: ['*'],
        capabilities: ['filesystem'],
        tools: ['read_*'],
        arguments: { path: '*secret*' },
      },
      { id: 'no-deletes', effect: 'deny', principals: ['agent:*'], capabilities: ['memory'], tools: ['delete_*'] },
      { id: 'allow-memory', effect: 'allow', principals: ['*'], capabilities: ['memory'], tools: ['*'] },
    ],
  };
  const alice = { kind: 'agent' as const, id: 'alice' };
  it('deny overrides allow and names the rule', () => {
    expect(admit({ principal: alice, capability: 'memory', tool: 'delete_entities', arguments: {}, via: 'direct' }, policy)).toEqual({
      decision: 'deny',
      rule: 'no-deletes',
    });
    expect(admit({ principal: alice, capability: 'memory', tool: 'read_graph', arguments: {}, via: 'direct' }, policy)).toEqual({
      decision: 'allow',
      rule: 'allow-memory',
    });
    expect(admit({ principal: alice, capability: 'other', tool: 'x', arguments: {}, via: 'direct' }, policy)).toEqual({
      decision: 'allow',
      rule: 'default',
    });
  });
  it('gives the same decision on every path', () => {
    for (const via of ['direct', 'execute_tool', 'unified_tool'] as const) {
      expect(
        admit({ principal: alice, capability: 'filesystem', tool: 'read_file', arguments: { path: '/a/secret.txt' }, via }, policy)
          .decision,
      ).toBe('deny');
      expect(
        admit({ principal: { kind: 'gateway', id: 'g' }, capability: 'memory', tool: 'delete_entities', arguments: {}, via }, policy)
          .decision,
      ).toBe('allow');
    }
  });
  it('argument constraints make a rule conditional', () => {
    expect(
      admit({ principal: alice, capability: 'filesystem', tool: 'read_file', arguments: { path: '/a/public.txt' }, via: 'direct' }, policy)
        .decision,
    ).toBe('allow');
    expect(admit({ principal: alice, capability: 'filesystem', tool: 'read_file', arguments: {}, via: 'direct' }, policy).decision).toBe(
      'allow',
    );
    expect(refusedOutright(alice, 'filesystem', 'read_file', policy)).toBe(false);
    expect(refusedOutright(alice, 'memory', 'delete_entities', policy)).toBe(true);
  });
  it('an array argument is denied when any element matches, allowed only when every element does', () => {
    const p: AdmissionPolicy = {
      default: 'deny',
      rules: [
        { id: 'no-secret-paths', effect: 'deny', principals: ['*'], capabilities: ['fs'], tools: ['*'], arguments: { paths: '*secret*' } },
        { id: 'only-public', effect: 'allow', principals: ['*'], capabilities: ['fs'], tools: ['*'], arguments: { paths: '/public/*' } },
      ],
    };
    const call = (paths: unknown) =>
      admit({ principal: alice, capability: 'fs', tool: 'read_multiple_files', arguments: { paths }, via: 'execute_tool' }, p);
    expect(call(['/public/a', '/x/secret.txt'])).toEqual({ decision: 'deny', rule: 'no-secret-paths' });
    expect(call(['/public/a', '/private/b'])).toEqual({ decision: 'deny', rule: 'default' });
    expect(call(['/public/a', '/public/b'])).toEqual({ decision: 'allow', rule: 'only-public' });
    expect(call([])).toEqual({ decision: 'deny', rule: 'default' });
  });

  it('default deny refuses outright unless some allow rule matches', () => {
    const strict: AdmissionPolicy = {
      default: 'deny',
      rules: [{ id: 'a', effect: 'allow', principals: ['*'], capabilities: ['x'], tools: ['t'], arguments: { p: '1' } }],
    };
    expect(refusedOutright(alice, 'x', 't', strict)).toBe(false);
    expect(refusedOutright(alice, 'x', 'u', strict)).toBe(true);
    expect(admit({ principal: alice, capability: 'x', tool: 't', arguments: { p: '2' }, via: 'direct' }, strict)).toEqual({
      decision: 'deny',
      rule: 'default',
    });
  });
});

describe('argument constraints that are hard to slip past', () => {
  const who = { kind: 'agent' as const, id: 'a' };
  const deny: AdmissionPolicy = {
    default: 'allow',
    rules: [{ id: 'no-etc', effect: 'deny', principals: ['*'], capabilities: ['*'], tools: ['*'], arguments: { path: '/etc/*' } }],
  };
  const allow: AdmissionPolicy = {
    default: 'deny',
    rules: [{ id: 'only-srv', effect: 'allow', principals: ['*'], capabilities: ['*'], tools: ['*'], arguments: { path: '/srv/*' } }],
  };
  const decide = (policy: AdmissionPolicy, args: Record<string, unknown>) =>
    admit({ principal: who, capability: 'fs', tool: 'read', arguments: args, via: 'direct' }, policy).decision;

  it.each([
    ['the plain path', { path: '/etc/passwd' }],
    ['a doubled slash', { path: '//etc/passwd' }],
    ['a dot segment', { path: '/./etc/passwd' }],
    ['a parent segment', { path: '/tmp/../etc/passwd' }],
    ['backslashes', { path: '\\etc\\passwd' }],
    ['an array of arrays', { path: [['/tmp/x', ['/etc/passwd']]] }],
    ['an object where a string was expected (fails closed)', { path: { p: '/etc/passwd' } }],
    ['the key in another case', { Path: '/etc/passwd' }],
    ['one of two case variants', { path: '/tmp/x', PATH: '/etc/shadow' }],
  ])('a deny rule refuses %s', (_label, args) => {
    expect(decide(deny, args)).toBe('deny');
  });

  it('a deny rule leaves other paths alone', () => {
    expect(decide(deny, { path: '/tmp/etc/passwd' })).toBe('allow');
    expect(decide(deny, { path: ['/tmp/a', ['/srv/b']] })).toBe('allow');
    expect(decide(deny, { other: '/etc/passwd' })).toBe('allow');
  });

  it('an allow rule admits only values that match in every form', () => {
    expect(decide(allow, { path: '/srv/data/x' })).toBe('allow');
    expect(decide(allow, { path: '/srv/../etc/passwd' })).toBe('deny');
    expect(decide(allow, { path: ['/srv/a', ['/srv/b']] })).toBe('allow');
    expect(decide(allow, { path: ['/srv/a', ['/etc/b']] })).toBe('deny');
    expect(decide(allow, { path: { p: '/srv/a' } })).toBe('deny');
    expect(decide(allow, { path: '/srv/a', PATH: '/etc/b' })).toBe('deny');
    expect(decide(allow, { path: [] })).toBe('deny');
  });
});

describe('admission limits', () => {
  const alice = { kind: 'agent' as const, id: 'alice' };
  const bob = { kind: 'agent' as const, id: 'bob' };
  const perTool: AdmissionLimit = {
    id: 'per-tool',
    principals: ['agent:*'],
    capabilities: ['fs'],
    tools: ['*'],
    rate: { calls: 3, perSeconds: 3, per: 'tool' },
  };
  const perPrincipal: AdmissionLimit = {
    id: 'per-principal',
    principals: ['*'],
    capabilities: ['*'],
    tools: ['*'],
    rate: { calls: 4, perSeconds: 60, per: 'principal' },
  };

  it('selects the limits whose globs match principal, capability and tool', () => {
    const policy: AdmissionPolicy = { default: 'allow', rules: [], limits: [perTool, perPrincipal] };
    expect(limitsFor(alice, 'fs', 'read', policy).map((l) => l.id)).toEqual(['per-tool', 'per-principal']);
    expect(limitsFor(alice, 'web', 'get', policy).map((l) => l.id)).toEqual(['per-principal']);
    expect(limitsFor({ kind: 'gateway', id: 'g' }, 'fs', 'read', policy).map((l) => l.id)).toEqual(['per-principal']);
    expect(limitsFor(alice, 'fs', 'read', { default: 'allow', rules: [] })).toEqual([]);
  });

  it('admits a burst up to the rate, refills evenly and says when the next call would pass', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(rl.take([perTool], alice, 'fs', 'read', 0)).toBeUndefined();
    expect(rl.take([perTool], alice, 'fs', 'read', 0)).toEqual({ limit: perTool, retryAfterMs: 1000 });
    expect(rl.take([perTool], alice, 'fs', 'read', 999)?.retryAfterMs).toBe(1);
    expect(rl.take([perTool], alice, 'fs', 'read', 1000)).toBeUndefined();
    // Other tools and other principals have their own buckets.
    expect(rl.take([perTool], alice, 'fs', 'write', 1000)).toBeUndefined();
    expect(rl.take([perTool], bob, 'fs', 'read', 1000)).toBeUndefined();
    // Never more than the burst, however long the pause.
    for (let i = 0; i < 3; i++) expect(rl.take([perTool], alice, 'fs', 'read', 1e9)).toBeUndefined();
    expect(rl.take([perTool], alice, 'fs', 'read', 1e9)).toBeDefined();
  });

  it('takes no token from any bucket when one limit refuses', () => {
    const rl = new RateLimiter();
    const tight: AdmissionLimit = { ...perTool, id: 'tight', rate: { calls: 1, perSeconds: 60, per: 'tool' } };
    expect(rl.take([perPrincipal, tight], alice, 'fs', 'read', 0)).toBeUndefined();
    for (let i = 0; i < 5; i++) expect(rl.take([perPrincipal, tight], alice, 'fs', 'read', 0)?.limit.id).toBe('tight');
    // per-principal spent one token of four: three remain for other tools.
    for (let i = 0; i < 3; i++) expect(rl.take([perPrincipal], alice, 'web', `t${i}`, 0)).toBeUndefined();
    expect(rl.take([perPrincipal], alice, 'web', 'more', 0)?.limit.id).toBe('per-principal');
  });

  it('starts a fresh bucket when the limit changes, and bounds its memory by dropping full buckets', () => {
    const rl = new RateLimiter(10);
    expect(rl.take([perTool], alice, 'fs', 'read', 0)).toBeUndefined();
    for (let i = 0; i < 20; i++) rl.take([perTool], { kind: 'agent', id: `a${i}` }, 'fs', 'read', 10_000 + i * 10_000);
    expect(rl.size).toBeLessThanOrEqual(10);
    const raised: AdmissionLimit = { ...perTool, rate: { calls: 100, perSeconds: 3, per: 'tool' } };
    for (let i = 0; i < 100; i++) expect(rl.take([raised], bob, 'fs', 'read', 0)).toBeUndefined();
  });

  it('a full map of buckets never drops a bucket the same call takes a token from', () => {
    const rl = new RateLimiter(2);
    const hourly: AdmissionLimit = { ...perPrincipal, id: 'hourly', rate: { calls: 1, perSeconds: 3600, per: 'principal' } };
    const perToolHourly: AdmissionLimit = { ...perTool, id: 'tool-hourly', rate: { calls: 5, perSeconds: 3600, per: 'tool' } };
    expect(rl.take([hourly, perToolHourly], alice, 'fs', 'read', 0)).toBeUndefined();
    // An hour later both buckets are full again (sweepable) and the map is at its bound.
    const later = 3_600_000;
    expect(rl.take([hourly, perToolHourly], alice, 'fs', 'write', later)).toBeUndefined();
    expect(rl.take([hourly, perToolHourly], alice, 'fs', 'other', later)?.limit.id).toBe('hourly');
  });

  it('finds the first size bound a value exceeds', () => {
    const limits: AdmissionLimit[] = [
      { id: 'a', principals: ['*'], capabilities: ['*'], tools: ['*'], maxArgumentBytes: 100 },
      { id: 'b', principals: ['*'], capabilities: ['*'], tools: ['*'], maxArgumentBytes: 10, maxResultBytes: 5 },
    ];
    expect(sizeLimitExceeded(limits, 10, 'maxArgumentBytes')).toBeUndefined();
    expect(sizeLimitExceeded(limits, 11, 'maxArgumentBytes')).toEqual({ limit: limits[1], max: 10 });
    expect(sizeLimitExceeded(limits, 101, 'maxArgumentBytes')?.limit.id).toBe('a');
    expect(sizeLimitExceeded(limits, 6, 'maxResultBytes')?.max).toBe(5);
  });

  it('reads limits from the config file with defaults, and refuses a limit that bounds nothing', () => {
    const c = parseConfig(
      `capabilities: {}
principals: []
admission:
  rules: [{ id: r1, effect: allow }]
  limits:
    - { id: l1, tools: ["read_*"], rate: { calls: 10, per_seconds: 1.5 }, max_result_bytes: 4096 }
`,
      '/etc',
    );
    expect(c.admission.limits).toEqual([
      {
        id: 'l1',
        principals: ['*'],
        capabilities: ['*'],
        tools: ['read_*'],
        rate: { calls: 10, perSeconds: 1.5, per: 'tool' },
        maxResultBytes: 4096,
      },
    ]);
    expect(() => parseConfig('capabilities: {}\nprincipals: []\nadmission: { limits: [{ id: l1 }] }', '/etc')).toThrow(
      /\/admission\/limits\/0 must have required property/,
    );
    expect(() =>
      parseConfig(
        'capabilities: {}\nprincipals: []\nadmission: { rules: [{id: x, effect: deny}], limits: [{ id: x, max_argument_bytes: 5 }] }',
        '/etc',
      ),
    ).toThrow(/repeats id "x"/);
    expect(() =>
      parseConfig('capabilities: {}\nprincipals: []\nadmission: { limits: [{ id: l, rate: { calls: 0, per_seconds: 1 } }] }', '/etc'),
    ).toThrow(/calls must be >= 1/);
  });
});

describe('caller authentication fails closed', () => {
  const ops = { id: 'ops', tokenSha256: tokenDigest('ops-token'), principals: ['*'], admin: true };

  it('reads a stored list, and is off only when the record is absent and not required', () => {
    expect(readOrchestrators([ops], false)).toEqual([ops]);
    expect(readOrchestrators(undefined, false)).toEqual([]);
    expect(authenticate(undefined, readOrchestrators(undefined, false)).orchestrator).toBe('anonymous');
  });

  it.each([
    ['absent while required', undefined, true],
    ['empty while required', [], true],
    ['not a list', { not: 'a list' }, false],
    ['an entry without a digest', [{ id: 'x', principals: ['*'], admin: true }], false],
    ['an entry with a bad digest', [{ ...ops, tokenSha256: 'abc' }], false],
    ['principals that are not strings', [{ ...ops, principals: [1] }], false],
  ])('refuses every caller, valid token or not, when the record is %s', (_label, raw, required) => {
    const list = readOrchestrators(raw, required);
    expect(list).toBeUndefined();
    for (const header of [undefined, 'Bearer ops-token']) {
      expect(() => authenticate(header, list)).toThrow(/no valid orchestrators are configured/);
    }
  });
});

describe('parseConfig', () => {
  const good = `
capabilities:
  fs: { transport: stdio, command: node, args: ["\${CONFIG_DIR}/server.js"], cwd: sub }
  web: { transport: streamable-http, url: "http://127.0.0.1:1/mcp" }
principals:
  - { kind: gateway, id: g1, mode: unified, autonomy: supervised, capabilities: [fs, web] }
  - { kind: agent, id: a1 }
admission:
  default: deny
  rules: [{ id: r1, effect: allow, tools: ["read_*"] }]
`;
  it('resolves paths, fills defaults and hashes the resolved config', () => {
    const c = parseConfig(good, '/etc/ts');
    expect(c.capabilities.fs).toMatchObject({ transport: 'stdio', args: ['/etc/ts/server.js'], cwd: '/etc/ts/sub', timeoutMs: 30000 });
    expect(c.principals[1]).toEqual({ kind: 'agent', id: 'a1', mode: 'adaptive', autonomy: 'autonomous', capabilities: [] });
    expect(c.admission.rules[0]).toEqual({ id: 'r1', effect: 'allow', principals: ['*'], capabilities: ['*'], tools: ['read_*'] });
    expect(parseConfig(good, '/other').hash).not.toBe(c.hash);
  });
  it.each([
    ['not YAML', 'capabilities: [', /not valid YAML/],
    ['unknown field', 'capabilities: {}\nprincipals: []\nextra: 1', /must NOT have additional properties/],
    ['bad principal id', 'capabilities: {}\nprincipals: [{kind: agent, id: "a b"}]', /\/principals\/0\/id/],
    ['unknown capability', 'capabilities: {}\nprincipals: [{kind: agent, id: a, capabilities: [nope]}]', /unknown capability "nope"/],
    ['supervised agent', 'capabilities: {}\nprincipals: [{kind: agent, id: a, autonomy: supervised}]', /only gateways can be supervised/],
    ['duplicate principal', 'capabilities: {}\nprincipals: [{kind: agent, id: a}, {kind: agent, id: a}]', /repeats agent:a/],
    ['bad mode', 'capabilities: {}\nprincipals: [{kind: agent, id: a, mode: sometimes}]', /\/principals\/0\/mode/],
    ['capability name with a dot', 'capabilities: {"a.b": {transport: stdio, command: x}}\nprincipals: []', /property name/],
  ])('rejects %s with INVALID_REQUEST naming the field', (_label, text, message) => {
    let err: unknown;
    try {
      parseConfig(text, '/x');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_REQUEST');
    expect((err as AppError).message).toMatch(message);
  });
});

describe('globMatch against literal stars in the text', () => {
  it('a pattern star stays a wildcard when the text holds a star', () => {
    expect(globMatch('*secret*', 'secret*x')).toBe(true);
    expect(globMatch('*secret*', '/x/secret* ')).toBe(true);
    expect(globMatch('a*', 'a*b')).toBe(true);
    expect(globMatch('*', '*x')).toBe(true);
    expect(globMatch('rm *', 'rm *.txt')).toBe(true);
    expect(globMatch('a*c', 'a*b')).toBe(false);
  });
});

describe('parseConfig and inherited property names', () => {
  it('refuses a binding to a name only Object.prototype has', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(() => parseConfig(`capabilities: {}\nprincipals: [{kind: agent, id: a, capabilities: ["${name}"]}]`, '/x')).toThrow(
        /unknown capability/,
      );
    }
  });
});

describe('Attr', () => {
  it('spells each semantic-convention name as @opentelemetry/semantic-conventions does', () => {
    const constants = semconv as unknown as Record<string, unknown>;
    const ours = Object.entries(Attr).filter(([k]) => !k.startsWith('TS_'));
    for (const [k, v] of ours) expect(v, k).toBe(constants[`ATTR_${k}`]);
  });

  it('uses no name the semantic conventions deprecate (GenAI and MCP ones are "moved", and kept)', () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@opentelemetry/semantic-conventions/incubating'));
    const dts = ['stable_attributes.d.cts', 'experimental_attributes.d.cts'].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
    // Each constant's doc comment ends right before `declare const ATTR_X`; the last `@deprecated` line in it, if any.
    const deprecation = (name: string): string | undefined => {
      const at = dts.indexOf(`declare const ATTR_${name}:`);
      expect(at, `ATTR_${name} is declared`).toBeGreaterThan(0);
      const doc = dts.slice(dts.lastIndexOf('/**', at), at);
      return /@deprecated (.*)/.exec(doc)?.[1];
    };
    const moved = /^Moved to the \[OpenTelemetry GenAI semantic conventions repository\]/;
    const ours = Object.keys(Attr).filter((k) => !k.startsWith('TS_'));
    const deprecated = ours.map((k) => [k, deprecation(k)] as const).filter(([, why]) => why !== undefined && !moved.test(why));
    expect(deprecated).toEqual([]);
    // The check itself finds a deprecated name.
    expect(deprecation('RPC_SYSTEM')).toBe('Replaced by `rpc.system.name`.');
  });
});

describe('actorOf (who made a change, for presentation.changed)', () => {
  const caller = { orchestrator: 'ops', principals: ['*'], admin: true };
  it('names the orchestrator, prefixed "portal:" through the portal, and refuses another channel', () => {
    expect(actorOf(caller, undefined)).toBe('ops');
    expect(actorOf(caller, 'portal')).toBe('portal:ops');
    expect(() => actorOf(caller, 'someone-else')).toThrow(/may only be "portal"/);
  });
});
