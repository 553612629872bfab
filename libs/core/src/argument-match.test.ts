import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admit, type AdmissionPolicy } from './admission';
import { allowMatches, argumentsMatch, denyMatches } from './argument-match';
import { foldSpelling } from './glob';
import { parseConfig } from './config-file';

const agent = { kind: 'agent' as const, id: 'a' };

function policyWith(rule: Partial<AdmissionPolicy['rules'][number]>): AdmissionPolicy {
  return {
    default: 'allow',
    rules: [
      {
        id: 'no-password',
        effect: 'deny',
        principals: ['*'],
        capabilities: ['*'],
        tools: ['*'],
        arguments: { text: '*password*' },
        ...rule,
      },
    ],
  };
}

const decide = (policy: AdmissionPolicy, text: unknown) =>
  admit({ principal: agent, capability: 'notes', tool: 'write_note', arguments: { text }, via: 'direct' }, policy).decision;

describe('foldSpelling', () => {
  it('ignores case, full-width forms, combining marks and invisible characters', () => {
    for (const s of [
      'PASSWORD',
      'ｐａｓｓｗｏｒｄ',
      'ＰＡＳＳＷＯＲＤ',
      'pa\u0301ssword',
      'pa\u0300\u0327ssword',
      'pass\u200bword',
      'pass\u00adword',
    ])
      expect(foldSpelling(s), JSON.stringify(s)).toBe('password');
    expect(foldSpelling('Straße')).toBe(foldSpelling('STRASSE'));
    expect(foldSpelling('ﬁle')).toBe('file');
  });

  it('keeps what folding must not change: ASCII without capitals, and letters of other scripts', () => {
    expect(foldSpelling('/etc/passwd *?')).toBe('/etc/passwd *?');
    // A Cyrillic "а" is another letter, not a spelling of the Latin one (confusables are not mapped).
    expect(foldSpelling('p\u0430ssword')).not.toBe('password');
    expect(foldSpelling('한국어')).toBe('한국어');
  });

  it('is idempotent and blind to case (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const f = foldSpelling(s);
        expect(foldSpelling(f)).toBe(f);
        expect(foldSpelling(s.toUpperCase())).toBe(foldSpelling(s.toLowerCase()));
      }),
    );
  });
});

describe('argument rules that spelling cannot dodge', () => {
  const deny = policyWith({});

  it('a deny rule catches capitals, full-width letters, combining marks and zero-width characters', () => {
    for (const text of ['my PASSWORD', 'my ｐａｓｓｗｏｒｄ', 'my pa\u0301ssword', 'my PaSs\u200bWoRd', 'ＰＡＳＳＷＯＲＤ'])
      expect(decide(deny, text), JSON.stringify(text)).toBe('deny');
    expect(decide(deny, 'my passport')).toBe('allow');
  });

  it('a deny rule catches a value split across array elements, and nested arrays', () => {
    for (const text of [
      ['pass', 'word'],
      ['my PASS', 'WORD'],
      ['p', ['as', ['s']], 'word'],
      ['ｐａｓｓ', 'wo\u0301rd'],
    ])
      expect(decide(deny, text), JSON.stringify(text)).toBe('deny');
    expect(decide(deny, ['pass', 'port'])).toBe('allow');
  });

  it('a deny rule catches the capital sharp S, which case-folds to "ss"', () => {
    for (const text of ['my paẞword', 'MY PAẞWORD', 'my paßword', ['pa', 'ẞ', 'word']])
      expect(decide(deny, text), JSON.stringify(text)).toBe('deny');
  });

  it('a deny rule catches an array joined as JavaScript joins it, nulls as nothing', () => {
    for (const text of [
      ['pass', null, 'word'],
      ['pass', [null], 'word'],
      ['pass', [], 'word'],
    ])
      expect(decide(deny, text), JSON.stringify(text)).toBe('deny');
  });

  it('a path deny rule catches the folder with a trailing slash', () => {
    for (const path of ['/srv/secret', '/srv/secret/', '/srv/./secret/', '/srv//secret//', '/srv/secret/.'])
      expect(denyMatches('/srv/secret', path, 'folded'), path).toBe(true);
    expect(denyMatches('/srv/secret', '/srv/secrets/', 'folded')).toBe(false);
  });

  it('fails closed on an object inside the value', () => {
    expect(decide(deny, [{ nested: 'anything' }])).toBe('deny');
  });

  it('`match: exact` compares code unit for code unit, case-sensitive', () => {
    const exact = policyWith({ match: 'exact' });
    expect(decide(exact, 'my password')).toBe('deny');
    expect(decide(exact, 'my PASSWORD')).toBe('allow');
    expect(decide(exact, 'my ｐａｓｓｗｏｒｄ')).toBe('allow');
  });

  it('an allow rule is exact by default (admits fewer) and folded when asked', () => {
    expect(allowMatches('/public/*', '/public/a', 'exact')).toBe(true);
    expect(allowMatches('/public/*', '/PUBLIC/a', 'exact')).toBe(false);
    expect(allowMatches('/public/*', '/PUBLIC/a', 'folded')).toBe(true);
    const allowRule = { effect: 'allow' as const, arguments: { path: '/public/*' } };
    expect(argumentsMatch(allowRule, { path: '/PUBLIC/a' })).toBe(false);
    expect(argumentsMatch({ ...allowRule, match: 'folded' }, { path: '/PUBLIC/a' })).toBe(true);
  });

  it('folds before the path step, so a full-width solidus is a slash', () => {
    expect(denyMatches('/etc/passwd', '／etc／./x/../passwd', 'folded')).toBe(true);
    expect(denyMatches('/etc/passwd', '／etc／passwd', 'exact')).toBe(false);
  });

  it('whatever the spelling of a denied word inside a value, a folded deny refuses (property)', () => {
    // Each letter of "password" in some spelling: capital, full-width, or with a combining mark after it.
    const letter = (c: string) =>
      fc.constantFrom(c, c.toUpperCase(), String.fromCodePoint(c.codePointAt(0)! + 0xfee0), `${c}\u0301`, `${c}\u200b`);
    const spelled = fc.tuple(...[...'password'].map(letter)).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        spelled,
        fc.string({ maxLength: 10 }),
        fc.integer({ min: 0, max: 8 }),
        (pre, word, post, cut) => {
          const text = `${pre}${word}${post}`;
          expect(denyMatches('*password*', text, 'folded')).toBe(true);
          // The same text cut in two array elements anywhere.
          const at = Math.min(cut, text.length);
          expect(denyMatches('*password*', [text.slice(0, at), text.slice(at)], 'folded')).toBe(true);
        },
      ),
    );
  });
});

describe('the `match` setting in the config file', () => {
  const doc = (match: string) => `
version: 1
capabilities: {}
principals: []
admission:
  default: allow
  rules:
    - { id: r, effect: deny, arguments: { text: "*password*" }, match: ${match} }
`;

  it('takes folded or exact', () => {
    expect(parseConfig(doc('exact'), '/tmp').admission.rules[0]).toMatchObject({ id: 'r', match: 'exact' });
    expect(parseConfig(doc('folded'), '/tmp').admission.rules[0]).toMatchObject({ match: 'folded' });
  });

  it('refuses anything else, naming the field', () => {
    expect(() => parseConfig(doc('caseless'), '/tmp')).toThrow(/match/);
  });
});
