import fc from 'fast-check';
import { PRINCIPAL_ID_PATTERN } from '@toolsurface/core';

// fast-check arbitraries of bad input for the fuzz suite (test/e2e/fuzz.e2e.test.ts). Each one says
// what makes its values bad, so a property can state the error it expects.

/** Characters that break naive handling: NUL, controls, bidi and zero-width marks, NATS subject tokens, quotes. */
export const SPECIAL_CHARS = [
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\n',
  '\r\n',
  '\t',
  '\u200b',
  '\u200d',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\u00a0',
  '\u3000',
  '\ud83d\ude00',
  '.',
  '*',
  '>',
  ':',
  '/',
  '\\',
  '..',
  '%',
  '$',
  '{',
  '}',
  '"',
  "'",
  '`',
  '<',
  '&',
  ' ',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_CHARS) },
);

/** Short strings over ASCII, all of Unicode, lone surrogates and SPECIAL_CHARS. */
export function text(maxLength = 40, minLength = 0): fc.Arbitrary<string> {
  return fc.string({ unit, minLength, maxLength });
}

/**
 * A string of `min`..`max` characters (code points, as JSON Schema's maxLength counts them; an
 * emoji is two UTF-16 units), built by repetition so it is cheap to generate even at megabytes.
 */
export function hugeText(min: number, max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.integer({ min, max }), fc.constantFrom('x', 'é', '\u0000', '🙂', ' ', '\ufffd')).map(([n, c]) => c.repeat(n));
}

/**
 * ASCII then emoji: wherever a message cuts such a string to N UTF-16 units (slice(0, N)), some of
 * these leave half of a surrogate pair at the end.
 */
export const emojiAfterAscii: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 200 }), fc.constantFrom('🙂', '𝔁', '👍🏽'), text(8))
  .map(([ascii, emoji, e, tail]) => 'a'.repeat(ascii) + e.repeat(emoji) + tail);

/** Mostly short strings, sometimes empty, sometimes cut-prone emoji runs, sometimes 1-300 K characters. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: text(60) },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: emojiAfterAscii },
  { weight: 1, arbitrary: hugeText(1000, 300_000) },
);

/** Whitespace that String.prototype.trim removes: non-empty, yet blank. */
export const blankText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(
    ' ',
    '\t',
    '\n',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2003',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
  ),
  minLength: 1,
  maxLength: 20,
});

/** Principal IDs that break PRINCIPAL_ID_PATTERN: empty, too long, or with a character outside [A-Za-z0-9_-]. */
export const badPrincipalId: fc.Arbitrary<string> = fc
  .oneof(
    text(40),
    fc.constant(''),
    fc.integer({ min: 129, max: 5000 }).map((n) => 'a'.repeat(n)),
    fc
      .tuple(
        fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/),
        fc.constantFrom(...SPECIAL_CHARS, 'é', 'İ', 'а'),
        fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/),
      )
      .map(([a, c, b]) => a + c + b),
    hugeText(1000, 100_000),
  )
  .filter((id) => !PRINCIPAL_ID_PATTERN.test(id));

/** Principal IDs that match the pattern (for requests made bad by another field). */
export const goodPrincipalId: fc.Arbitrary<string> = fc.stringMatching(/^fuzz-[A-Za-z0-9_-]{1,20}$/);

/** An out-of-range value of a protobuf enum whose largest value is `max` (int32 on the wire). */
export function badEnum(max: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: max + 1, max: max + 10 }),
    fc.integer({ min: max + 11, max: 2 ** 31 - 1 }),
    fc.integer({ min: -(2 ** 31), max: -1 }),
  );
}

// Look-alikes of Latin letters and of "-" and "_" (Cyrillic, Greek, fullwidth, dashes).
const CONFUSABLES: Record<string, string[]> = {
  a: ['а', 'ɑ', 'α'],
  c: ['с', 'ϲ'],
  e: ['е', 'ё', 'é'],
  i: ['і', 'ı', 'í'],
  l: ['ӏ', '1', 'I'],
  o: ['о', 'ο', '0'],
  p: ['р', 'ρ'],
  s: ['ѕ'],
  x: ['х', '×'],
  y: ['у'],
  t: ['т'],
  d: ['ԁ'],
  m: ['м'],
  n: ['п'],
  r: ['г'],
  '-': ['‐', '‑', '–', '_', '−'],
  _: ['＿', '-', ' ', '‗'],
};
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u0000', '\u0301'];
const PREFIXES = [
  'functions.',
  'tools/',
  'mcp__',
  'everything.',
  'filesystem.',
  'memory.',
  'x',
  '_',
  ' ',
  '\t',
  '/',
  'system.',
  'discovery.',
];
const SUFFIXES = ['s', '_', '()', '.', '_v2', ' ', '\n', '\u0000', '*', '?', '/', '.json', ':latest'];

type Mutation = (name: string, r: number) => string;
const at = (s: string, r: number) => (s.length === 0 ? 0 : r % s.length);
const MUTATIONS: Mutation[] = [
  (n) => n.toUpperCase(),
  (n) => n.charAt(0).toUpperCase() + n.slice(1),
  (n, r) => {
    const i = at(n, r);
    const c = n.charAt(i);
    return n.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + n.slice(i + 1);
  },
  (n, r) => PREFIXES[r % PREFIXES.length] + n,
  (n, r) => n + SUFFIXES[r % SUFFIXES.length],
  (n, r) => ` ${n}${' '.repeat(r % 3)}`,
  (n, r) => {
    const i = at(n, r);
    return n.slice(0, i) + INVISIBLE[r % INVISIBLE.length] + n.slice(i);
  },
  (n, r) => {
    // Replaces the first confusable-able character at or after r with a look-alike.
    for (let k = 0; k < n.length; k++) {
      const i = (r + k) % n.length;
      const alts = CONFUSABLES[n.charAt(i)];
      if (alts) return n.slice(0, i) + alts[r % alts.length] + n.slice(i + 1);
    }
    return `${n}\u200b`;
  },
  (n) => n.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  (n) => n.slice(0, -1),
  (n) => n.slice(1),
  (n, r) => {
    const i = at(n, r);
    return n.slice(0, i) + n.charAt(i) + n.slice(i);
  },
  (n, r) => {
    const i = at(n, r);
    return n.slice(0, i) + n.slice(i + 1);
  },
  (n) => n.replace(/[_-]/g, (c) => (c === '_' ? '-' : '_')),
  (n) => n.replace(/[_-]/g, ''),
  (n) => n.normalize('NFD').replace(/e/g, 'e\u0301'),
  (n, r) => n.repeat(2 + (r % 2)),
  (n, r) => `${n}${'x'.repeat(250 + (r % 20))}`,
];

/**
 * Names near real ones (case changes, whitespace, invisible and look-alike characters, prefixes,
 * suffixes, typos) that are none of `reserved`: calling them must never reach a real tool.
 */
export function nearName(names: readonly string[], reserved: ReadonlySet<string>): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...names), fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat()), { minLength: 1, maxLength: 3 }))
    .map(([n, ms]) => ms.reduce((acc, [m, r]) => m(acc, r), n))
    .filter((n) => n !== '' && !reserved.has(n));
}

/** JSON text that JSON.parse refuses: truncated, corrupted, or not JSON at all. */
export const malformedJson: fc.Arbitrary<string> = fc
  .oneof(
    fc.tuple(fc.json({ maxDepth: 3 }), fc.nat()).map(([j, r]) => j.slice(0, Math.max(1, j.length - 1 - (r % Math.max(1, j.length))))),
    fc
      .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.constantFrom(',', '{', ']', '"', ':', '\u0000', 'undefined', "'", '/*', 'NaN', '\\'))
      .map(([j, r, c]) => {
        const i = r % (j.length + 1);
        return j.slice(0, i) + c + j.slice(i);
      }),
    fc.constantFrom(
      '{',
      '}',
      '[',
      '{"a":}',
      '{"a" 1}',
      "{'a': 1}",
      '{a: 1}',
      '[1,]',
      '{"a":1,}',
      'undefined',
      'NaN',
      'Infinity',
      '-',
      '01',
      '"\\x"',
      '"\u0000"',
      '{"a":"\n"}',
      '\u0000',
      '{"a":1}}',
      'nul',
      'tru',
      '{"__proto__":',
    ),
    text(30),
  )
  .filter((s) => {
    if (s.trim() === '') return false;
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  });

/** JSON values that are not objects: arrays, strings, numbers, booleans, null (never blank text). */
export const nonObjectJson: fc.Arbitrary<string> = fc
  .oneof(
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  )
  .map((v) => JSON.stringify(v));

/** Whatever fc.anything gives, as JSON text (undefined, functions and the like give "undefined", which is not JSON). */
export const anythingAsJson: fc.Arbitrary<string> = fc.anything({ maxDepth: 3 }).map((v) => {
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return 'undefined';
  }
});

/** Objects or arrays nested `minDepth`..`maxDepth` levels deep, as JSON text, optionally under a key. */
export function deepJson(minDepth: number, maxDepth: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: minDepth, max: maxDepth }), fc.boolean())
    .map(([d, arrays]) => (arrays ? `${'['.repeat(d)}${']'.repeat(d)}` : `${'{"a":'.repeat(d - 1)}{}${'}'.repeat(d - 1)}`));
}

/** A JSON value of any type but `type` (a JSON Schema type name); for "number", integers are numbers too. */
export function notOfType(type: string): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: text(20),
    integer: fc.integer(),
    fraction: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    object: fc.dictionary(text(8), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  };
  const excluded: Record<string, string[]> = {
    number: ['integer', 'fraction'],
    integer: ['integer'],
    string: ['string'],
    boolean: ['boolean'],
    null: ['null'],
    array: ['array'],
    object: ['object'],
  };
  const keep = Object.entries(all).filter(([k]) => !(excluded[type] ?? []).includes(k));
  return fc.oneof(...keep.map(([, a]) => a));
}

/** Keys for extra fields: random ones and the prototype's own names. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  text(12, 1),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '$schema', 'arguments', 'name ', 'Name', 'NAME'),
);
