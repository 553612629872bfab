import { defineConfig } from 'vitest/config';

// Tests in tiers, each a vitest project: `vitest run --project unit` and so on; `vitest run` runs
// them all. Unit tests run in-process only and read nothing outside the repository; int tests start
// real processes (nats-server, gRPC servers, MCP servers, openssl); e2e tests run the whole
// gateway; eval tests run the eval commands and the ranking cases over the whole eval corpus
// (*.corpus.test.ts, beside the code they test).
const PRODUCT = ['libs', 'services', 'apps', 'tools'].map((d) => `${d}/**/*`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one file at a time; most int and e2e time is spent waiting
    // on real processes (timeouts, restarts, fault phases), so two files overlap well.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [...PRODUCT.map((g) => `${g}.test.ts`), 'test/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', '**/*.e2e.test.ts', '**/*.corpus.test.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'int', include: [...PRODUCT.map((g) => `${g}.int.test.ts`), 'test/*.int.test.ts'], exclude: ['**/node_modules/**'] },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.e2e.test.ts', 'test/fault/**/*.e2e.test.ts'] } },
      { extends: true, test: { name: 'eval', include: ['test/eval/**/*.test.ts', ...PRODUCT.map((g) => `${g}.corpus.test.ts`)] } },
    ],
  },
});
