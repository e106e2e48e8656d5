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
    // V8's optimising compiler off in the workers (Sparkplug, the baseline tier, is the highest): a test file runs most
    // of its code a few times only, so compiling it again optimised (on V8's background threads) costs more than it
    // saves. Measured, the whole suite (cpuacct cgroup, every process; the machine shared): 28.0 and 28.9 s of CPU
    // without, 26.6 with; engine, tools and visualize alone, three runs each: 9.3 / 8.3 / 8.9 s without, 7.5 / 7.3 / 7.8
    // with. Spawned processes are not affected (they live too short for it to matter either way).
    execArgv: ['--max-opt=1'],
    // the folder the workers' shared bundles go to (packages/mcp/test/fixtures/worker-bundles.ts), removed after the run
    globalSetup: ['packages/mcp/test/fixtures/bundle-folder-setup.ts'],
    // transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content): a second run skips
    // most of the transform (engine and tools tests: 3.8 s of transform down to 0.9 s)
    experimental: { fsModuleCache: true },
  },
});
