// useWalMode (@roundtrip/engine/sqlite): the switch of a file to WAL, which SQLite refuses at once (SQLITE_BUSY, no
// busy handler) while another connection holds the file, is tried again until the timeout, then the error is thrown;
// once the file is free it is made. Servers starting together on a new file: sqlite-open-at-once.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { useWalMode } from '../src/sqlite/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rt-wal-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('useWalMode', () => {
  it('tries again while another connection holds the file, gives up with SQLITE_BUSY after the timeout, and switches once it is free', () => {
    const path = join(dir, 'held.db');
    const holder = new Database(path);
    holder.exec('CREATE TABLE t (x INTEGER)');
    holder.exec('BEGIN EXCLUSIVE');
    const opener = new Database(path);
    const started = Date.now();
    let refused: unknown;
    try {
      useWalMode(opener, 60);
    } catch (error) {
      refused = error;
    }
    expect((refused as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    holder.exec('COMMIT');
    holder.close();
    useWalMode(opener, 60);
    expect(opener.pragma('journal_mode', { simple: true })).toBe('wal');
    opener.close();
  });

  it('leaves a file already in WAL as it is', () => {
    const db = new Database(join(dir, 'wal.db'));
    useWalMode(db, 0);
    useWalMode(db, 0);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
