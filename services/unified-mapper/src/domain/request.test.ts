import { QUERY_MAX_CHARS, ReasonCode } from '@toolsurface/core';
import { describe, expect, it } from 'vitest';
import { checkRequest, CONTEXT_MAX_BYTES, PREFERRED_MAX } from './request';

/** The reason code and message `f` throws, or undefined when it does not. */
function refusal(f: () => unknown): { code: string; message: string } | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message };
  }
}

describe('checkRequest (MapRequest input, written by the model)', () => {
  it('takes a request with a JSON object or JSON string context and preferred tools', () => {
    expect(checkRequest('read notes', '{"path":"a.txt"}', ['read_text_file'])).toEqual({
      request: 'read notes',
      context: { path: 'a.txt' },
      preferredTools: ['read_text_file'],
    });
    expect(checkRequest('read notes', '"the notes folder"', undefined).context).toBe('the notes folder');
    expect(checkRequest('read notes', '', undefined).context).toBeUndefined();
  });

  it.each([
    ['an empty request', () => checkRequest('  ', '', [])],
    ['a request longer than the services take', () => checkRequest('x'.repeat(QUERY_MAX_CHARS + 1), '', [])],
    ['context that is not JSON', () => checkRequest('r', '{oops', [])],
    ['context that is a JSON array', () => checkRequest('r', '[1]', [])],
    ['context over its size', () => checkRequest('r', JSON.stringify('x'.repeat(CONTEXT_MAX_BYTES)), [])],
    ['preferred tools that are not strings', () => checkRequest('r', '', [1])],
    [
      'too many preferred tools',
      () =>
        checkRequest(
          'r',
          '',
          Array.from({ length: PREFERRED_MAX + 1 }, (_, i) => `t${i}`),
        ),
    ],
  ])('refuses %s as INVALID_ARGUMENTS, saying what to fix', (_what, f) => {
    const r = refusal(f);
    expect(r?.code).toBe(ReasonCode.INVALID_ARGUMENTS);
    expect(r?.message.length).toBeGreaterThan(10);
  });

  it('counts a request in code points, as JSON Schema maxLength does', () => {
    const emoji = '😀'.repeat(QUERY_MAX_CHARS);
    expect(checkRequest(emoji, '', []).request).toBe(emoji);
  });
});
