import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonArraySliced, SLICED_MIN_LENGTH } from './sliced-json';

/** What JSON.parse gives for a text, or the kind of error it throws. */
function parsed(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

/** parseJsonArraySliced of any text, the short ones included (minLength 0). */
async function sliced(text: string, sliceMs?: number): Promise<{ value: unknown } | { error: string }> {
  try {
    return { value: await parseJsonArraySliced(text, sliceMs, 0) };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

describe('parseJsonArraySliced', () => {
  it('gives what JSON.parse gives for any JSON array, compact or spaced, and any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue()), fc.constantFrom(undefined, 1, '\t'), async (values, space) => {
        const text = JSON.stringify(values, null, space);
        expect(await sliced(text, 0)).toEqual(parsed(text));
      }),
      { numRuns: 300 },
    );
    for (const text of [
      '[]',
      ' [ ] ',
      '[1]',
      '["a,b", "c]d", "e\\"f,]"]',
      '[{"a":[1,{"b":"}"}]},2]',
      '"x"',
      '{"a":1}',
      '3',
      'null',
      ' [null] \n',
    ]) {
      expect(await sliced(text), text).toEqual(parsed(text));
    }
  });

  it('refuses, with a SyntaxError, every text JSON.parse refuses: cut, spliced, or not JSON at all', async () => {
    // (JavaScript's whitespace that JSON's is not: no-break space, BOM, line separator, vertical tab, form feed)
    for (const text of [
      '',
      ' ',
      '[',
      '[1,]',
      '[,1]',
      '[1,,2]',
      '[1 2]',
      '[{]}',
      '[[1},2]',
      '[1]x',
      '[1]]',
      '["unterminated]',
      '[}',
      '[{"a":1,}]',
      '[\u00a0]',
      '[\ufeff]',
      '[\u2028]',
      '[\v]',
      '[\f]',
      '[1,\u00a0]',
    ]) {
      expect(await sliced(text), text).toEqual({ error: 'SyntaxError' });
      expect(parsed(text), text).toEqual({ error: 'SyntaxError' });
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { minLength: 1 }), fc.nat(), fc.string({ maxLength: 2 }), async (values, at, insert) => {
        const text = JSON.stringify(values);
        const p = at % (text.length + 1);
        const broken = text.slice(0, p) + insert + text.slice(p + 1);
        const a = await sliced(broken, 0);
        const b = parsed(broken);
        expect('error' in a, broken).toBe('error' in b);
        if ('value' in b) expect(a).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the event loop back while it parses a large array: work queued after it starts runs before it ends', async () => {
    const text = JSON.stringify(
      Array.from({ length: 40_000 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Does thing ${i}, with "quotes" and [brackets], {braces}.`,
        inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
      })),
    );
    const ran: string[] = [];
    expect(text.length).toBeGreaterThan(SLICED_MIN_LENGTH);
    const parsing = parseJsonArraySliced(text, 1).then((v) => ran.push(`parsed ${(v as unknown[]).length}`));
    setImmediate(() => ran.push('other request'));
    await parsing;
    expect(ran).toEqual(['other request', 'parsed 40000']);
  });
});
