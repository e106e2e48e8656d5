// Servers started at once on one new SQLite file (two instances of a deployment, a test's two processes): each
// opens the effect ledger and the task store, which create their tables and add the columns later versions
// need. Done apart, two could both find a column missing, and the second's ALTER failed ("duplicate column
// name: owner"), so that server did not start. Now the table is made and brought up to date in one write
// transaction: every process opens the file, and finds it as the first made it. Real processes (the child
// script bundled), released together once all are ready, on a new file and on a file of the tables' first
// version (where every process finds the column missing at once: without the transaction most rounds fail).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { createSqliteLedger, createSqliteTaskStore } from '../src/sqlite/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rt-open-at-once-'));
const bundles = createBundles();
afterAll(() => {
  bundles.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** What each of `count` processes says once released together to open `kind` on the new file `path`. */
async function openAtOnce(kind: 'ledger' | 'tasks', path: string, count: number): Promise<string[]> {
  const child = await bundles.of(fileURLToPath(new URL('./fixtures/open-store-in-child.ts', import.meta.url)));
  const children = Array.from({ length: count }, () => spawn(process.execPath, [child, kind, path], { stdio: ['pipe', 'pipe', 'pipe'] }));
  const said = (proc: ChildProcessWithoutNullStreams) => {
    let out = '';
    let err = '';
    let readyNow: () => void = () => {};
    const ready = new Promise<void>((resolve) => (readyNow = resolve));
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) readyNow();
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const done = new Promise<string>((resolve, reject) =>
      proc.on('close', (code) => (code === 0 ? resolve(out.slice('ready\n'.length).trim()) : reject(new Error(`exit ${code}: ${err}`)))),
    );
    return { ready, done };
  };
  const each = children.map(said);
  await Promise.all(each.map((c) => c.ready));
  for (const proc of children) proc.stdin.end('go\n');
  return Promise.all(each.map((c) => c.done));
}

/** A file with the table of `kind` as its first version made it: without the `owner` column later versions add. */
function firstVersionFile(kind: 'ledger' | 'tasks', path: string): string {
  (kind === 'ledger' ? createSqliteLedger({ path }) : createSqliteTaskStore({ path })).close();
  const db = new Database(path);
  db.exec(`ALTER TABLE ${kind === 'ledger' ? 'roundtrip_effects' : 'roundtrip_tasks'} DROP COLUMN owner`);
  db.close();
  return path;
}

const OPENED = ['opened', 'opened', 'opened', 'opened'];

describe.each(['ledger', 'tasks'] as const)('servers opening one SQLite file at once: the %s', (kind) => {
  it('all open a new file', async () => {
    expect(await openAtOnce(kind, join(dir, `${kind}-new.db`), OPENED.length)).toEqual(OPENED);
  });

  it('all open a file of the first version, which one of them brings up to date', async () => {
    for (let round = 0; round < 2; round++) {
      const path = firstVersionFile(kind, join(dir, `${kind}-first-${round}.db`));
      expect(await openAtOnce(kind, path, OPENED.length)).toEqual(OPENED);
    }
  });
});
