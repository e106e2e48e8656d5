import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // one worker per core (vitest's default leaves one core free): many files wait on child processes,
    // so on this 2-core machine the suite takes ~45 s with two workers against ~58 s with one
    maxWorkers: availableParallelism(),
    // one module graph per worker: each file re-importing xstate, zod and the SDK cost more than the tests
    isolate: false,
    // the folder the workers' shared bundles go to (packages/mcp/test/fixtures/worker-bundles.ts), removed after the run
    globalSetup: ['packages/mcp/test/fixtures/bundle-folder-setup.ts'],
    // transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content): a second run skips
    // most of the transform (engine and tools tests: 3.8 s of transform down to 0.9 s)
    experimental: { fsModuleCache: true },
  },
});
