import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedIndex, parseRecord, renderIndex } from './decisions-index';

describe('the decision records index', () => {
  it('lists every record as the records say (run tools/docs/decisions-index.ts after adding one)', () => {
    expect(readFileSync(join(import.meta.dirname, '../../docs/decisions/README.md'), 'utf8')).toBe(expectedIndex());
  });

  it('refuses a record without its Status or Area line, naming the file', () => {
    expect(() => parseRecord('x.md', '# An idea\n- Area: search\n')).toThrow(/x\.md: a record needs/);
    expect(() => parseRecord('y.md', '# An idea\n- Status: kept\n')).toThrow(/y\.md/);
  });

  it('groups by area and links each record by its file, marking the dropped ones', () => {
    const text = renderIndex([
      { file: 'b.md', title: 'Second', status: 'dropped', area: 'search' },
      { file: 'a.md', title: 'First', status: 'kept', area: 'mapper', date: '2026-12-01' },
    ]);
    expect(text.indexOf('## mapper')).toBeLessThan(text.indexOf('## search'));
    expect(text).toContain('- [a](a.md)\n');
    expect(text).toContain('- [b](b.md) (dropped)\n');
  });
});
