import { defineConfig } from 'vitest/config';

// Thread and process tests run the compiled dist/ (Node 20 cannot start .ts workers),
// so `make test` builds before vitest runs.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
