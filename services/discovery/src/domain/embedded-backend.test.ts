import { describe, expect, it } from 'vitest';
import type { BoundToolDefinition } from '@toolsurface/core';
import { EmbeddedBackend } from './embedded-backend';

function catalog(n: number, topic: string): BoundToolDefinition[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `${topic}_tool_${i}`,
    description: `${i % 2 === 0 ? 'Get' : 'List'} the ${topic} report number ${i} for a city, with its details.`,
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
    capability: 'test',
    originalName: `${topic}_tool_${i}`,
  }));
}

/** Turns of the event loop until `done`, at most `max`. */
async function turns(done: () => boolean, max = 10_000): Promise<number> {
  let n = 0;
  while (!done() && n < max) {
    await new Promise((r) => setImmediate(r));
    n++;
  }
  return n;
}

describe('EmbeddedBackend background work', () => {
  it('readies a new snapshot between requests, one slice a turn, without changing any result', async () => {
    const warmed = new EmbeddedBackend(4);
    const cold = new EmbeddedBackend(4);
    const tools = catalog(300, 'weather');
    await warmed.index('s1', tools);
    expect(warmed.pendingWarmUps).toBe(1);
    await turns(() => warmed.pendingWarmUps === 0);
    expect(warmed.pendingWarmUps).toBe(0);
    await cold.index('s1', tools);
    for (const q of ['weather report for Paris', 'list weather_tool_7', 'city details'])
      expect(await warmed.search('s1', q, 10)).toEqual(await cold.search('s1', q, 10));
  });

  it('drops the work of a snapshot evicted before it was done, and takes snapshots in turn', async () => {
    const backend = new EmbeddedBackend(1);
    await backend.index('a', catalog(400, 'flight'));
    await backend.index('b', catalog(50, 'stock'));
    // 'a' was evicted by 'b' (one snapshot kept): its work is dropped with it (a queued job would hold
    // the dropped index in memory until its turn), 'b' still gets done
    expect(await backend.isIndexed('a')).toBe(false);
    expect(backend.pendingWarmUps).toBe(1);
    await turns(() => backend.pendingWarmUps === 0);
    expect(backend.pendingWarmUps).toBe(0);
    expect((await backend.search('b', 'stock report', 3)).length).toBe(3);
  });
});

describe('EmbeddedBackend memory bound', () => {
  it('drops the least recently used indexes past maxBytes, keeps the newest however large, and counts what it holds', async () => {
    const probe = new EmbeddedBackend(64, { headRerank: false });
    await probe.index('one', catalog(200, 'weather'));
    const one = probe.heldBytes;
    expect(one).toBeGreaterThan(200 * 4096);
    // room for two such indexes, not three
    const backend = new EmbeddedBackend(64, { headRerank: false, maxBytes: Math.floor(2.5 * one) });
    await backend.index('a', catalog(200, 'weather'));
    await backend.index('b', catalog(200, 'flight'));
    await backend.search('a', 'weather report', 3); // 'a' used: 'b' is now the least recently used
    await backend.index('c', catalog(200, 'stock'));
    expect([await backend.isIndexed('a'), await backend.isIndexed('b'), await backend.isIndexed('c')]).toEqual([true, false, true]);
    expect(backend.heldBytes).toBeLessThanOrEqual(Math.floor(2.5 * one));
    // one index over the bound on its own is still kept: a snapshot in use must stay searchable
    const tiny = new EmbeddedBackend(64, { headRerank: false, maxBytes: 1 });
    await tiny.index('x', catalog(50, 'news'));
    await tiny.index('y', catalog(50, 'music'));
    expect([await tiny.isIndexed('x'), await tiny.isIndexed('y')]).toEqual([false, true]);
    expect((await tiny.search('y', 'music report', 3)).length).toBe(3);
  });
});

describe('EmbeddedBackend indexing a large snapshot', () => {
  it('answers searches of other snapshots while it builds (the build gives the event loop back in slices)', async () => {
    const backend = new EmbeddedBackend(8, { headRerank: false });
    await backend.index('small', catalog(20, 'weather'));
    const answered: string[] = [];
    const building = backend.index('large', catalog(4000, 'invoice')).then(() => answered.push('large indexed'));
    setImmediate(() => void backend.search('small', 'weather report', 3).then((hits) => answered.push(`small: ${hits.length} hits`)));
    await building;
    expect(answered).toEqual(['small: 3 hits', 'large indexed']);
    expect((await backend.search('large', 'invoice report 17', 3)).length).toBe(3);
  });
});
