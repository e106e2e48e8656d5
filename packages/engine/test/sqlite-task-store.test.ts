// The SQLite task store: the task store contract (task-store-contract.ts) on a file of its own per test, a
// connection per handle; then what only it has: its table beside the ledger's in one file, and its errors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteLedger, createSqliteTaskStore, type SqliteTaskStore } from '../src/sqlite/index.ts';
import { bareRecord, describeTaskStoreContract } from './task-store-contract.ts';

describeTaskStoreContract('the SQLite task store', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'roundtrip-tasks-contract-'));
  const handles: SqliteTaskStore[] = [];
  return {
    open: async () => {
      const store = createSqliteTaskStore({ path: join(folder, 'effects.db') });
      handles.push(store);
      return store;
    },
    close: async () => {
      for (const store of handles) store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});

describe('createSqliteTaskStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'roundtrip-tasks-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its table in the ledger’s file, beside the ledger’s and the application’s own', async () => {
    const path = join(dir, 'nested', 'effects.db');
    const ledger = createSqliteLedger({ path });
    const store = createSqliteTaskStore({ path: ledger.path });
    try {
      const raw = new Database(path, { readonly: true });
      const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      raw.close();
      expect(tables).toEqual(['roundtrip_effects', 'roundtrip_tasks']);
      expect(store.path).toBe(path);
    } finally {
      store.close();
      ledger.close();
    }
    // opened again: the table is there already, nothing to make
    createSqliteTaskStore({ path }).close();
  });

  it('says which file it cannot open and what to do; a closed store says how to get a new one', async () => {
    const path = join(dir, 'not-a-database.db');
    writeFileSync(path, 'this is not SQLite, but long enough to have a header of a hundred bytes or so. '.repeat(4));
    expect(() => createSqliteTaskStore({ path })).toThrow(
      `Cannot open the task store at ${path} (SQLITE_NOTADB: file is not a database). Set the path to a SQLite file in a folder this user can write to`,
    );
    expect(() => createSqliteTaskStore({ path: '' })).toThrow('createSqliteTaskStore needs a path');
    expect(() => createSqliteTaskStore({ path: join(dir, 'x.db'), busyTimeoutMs: -1 })).toThrow('busyTimeoutMs = -1');
    const store = createSqliteTaskStore({ path: join(dir, 'tasks.db') });
    store.close();
    store.close();
    await expect(store.read('task_1', 0)).rejects.toThrow(
      `The task store at ${join(dir, 'tasks.db')} is closed; create a new one with createSqliteTaskStore to use it again.`,
    );
  });

  it('waits for another connection’s write lock, and says so when it stays held', async () => {
    const path = join(dir, 'tasks.db');
    const store = createSqliteTaskStore({ path, busyTimeoutMs: 20 });
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.create(bareRecord({ taskId: 't' }))).rejects.toThrow(
        `The task store at ${path} stayed locked by another connection for 20 ms, so this server could not record task t.`,
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      store.close();
    }
  });
});
