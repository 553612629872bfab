// The contract every SearchBackend meets (embedded index, Meilisearch): vitest cases defined by
// backendContract(), run from backend-contract.test.ts (and, against a fake server, from
// meilisearch-backend.test.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundToolDefinition } from '@toolsurface/core';
import type { SearchBackend } from '../domain/discovery';

/** A fresh, well-formed snapshot id (content is irrelevant to a backend). */
export function randomSnapshotId(): string {
  return `snap_${randomBytes(32).toString('hex')}`;
}

/** A bound tool for the fixtures. */
export function tool(name: string, description: string, extra: Partial<BoundToolDefinition> = {}): BoundToolDefinition {
  return { name, description, inputSchema: { type: 'object', properties: {} }, capability: 'test', originalName: name, ...extra };
}

/** Snapshot A: names that overlap with B, near-duplicates around exact names, a title, dotted names. */
export const SNAPSHOT_A_TOOLS: readonly BoundToolDefinition[] = [
  tool('get_weather', 'Current conditions for one city.', {
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  }),
  tool('get_weather_forecast', 'Get weather forecast: get the weather for the next days, get weather by city, get weather by coordinates.'),
  tool('weather_alerts', 'Severe weather alerts for a region; use it to get weather warnings.'),
  tool('send_email', 'Send an email message to a recipient.', {
    inputSchema: { type: 'object', properties: { to: { type: 'string', description: 'Recipient address' }, body: { type: 'string' } } },
  }),
  tool('math.factorial', 'Computes n! for a non-negative integer n.'),
  tool('stats.permutations', 'Number of ordered arrangements: the factorial of n divided by the factorial of n minus k, using factorial.'),
  tool('factorial_table', 'A table of factorial values from 1 to n.'),
  tool('fx_convert_v2', 'Converts an amount between two ISO 4217 codes.', { title: 'Currency Converter' }),
  tool('convert_currency', "Currency converter: convert an amount of money from one currency into another currency at today's rate."),
  tool('currency_rates', 'Latest currency exchange rates for a base currency; feeds any currency converter.'),
];

/** Snapshot B: shares `get_weather` with A (different text), plus tools A does not have. */
export const SNAPSHOT_B_TOOLS: readonly BoundToolDefinition[] = [
  tool('get_weather', 'Weather as the zephyr station reports it.'),
  tool('create_invoice', 'Create an invoice for a customer and email it.'),
  tool('refund_payment', 'Refund a card payment.'),
];

const B_ONLY = ['create_invoice', 'refund_payment'];

/** Queries that must never throw nor reach outside the snapshot. `%B%` is replaced by snapshot B's id. */
export const HOSTILE_QUERIES: readonly string[] = [
  'snapshot_id = "x" OR 1=1',
  'snapshot_id = "%B%" OR snapshot_id EXISTS',
  'create_invoice") OR (snapshot_id != "',
  'refund_payment OR create_invoice',
  'create_invoice',
  `' OR '1'='1`,
  '_rankingScore > 0',
  '.*',
  '^get_.*$',
  '(?:a|b)+',
  '[',
  '\\',
  '"',
  '"unterminated phrase',
  '-weather',
  '*',
  '%',
  '_',
  'NOT weather',
  'weather AND NOT email',
  '{"q":"*","filter":null}',
  '<script>alert(1)</script>',
  '天气 预报',
  'Wetter für München',
  '🔥🌦️📧',
  '\u0000\u0007\u001b weather',
  '\ud800 lone surrogate \udc00',
  'e\u0301te\u0301',
  '   weather   ',
  '0',
  '-1',
  'null',
  'a'.repeat(4000),
  'weather '.repeat(500),
];

export interface BackendContractOptions {
  /** Runs after the suite (drop a test index…). */
  teardown?: () => Promise<void> | void;
}

/** Defines the SearchBackend contract cases for one backend; `makeBackend` runs once, before them. */
export function backendContract(
  name: string,
  makeBackend: () => SearchBackend | Promise<SearchBackend>,
  options: BackendContractOptions = {},
): void {
  describe(`SearchBackend contract: ${name}`, () => {
    let backend: SearchBackend;
    const A = randomSnapshotId();
    const B = randomSnapshotId();
    const aNames = new Set(SNAPSHOT_A_TOOLS.map((t) => t.name));
    const bNames = new Set(SNAPSHOT_B_TOOLS.map((t) => t.name));
    const names = async (snapshotId: string, query: string, limit = 10): Promise<string[]> =>
      (await backend.search(snapshotId, query, limit)).map((h) => h.name);

    beforeAll(async () => {
      backend = await makeBackend();
      await backend.init?.();
      await backend.index(A, SNAPSHOT_A_TOOLS);
      await backend.index(B, SNAPSHOT_B_TOOLS);
    });
    afterAll(async () => {
      await options.teardown?.();
    });

    it('returns results only from the named snapshot (two snapshots with overlapping names)', async () => {
      const inA = await names(A, 'create an invoice for a customer');
      expect(inA.filter((n) => !aNames.has(n))).toEqual([]);
      const inB = await names(B, 'invoice');
      expect(inB[0]).toBe('create_invoice');
      expect(inB.filter((n) => !bNames.has(n))).toEqual([]);
      // B's get_weather is the only tool that says "zephyr": A must not find it through its shared name.
      expect(await names(A, 'zephyr')).toEqual([]);
      expect(await names(B, 'zephyr')).toEqual(['get_weather']);
      expect((await names(B, 'factorial')).filter((n) => !bNames.has(n))).toEqual([]);
      for (const n of await names(A, 'weather')) expect(aNames.has(n)).toBe(true);
    });

    it('ranks a tool first when the query is its exact name', async () => {
      expect((await names(A, 'get_weather'))[0]).toBe('get_weather');
      expect((await names(A, 'get weather'))[0]).toBe('get_weather');
      expect((await names(A, 'send_email'))[0]).toBe('send_email');
      expect((await names(A, 'convert_currency'))[0]).toBe('convert_currency');
    });

    it('ranks a tool first when the query is the last segment of its dotted name', async () => {
      expect((await names(A, 'factorial'))[0]).toBe('math.factorial');
      expect((await names(A, 'permutations'))[0]).toBe('stats.permutations');
    });

    it('ranks a tool first when the query is its title', async () => {
      expect((await names(A, 'Currency Converter'))[0]).toBe('fx_convert_v2');
      expect((await names(A, 'currency converter'))[0]).toBe('fx_convert_v2');
    });

    it('makes a snapshot searchable as soon as index() resolves', async () => {
      const C = randomSnapshotId();
      expect(await backend.isIndexed(C)).toBe(false);
      await backend.index(C, [tool('zz_probe', 'Measures the quasar flux.'), tool('other_tool', 'Does something else.')]);
      expect(await backend.isIndexed(C)).toBe(true);
      expect(await names(C, 'quasar flux')).toContain('zz_probe');
      expect((await names(C, 'zz_probe'))[0]).toBe('zz_probe');
    });

    it('index() is idempotent (again, and concurrently)', async () => {
      const D = randomSnapshotId();
      const tools = SNAPSHOT_A_TOOLS.slice(0, 4);
      await backend.index(D, tools);
      const first = await names(D, 'weather');
      expect(first.length).toBeGreaterThan(0);
      await backend.index(D, tools);
      await Promise.all([backend.index(D, tools), backend.index(D, tools)]);
      const again = await names(D, 'weather');
      expect(again).toEqual(first);
      expect(new Set(again).size).toBe(again.length);
      expect(await backend.isIndexed(D)).toBe(true);
    });

    it('indexes an empty snapshot, which finds nothing', async () => {
      const E = randomSnapshotId();
      await backend.index(E, []);
      expect(await backend.isIndexed(E)).toBe(true);
      expect(await names(E, 'weather')).toEqual([]);
      expect(await backend.isIndexed(E)).toBe(true);
    });

    it('respects the limit', async () => {
      const F = randomSnapshotId();
      const tools = Array.from({ length: 30 }, (_, i) => tool(`file_op_${i}`, `Operates on a file, variant ${i}.`));
      await backend.index(F, tools);
      expect(await names(F, 'file', 1)).toHaveLength(1);
      expect(await names(F, 'file', 5)).toHaveLength(5);
      const all = await names(F, 'file', 50);
      expect(all.length).toBeGreaterThan(5);
      expect(all.length).toBeLessThanOrEqual(30);
      expect(new Set(all).size).toBe(all.length);
      expect((await names(A, 'weather', 2)).length).toBeLessThanOrEqual(2);
    });

    it('takes any query string without throwing, and never widens results beyond the snapshot', async () => {
      for (const raw of HOSTILE_QUERIES) {
        const query = raw.replaceAll('%B%', B);
        const label = `query ${JSON.stringify(query.slice(0, 60))}`;
        const hits = await backend.search(A, query, 10);
        expect(hits.length, label).toBeLessThanOrEqual(10);
        expect(
          hits.filter((h) => !aNames.has(h.name) || B_ONLY.includes(h.name)),
          label,
        ).toEqual([]);
        expect(new Set(hits.map((h) => h.name)).size, label).toBe(hits.length);
        for (const h of hits) expect(Number.isFinite(h.score) && h.score >= 0, label).toBe(true);
      }
    });

    it('returns nothing for a snapshot it never indexed', async () => {
      const unknown = randomSnapshotId();
      expect(await backend.isIndexed(unknown)).toBe(false);
      expect(await backend.search(unknown, 'weather', 10)).toEqual([]);
      expect(await backend.search(unknown, 'get_weather', 10)).toEqual([]);
    });
  });
}
