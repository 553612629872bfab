import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allScores } from '@toolsurface/analysis';
import { DEFAULT_EVAL_DIR, readJsonl } from '@toolsurface/eval-kit';

// The dev requests a rule was written from (Score.from) must be requests of the eval data
// ($TOOLSURFACE_EVAL_DIR or ../shared/eval); the check is skipped, saying so, where it is missing.
const DEV_FILES = ['queries.dev.jsonl', 'queries.irrelevance.dev.jsonl'].map((f) => resolve(DEFAULT_EVAL_DIR, f));
const hasDev = DEV_FILES.every((f) => existsSync(f));
if (!hasDev) console.log(`skipped: the check that every score's source is a dev request needs ${DEV_FILES.join(' and ')}`);

describe("the dev requests a score's rule was written from (Score.from)", () => {
  it.skipIf(!hasDev)('each is a request of the dev or irrelevance split', () => {
    const ids = new Set(DEV_FILES.flatMap((f) => readJsonl<{ id: string }>(f).map((q) => q.id)));
    const sourced = [...allScores()].filter(([, s]) => s.from !== undefined);
    expect(sourced.length).toBeGreaterThan(20);
    const unknown = sourced.flatMap(([name, s]) => s.from!.filter((id) => !ids.has(id)).map((id) => `${name}: ${id}`));
    expect(unknown).toEqual([]);
  });
});
