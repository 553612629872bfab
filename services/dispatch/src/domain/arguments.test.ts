import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH, argumentsJson, deeperThan, parseArguments } from './arguments';

describe('parseArguments', () => {
  it('refuses arguments nested deeper than the bound, without overflowing the stack', () => {
    const deep = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const r = parseArguments(deep, 1024 * 1024);
    expect(r).toEqual({ ok: false, message: expect.stringContaining(`more than ${MAX_ARGUMENT_DEPTH} levels`) });
  });
  it('accepts arguments at the bound', () => {
    let v: unknown = 1;
    for (let i = 0; i < MAX_ARGUMENT_DEPTH; i++) v = { v };
    expect(parseArguments(JSON.stringify(v), 1024 * 1024).ok).toBe(true);
    expect(deeperThan({ v }, MAX_ARGUMENT_DEPTH)).toBe(true);
  });
});

describe('argumentsJson', () => {
  it('writes arguments at the bound as they are, and ones thousands deep so that parseArguments refuses them', () => {
    let atBound: unknown = 1;
    for (let i = 1; i < MAX_ARGUMENT_DEPTH; i++) atBound = { v: atBound, s: 'x' };
    expect(JSON.parse(argumentsJson({ atBound }))).toEqual({ atBound });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const json = argumentsJson({ deep, flat: 'kept' });
    expect(JSON.parse(json)).toMatchObject({ flat: 'kept' });
    expect(parseArguments(json, 1024 * 1024)).toEqual({
      ok: false,
      message: expect.stringContaining(`more than ${MAX_ARGUMENT_DEPTH} levels`),
    });
    expect(argumentsJson(undefined)).toBe('{}');
  });
});
