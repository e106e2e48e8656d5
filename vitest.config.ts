import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// a V8 flag this node accepts (node refuses to start with one its V8 does not know: newer V8s count calls instead)
const accepted = (flag: string) => spawnSync(process.execPath, [flag, '--version'], { stdio: 'ignore' }).status === 0;
const LATER_OPTIMISATION = '--interrupt-budget=675840';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // one worker more than the cores: many files wait on child processes (the kill test idles ~20 s of its 23 on its
    // leases), and the spare worker runs other files meanwhile. On this 2-core machine, quiet, alternated in one
    // sitting (2026-12-06): two workers 43.2 and 42.8 s, three 35.2 and 35.2 s (four: 35.8); the machine's two cores
    // were then busy 79 % of the run. Before the kill test was shortened, one worker took ~58 s and two ~45 s
    maxWorkers: availableParallelism() + 1,
    // one module graph per worker: each file re-importing xstate, zod and the SDK cost more than the tests
    isolate: false,
    // V8 optimises a function in the workers only after ten times the usual work in it (V8's default budget is 67,584):
    // most test code runs a few times only, and compiling it optimised (on V8's background threads) cost more CPU than
    // it saved, while the few hot loops (adversarial-states' 20,000 edits) still get optimised. Measured (cpuacct
    // cgroup, every process; the machine shared, so runs vary by ±0.5 s), engine + tools + visualize: 9.1 / 8.3 s CPU
    // at the default, 6.3 / 6.9 / 7.4 / 7.1 at ten times, 6.6 to 7.8 with the optimiser off (--max-opt=1, which also
    // made that loop 0.5 s slower); mcp + the transports + two demo files: 7.4 / 6.8, 5.8 / 6.0, 6.1 / 6.3. The whole
    // suite with the optimiser off: 26.6 s CPU against 28.0 and 28.9. Spawned processes are not affected. Measured on
    // Node 20 (V8 11.3); a node whose V8 has no such flag runs the workers as it would anyway.
    execArgv: accepted(LATER_OPTIMISATION) ? [LATER_OPTIMISATION] : [],
    // one temporary folder for the run, the workers' TMPDIR (suite-temp-folder-setup.ts), then the folder the workers'
    // shared bundles go to (packages/mcp/test/fixtures/worker-bundles.ts), inside it; both removed after the run
    globalSetup: ['packages/mcp/test/fixtures/suite-temp-folder-setup.ts', 'packages/mcp/test/fixtures/bundle-folder-setup.ts'],
    // transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content): a second run skips
    // most of the transform (engine and tools tests: 3.8 s of transform down to 0.9 s)
    experimental: { fsModuleCache: true },
  },
});
