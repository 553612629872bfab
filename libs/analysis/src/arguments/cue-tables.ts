/**
 * Tables of cue words whose entries are rules of their own: a synonym ("hillbilly" for country), a
 * word that ends an item's name, a link word between a name and its value. Each table is named
 * (`module.table`) and says where its entries came from, and each entry can be left out on its own
 * and put back, so that tools/mapper/ablate-entries.ts measures what every entry gains on each
 * half of the dev data, as ablate-scores.ts does for scores. Modules read the tables as plain
 * `ReadonlySet`s and prototype-free records: leaving entries out is for those scripts alone.
 */

interface Registered {
  readonly source: string;
  readonly keys: readonly string[];
  drop(key: string): boolean;
  restore(): void;
}

const TABLES = new Map<string, Registered>();

function register(name: string, table: Registered): void {
  if (TABLES.has(name)) throw new Error(`cue table "${name}" is defined twice`);
  if (!/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/.test(name)) throw new Error(`cue table "${name}" is no module.table name`);
  TABLES.set(name, table);
}

/** A set of cue words named `name`, whose words came from `source` ('hand-set', a standard…). */
export function cueSet(name: string, source: string, words: readonly string[]): ReadonlySet<string> {
  const set = new Set(words);
  register(name, {
    source,
    keys: [...set],
    drop: (w) => set.delete(w),
    restore: () => {
      // (cleared and refilled, so that the set iterates in its written order again)
      set.clear();
      for (const w of words) set.add(w);
    },
  });
  return set;
}

/** A prototype-free table of cue words by key, named `name`, whose entries came from `source`. */
export function cueTable<T>(name: string, source: string, entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  const table = Object.assign(Object.create(null) as Record<string, T>, entries);
  register(name, {
    source,
    keys: Object.keys(entries),
    drop: (k) => Object.hasOwn(table, k) && delete table[k],
    restore: () => {
      for (const k of Object.keys(table)) delete table[k];
      Object.assign(table, entries);
    },
  });
  return table;
}

/** Every registered cue table: its name, source and keys (a set's words), in registration order. */
export function cueTables(): { name: string; source: string; keys: readonly string[] }[] {
  return [...TABLES].map(([name, t]) => ({ name, source: t.source, keys: t.keys }));
}

/** Leaves the given entries out of their tables (by table name) until restoreCueEntries. */
export function dropCueEntries(entries: Readonly<Record<string, readonly string[]>>): void {
  for (const [name, keys] of Object.entries(entries)) {
    const t = TABLES.get(name);
    if (t === undefined) throw new Error(`no cue table named "${name}"`);
    for (const k of keys) if (!t.drop(k)) throw new Error(`cue table "${name}" has no entry "${k}"`);
  }
}

/** Puts every table back as written. */
export function restoreCueEntries(): void {
  for (const t of TABLES.values()) t.restore();
}
