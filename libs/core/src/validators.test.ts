import { describe, expect, it } from 'vitest';
import { fromDraft04, ValidatorCache, type CompileProblem } from './validators';

const S1 = 'snap_' + '1'.repeat(64);
const S2 = 'snap_' + '2'.repeat(64);

describe('ValidatorCache', () => {
  it('compiles once per snapshot and tool, and shares a schema text across snapshots', () => {
    const cache = new ValidatorCache();
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    const v1 = cache.forTool(S1, 't', schema);
    expect(cache.forTool(S1, 't', schema)).toBe(v1);
    expect(cache.compiled).toBe(1);
    cache.forTool(S2, 't', { type: 'object', properties: { a: { type: 'integer' } } });
    expect(cache.compiled).toBe(1);
    cache.forTool(S2, 'other', { type: 'object', properties: { a: { type: 'string' } } });
    expect(cache.compiled).toBe(2);
  });

  it('reports each problem with its JSON pointer', () => {
    const cache = new ValidatorCache();
    const v = cache.forSchema({
      type: 'object',
      properties: {
        user: { type: 'object', properties: { 'e/mail': { type: 'string', format: 'email' } }, required: ['name'] },
        mode: { enum: ['a', 'b'] },
      },
      required: ['user'],
      additionalProperties: false,
    });
    expect(v({ user: { 'e/mail': 'nope' } })).toEqual([
      { pointer: '/user/name', message: 'is required' },
      { pointer: '/user/e~1mail', message: 'must match format "email"' },
    ]);
    expect(v({ mode: 'c', x: 1 })).toEqual([
      { pointer: '/user', message: 'is required' },
      { pointer: '/x', message: 'is not allowed' },
      { pointer: '/mode', message: 'must be one of ["a","b"]' },
    ]);
    expect(v({ user: { name: 'n' } })).toBeNull();
  });

  it('checks a pattern in time linear in the value: nested quantifiers hold no thread', () => {
    // backtracking "^(a+)+$" on 40 "a"s and a "!" takes days; this case would never end
    const v = new ValidatorCache().forSchema({
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+x+)+y$': { type: 'string' } },
    });
    expect(v({ name: `${'a'.repeat(40)}!` })).toEqual([{ pointer: '/name', message: 'must match pattern "^(a+)+$"' }]);
    expect(v({ name: 'aaaa', [`${'x'.repeat(40)}z`]: 1 })).toBeNull();
    expect(v({ name: 'aaaa', xxy: 1 })).toEqual([{ pointer: '/xxy', message: 'must be string' }]);
  });

  it('counts a required property as given only when the arguments hold it, not when every object inherits it', () => {
    const v = new ValidatorCache().forSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['constructor'] });
    expect(v({})).toEqual([{ pointer: '/constructor', message: 'is required' }]);
    expect(v({ constructor: 'x' })).toBeNull();
    const proto = new ValidatorCache().forSchema({ type: 'object', required: ['__proto__'] });
    expect(proto({})).toEqual([{ pointer: '/__proto__', message: 'is required' }]);
  });

  it('keeps ECMAScript patterns RE2 cannot express (lookaround, backreferences)', () => {
    const v = new ValidatorCache().forSchema({
      type: 'object',
      properties: { user: { type: 'string', pattern: '^(?!admin$)[a-z]+$' }, pair: { type: 'string', pattern: '^(\\w)\\1$' } },
    });
    expect(v({ user: 'alice', pair: 'aa' })).toBeNull();
    expect(v({ user: 'admin', pair: 'ab' })?.map((p) => p.pointer)).toEqual(['/user', '/pair']);
  });

  it('takes 2020-12 schemas (and no $schema) with Ajv2020', () => {
    const cache = new ValidatorCache();
    const v = cache.forSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      dependentRequired: { a: ['b'] },
      $defs: { unused: { type: 'string' } },
    });
    expect(v({ pair: ['x', 1] })).toBeNull();
    expect(v({ pair: ['x', 1, 2] })).not.toBeNull();
    expect(v({ a: 1 })).toEqual([{ pointer: '', message: 'must have property b when property a is present' }]);
  });

  it('takes draft-07 schemas with the draft-07 class', () => {
    const cache = new ValidatorCache();
    const v = cache.forSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
      dependencies: { a: ['b'] },
    });
    expect(v({ pair: ['x', 1] })).toBeNull();
    expect(v({ pair: ['x', 'y'] })).toEqual([{ pointer: '/pair/1', message: 'must be number' }]);
    expect(v({ a: 1 })).not.toBeNull();
  });

  it('tolerates draft-04 idioms and vendor keywords', () => {
    const cache = new ValidatorCache();
    const v = cache.forSchema({
      $schema: 'http://json-schema.org/draft-04/schema#',
      id: 'urn:tool',
      type: 'object',
      properties: {
        n: { type: 'number', minimum: 0, exclusiveMinimum: true, 'x-bfcl-type': 'float', optional: true },
        m: { type: 'number', maximum: 10, exclusiveMaximum: false },
      },
    });
    expect(v({ n: 0 })).toEqual([{ pointer: '/n', message: 'must be > 0' }]);
    expect(v({ n: 0.5, m: 10 })).toBeNull();
  });

  it('falls back to draft-07 when a schema without $schema is draft-07 only', () => {
    const cache = new ValidatorCache();
    const v = cache.forSchema({ type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } });
    expect(v({ t: [1] })).toEqual([{ pointer: '/t/0', message: 'must be string' }]);
  });

  it('lets a schema no draft accepts through, and reports it once', () => {
    const problems: CompileProblem[] = [];
    const cache = new ValidatorCache(100, (p) => problems.push(p));
    const broken = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };
    expect(cache.forTool(S1, 'b', broken)({ a: 1 })).toBeNull();
    expect(cache.forTool(S2, 'b', broken)({ a: 1 })).toBeNull();
    expect(problems).toHaveLength(1);
  });

  it('accepts repeated and unparsable root $id values', () => {
    const cache = new ValidatorCache();
    cache.forSchema({ $id: 'urn:x', type: 'object', properties: { a: { type: 'string' } } });
    const v = cache.forSchema({ $id: 'urn:x', type: 'object', properties: { a: { type: 'number' } } });
    expect(v({ a: 'x' })).toEqual([{ pointer: '/a', message: 'must be number' }]);
  });

  it('keeps the cache bounded', () => {
    const cache = new ValidatorCache(2);
    for (let i = 0; i < 5; i++) cache.forTool(S1, `t${i}`, { type: 'object', properties: { [`p${i}`]: { type: 'string' } } });
    cache.forTool(S1, 't0', { type: 'object', properties: { p0: { type: 'string' } } });
    expect(cache.compiled).toBe(6);
  });
});

describe('fromDraft04', () => {
  it('rewrites boolean exclusive bounds and drops id, recursively', () => {
    expect(
      fromDraft04({
        id: 'x',
        properties: { id: { type: 'string' }, n: { minimum: 1, exclusiveMinimum: true } },
        items: [{ maximum: 3, exclusiveMaximum: true }],
      }),
    ).toEqual({ properties: { id: { type: 'string' }, n: { exclusiveMinimum: 1 } }, items: [{ exclusiveMaximum: 3 }] });
  });
});
