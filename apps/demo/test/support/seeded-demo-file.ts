// A fresh demo database file as the server leaves it on first run (the stores' tables and seed data,
// the effect ledger's table), copied from one made once per worker instead of made anew each time:
// creating the schemas and seeding them is most of what opening a new file costs. The template is
// made by the stores and the ledger themselves, closed cleanly and checkpointed, so that its one file
// (no -wal beside it) is all a copy needs; every copy is a file of its own, nothing is shared.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSqliteLedger } from '@roundtrip/engine/sqlite';
import Database from 'better-sqlite3';
import { openDemoStores } from '../../src/demo-stores.ts';

let template: Promise<string> | undefined;

async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rt-demo-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'seeded.db');
  const stores = await openDemoStores(path);
  createSqliteLedger({ path }).close();
  await stores.close();
  const file = new Database(path);
  try {
    // whatever a connection left in the write-ahead log goes into the file, and the log is emptied
    file.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    file.close();
  }
  return path;
}

/**
 * Writes at `path` (creating its folder) a new demo database file holding the seed data and the
 * ledger's empty table, in WAL mode, as openDemoStores and createSqliteLedger would leave it.
 *
 * @example
 * await copySeededDemoFile(join(dir, 'orders.db'));
 * const stores = await openDemoStores(join(dir, 'orders.db')); // up to date: nothing is created
 */
export async function copySeededDemoFile(path: string): Promise<void> {
  template ??= makeTemplate();
  const from = await template;
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(from, path);
}
