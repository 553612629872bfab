import { describe, expect, it } from 'vitest';
import type { PrincipalRef } from '@toolsurface/core';
import { SystemTools, type JournalEntry, type JournalPort } from './system-tools';

class MemoryJournal implements JournalPort {
  readonly entries = new Map<string, JournalEntry[]>();
  async append(p: PrincipalRef, e: JournalEntry) {
    const k = `${p.kind}:${p.id}`;
    this.entries.set(k, [...(this.entries.get(k) ?? []), e]);
  }
  async read(p: PrincipalRef, limit: number) {
    return [...(this.entries.get(`${p.kind}:${p.id}`) ?? [])].reverse().slice(0, limit);
  }
}

describe('SystemTools', () => {
  const alice: PrincipalRef = { kind: 'agent', id: 'alice' };
  it('appends and reads a journal per principal, newest first, as MCP text content', async () => {
    let now = Date.UTC(2025, 0, 1);
    const tools = new SystemTools(new MemoryJournal(), () => now++);
    const saved = await tools.run('journal_append', alice, { entry: 'one', tags: ['x'] });
    expect(saved).toEqual({
      content: [{ type: 'text', text: 'Saved to your journal at 2025-01-01T00:00:00.000Z.' }],
      structuredContent: { saved: { at: '2025-01-01T00:00:00.000Z', tags: ['x'] } },
      isError: false,
    });
    await tools.run('journal_append', alice, { entry: 'two' });
    const read = await tools.run('journal_read', alice, {});
    expect(read.structuredContent).toEqual({
      entries: [
        { at: '2025-01-01T00:00:00.001Z', entry: 'two', tags: [] },
        { at: '2025-01-01T00:00:00.000Z', entry: 'one', tags: ['x'] },
      ],
    });
    expect(JSON.parse((read.content[0] as { text: string }).text)).toEqual(read.structuredContent);
    expect((await tools.run('journal_read', alice, { limit: 1 })).structuredContent).toEqual({
      entries: [{ at: '2025-01-01T00:00:00.001Z', entry: 'two', tags: [] }],
    });
    expect((await tools.run('journal_read', { kind: 'agent', id: 'bob' }, {})).content).toEqual([
      { type: 'text', text: 'Your journal is empty.' },
    ]);
  });
});
