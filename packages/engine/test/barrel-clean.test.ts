// The engine's root entry is what a web-standard runtime loads: bundled as an edge bundler would, it
// reaches no Node built-in and no database driver; those are behind /sqlite and /postgres.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundlesForEdge, type EdgeBundle } from './fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const DRIVERS = /^(better-sqlite3|pg)$/;
// the three entries bundled in one build, by the first case that asks (each file parsed once)
let built: Promise<EdgeBundle[]> | undefined;
async function bundle(entry: 0 | 1 | 2): Promise<EdgeBundle> {
  if (built === undefined)
    built = bundlesForEdge(['../src/index.ts', '../src/sqlite/index.ts', '../src/postgres/index.ts'].map(source), DRIVERS);
  const bundles = await built;
  return bundles[entry]!;
}

describe('the root entry, @roundtrip/engine', () => {
  it('reaches no node: module, better-sqlite3 or pg', async () => {
    const { inputs, refused } = await bundle(0);
    expect(refused).toEqual([]);
    expect(inputs.filter((input) => /node_modules\/(better-sqlite3|pg|pg-[a-z]+)\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('engine/src/run-step.ts'))).toBe(true);
  });

  it('leaves SQLite and PostgreSQL to their subpaths, where the same check finds their drivers', async () => {
    const sqlite = await bundle(1);
    expect(sqlite.refused).toEqual(expect.arrayContaining([expect.stringMatching(/: better-sqlite3$/)]));
    const postgres = await bundle(2);
    expect(postgres.refused).toEqual(expect.arrayContaining([expect.stringMatching(/: pg$/)]));
  });
});
