import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module without types: the commitlint config of CONTRIBUTING.md
import config, { imperative } from '../commitlint.config.mjs'; // eslint-disable-line @nx/enforce-module-boundaries -- the repository's own config, in no project

describe('the commit convention (commitlint.config.mjs)', () => {
  it.each(['Add', 'Fix', 'Move', 'Split', 'Embed', 'Bring', 'Process', 'Pass', 'Focus', 'Use', 'Rewrite'])(
    'takes "%s" as an imperative',
    (w) => {
      expect(imperative(w)).toBe(true);
    },
  );

  it.each(['Added', 'Adds', 'Adding', 'Fixes', 'Changed', 'Implemented', 'Made', 'Wrote', 'This', 'Bug', 'fixup!'])('refuses "%s"', (w) => {
    expect(imperative(w)).toBe(false);
  });

  it('holds subjects to 72 characters and asks for a body; only merge commits go unchecked', () => {
    expect(config.rules['header-max-length']).toEqual([2, 'always', 72]);
    expect(config.rules['body-empty']).toEqual([2, 'never']);
    expect(config.defaultIgnores).toBe(false);
    expect(config.ignores.map((f: (m: string) => boolean) => [f('Merge branch x'), f('fixup! Add x'), f('Revert "Add x"')])).toEqual([
      [true, false, false],
    ]);
  });
});
