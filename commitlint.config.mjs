// The commit convention of CONTRIBUTING.md: a subject of at most 72 characters in the imperative
// mood, a blank line, then a body saying what, why and the figures before and after.

// Imperative verbs that end as a past tense, a gerund or a third person would ("Embed", "Bring",
// "Pass"), so the endings below do not refuse them.
const IMPERATIVE_EXCEPTIONS = new Set([
  'embed',
  'exceed',
  'feed',
  'need',
  'proceed',
  'seed',
  'shed',
  'speed',
  'succeed',
  'bring',
  'ping',
  'ring',
  'spring',
  'string',
  'swing',
  'access',
  'address',
  'bias',
  'bypass',
  'discuss',
  'focus',
  'harness',
  'pass',
  'press',
  'process',
  'stress',
]);

/** Whether a subject's first word is a verb in the imperative, as far as its ending tells. */
export function imperative(word) {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w === '' || IMPERATIVE_EXCEPTIONS.has(w)) return true;
  // "Added", "Adding", "Adds", "Fixes", "Made", "Wrote" …
  if (/(?:ed|ing)$/.test(w) || (/s$/.test(w) && !/(?:ss|us|is)$/.test(w))) return false;
  return ![
    'made',
    'wrote',
    'rewrote',
    'built',
    'ran',
    'took',
    'gave',
    'kept',
    'left',
    'sent',
    'this',
    'bug',
    'fixup',
    'squash',
    'wip',
  ].includes(w);
}

/** @type {import('@commitlint/types').UserConfig} */
export default {
  // Only merge commits go unchecked: fixup!, squash!, reverts and version tags are checked too.
  defaultIgnores: false,
  ignores: [(message) => /^Merge /.test(message)],
  plugins: [
    {
      rules: {
        'subject-imperative': ({ header }) => {
          const first = (header ?? '').trim().split(/\s+/)[0] ?? '';
          return [imperative(first), `start the subject with a verb in the imperative ("Add", not "${first}")`];
        },
      },
    },
  ],
  rules: {
    'header-max-length': [2, 'always', 72],
    'header-full-stop': [2, 'never', '.'],
    'subject-imperative': [2, 'always'],
    'body-leading-blank': [2, 'always'],
    'body-empty': [2, 'never'],
    'body-min-length': [2, 'always', 20],
  },
};
