// The engine's root entry is what a web-standard runtime loads: bundled as an edge bundler would, it
// reaches no Node built-in and no database driver; those are behind /sqlite and /postgres.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForEdge } from './fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const DRIVERS = /^(better-sqlite3|pg)$/;

describe('the root entry, @roundtrip/engine', () => {
  it('reaches no node: module, better-sqlite3 or pg', async () => {
    const { inputs, refused } = await bundleForEdge(source('../src/index.ts'), DRIVERS);
    expect(refused).toEqual([]);
    expect(inputs.filter((input) => /node_modules\/(better-sqlite3|pg|pg-[a-z]+)\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('engine/src/run-step.ts'))).toBe(true);
  });

  it('leaves SQLite and PostgreSQL to their subpaths, where the same check finds their drivers', async () => {
    const sqlite = await bundleForEdge(source('../src/sqlite/index.ts'), DRIVERS);
    expect(sqlite.refused).toEqual(expect.arrayContaining([expect.stringMatching(/: better-sqlite3$/)]));
    const postgres = await bundleForEdge(source('../src/postgres/index.ts'), DRIVERS);
    expect(postgres.refused).toEqual(expect.arrayContaining([expect.stringMatching(/: pg$/)]));
  });
});
