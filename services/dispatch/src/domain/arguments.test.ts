import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH, deeperThan, parseArguments } from './arguments';

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
