import { afterEach, describe, expect, it } from 'vitest';
import { cueTables, dropCueEntries, restoreCueEntries } from '../arguments.js';
import { mapArguments } from './map.js';
import { VALUE_SYNONYMS } from './data/enums.js';
import { LINK_WORDS } from './data/words.js';

afterEach(() => restoreCueEntries());

const GENRES = {
  type: 'object',
  properties: { genre: { type: 'string', enum: ['Comedy', 'Drama', 'Action'], description: 'Genre of the movie' } },
  required: ['genre'],
} as const;

describe('cue tables as data', () => {
  it('names every table module.table, with a source and its entries', () => {
    const tables = cueTables();
    expect(tables.length).toBeGreaterThan(10);
    for (const t of tables) {
      expect(t.name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
      expect(t.source).not.toBe('');
      expect(t.keys.length).toBeGreaterThan(0);
    }
    expect(new Set(tables.map((t) => t.name)).size).toBe(tables.length);
  });

  it('leaves an entry out until restored, and the mapping follows', () => {
    const funny = () => mapArguments({ name: 'find_movies', inputSchema: GENRES }, 'Find me a funny movie').arguments.genre;
    expect(funny()).toBe('Comedy');
    dropCueEntries({ 'enums.valueSynonyms': ['comedy'] });
    expect(VALUE_SYNONYMS.comedy).toBeUndefined();
    expect(funny()).toBeUndefined();
    restoreCueEntries();
    expect(VALUE_SYNONYMS.comedy?.words).toContain('funny');
    expect(funny()).toBe('Comedy');
  });

  it('puts a set back in its written order', () => {
    const before = [...LINK_WORDS];
    dropCueEntries({ 'words.linkWords': [before[0], before[3]] });
    expect(LINK_WORDS.has(before[0])).toBe(false);
    restoreCueEntries();
    expect([...LINK_WORDS]).toEqual(before);
  });

  it('refuses an unknown table or entry rather than measuring nothing', () => {
    expect(() => dropCueEntries({ 'enums.noSuchTable': ['x'] })).toThrow(/no cue table named "enums.noSuchTable"/);
    expect(() => dropCueEntries({ 'enums.valueSynonyms': ['noSuchValue'] })).toThrow(/has no entry "noSuchValue"/);
    expect(() => dropCueEntries({ 'words.linkWords': ['noSuchWord'] })).toThrow(/has no entry "noSuchWord"/);
  });

  it('reads a word that is an Object property like any other (no prototype)', () => {
    expect(VALUE_SYNONYMS.constructor).toBeUndefined();
    expect(VALUE_SYNONYMS.toString).toBeUndefined();
  });
});
