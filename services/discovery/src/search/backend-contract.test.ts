// Runs the SearchBackend contract: the embedded backend always; Meilisearch only where MEILI_URL is set:
//   MEILI_URL=http://127.0.0.1:7700 MEILI_API_KEY=... npx vitest run services/discovery
// Each run uses its own throw-away index (toolsurface_contract_<random>) and deletes it afterwards.
import { randomBytes } from 'node:crypto';
import { Meilisearch } from 'meilisearch';
import { describe, expect, it } from 'vitest';
import { EmbeddedBackend } from '../domain/embedded-backend';
import { backendContract, randomSnapshotId, SNAPSHOT_A_TOOLS } from './backend.contract';
import { MeilisearchBackend } from './meilisearch-backend';

backendContract('embedded', () => new EmbeddedBackend(64));

const url = process.env.MEILI_URL ?? '';
const apiKey = process.env.MEILI_API_KEY ?? '';
if (!url) {
  console.warn(
    'SearchBackend contract: Meilisearch SKIPPED: MEILI_URL is not set (set MEILI_URL and MEILI_API_KEY to run it against a server).',
  );
}

describe.skipIf(!url)('Meilisearch (MEILI_URL)', () => {
  const indexUid = `toolsurface_contract_${randomBytes(6).toString('hex')}`;
  const make = (): MeilisearchBackend => new MeilisearchBackend({ url, apiKey, indexUid });

  backendContract('meilisearch', make, {
    teardown: async () => {
      await new Meilisearch({ host: url, apiKey: apiKey || undefined }).deleteIndexIfExists(indexUid);
    },
  });

  it('counts a snapshot indexed by another replica as indexed', async () => {
    const uid = `${indexUid}_replicas`;
    const one = new MeilisearchBackend({ url, apiKey, indexUid: uid });
    const two = new MeilisearchBackend({ url, apiKey, indexUid: uid });
    try {
      const s = randomSnapshotId();
      expect(await two.isIndexed(s)).toBe(false);
      await one.index(s, SNAPSHOT_A_TOOLS);
      expect(await two.isIndexed(s)).toBe(true);
      expect((await two.search(s, 'get_weather', 5))[0]?.name).toBe('get_weather');
    } finally {
      await new Meilisearch({ host: url, apiKey: apiKey || undefined }).deleteIndexIfExists(uid);
    }
  });
});
