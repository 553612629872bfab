// The commit convention of CONTRIBUTING.md: a subject of at most 72 characters in the imperative
// mood, a blank line, then a body saying what, why and the figures before and after.

// Verbs a subject often starts with, to catch "Added"/"Adds"/"Adding" for "Add".
const VERBS = [
  'add',
  'allow',
  'bound',
  'bump',
  'cache',
  'check',
  'clean',
  'count',
  'cut',
  'document',
  'drop',
  'enforce',
  'explain',
  'fix',
  'give',
  'handle',
  'improve',
  'keep',
  'let',
  'limit',
  'list',
  'make',
  'map',
  'measure',
  'merge',
  'move',
  'name',
  'parse',
  'print',
  'read',
  'record',
  'refactor',
  'refuse',
  'remove',
  'rename',
  'replace',
  'report',
  'run',
  'say',
  'set',
  'show',
  'skip',
  'speed',
  'split',
  'start',
  'stop',
  'support',
  'test',
  'tidy',
  'trim',
  'turn',
  'update',
  'use',
  'write',
];
const NOT_IMPERATIVE = new Set(
  VERBS.flatMap((v) => [
    `${v}s`,
    `${v}es`,
    `${v}ed`,
    `${v}d`,
    `${v}ing`,
    `${v.replace(/e$/, '')}ing`,
    `${v}${v.at(-1)}ed`,
    `${v}${v.at(-1)}ing`,
  ]),
);

/** @type {import('@commitlint/types').UserConfig} */
export default {
  plugins: [
    {
      rules: {
        'subject-imperative': ({ header }) => {
          const first = (header ?? '').split(/\s+/)[0].toLowerCase();
          return [!NOT_IMPERATIVE.has(first), `start the subject with a verb in the imperative ("Add", not "${first}")`];
        },
      },
    },
  ],
  rules: {
    'header-max-length': [2, 'always', 72],
    'header-min-length': [2, 'always', 10],
    'header-full-stop': [2, 'never', '.'],
    'subject-imperative': [2, 'always'],
    'body-leading-blank': [2, 'always'],
    'body-empty': [2, 'never'],
  },
};
