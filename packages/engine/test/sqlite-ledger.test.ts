import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import type { EffectRecord } from '../src/effect-ledger.ts';
import { createSqliteLedger, type SqliteLedger, type SqliteLedgerOptions } from '../src/sqlite/index.ts';
import { describeLedgerContract } from './ledger-contract.ts';

const DAY = 24 * 60 * 60 * 1000;
const key = { run: 'run_1', effect: 'refund' };

let dir: string;
let dbFile: string;
const opened: SqliteLedger[] = [];
const open = (options: Partial<SqliteLedgerOptions> = {}) => {
  const ledger = createSqliteLedger({ path: dbFile, ...options });
  opened.push(ledger);
  return ledger;
};

describeLedgerContract(
  'the SQLite ledger',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'roundtrip-contract-'));
    const handles: SqliteLedger[] = [];
    return {
      open: async () => {
        const ledger = createSqliteLedger({ path: join(folder, 'effects.db') });
        handles.push(ledger);
        return ledger;
      },
      close: async () => {
        for (const ledger of handles) ledger.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
  { knowsLiveness: true },
);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-ledger-'));
  dbFile = join(dir, 'nested', 'folder', 'effects.db');
});
afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createSqliteLedger', () => {
  it('creates the folder and its table in WAL mode, beside the application’s own tables', () => {
    const raw = new Database(join(dir, 'shared.db'));
    raw.exec("CREATE TABLE orders (id TEXT PRIMARY KEY); INSERT INTO orders VALUES ('ord_1');");
    raw.close();

    const ledger = open();
    expect(ledger.path).toBe(dbFile);
    expect(existsSync(dbFile)).toBe(true);
    const check = new Database(dbFile, { readonly: true });
    try {
      expect(check.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      check.close();
    }

    const shared = open({ path: join(dir, 'shared.db') });
    shared.claim(key, 1000);
    const after = new Database(join(dir, 'shared.db'), { readonly: true });
    try {
      expect(after.prepare('SELECT id FROM orders').all()).toEqual([{ id: 'ord_1' }]);
      expect(after.prepare('SELECT run, effect, state FROM roundtrip_effects').all()).toEqual([
        { run: 'run_1', effect: 'refund', state: 'running' },
      ]);
    } finally {
      after.close();
    }
  });

  it('says which path it cannot open and what to do, when the folder cannot be made', () => {
    const aFile = join(dir, 'file.txt');
    writeFileSync(aFile, 'not a folder');
    const bad = join(aFile, 'effects.db');
    expect(() => createSqliteLedger({ path: bad })).toThrow(`Cannot open the effect ledger at ${bad}`);
    expect(() => createSqliteLedger({ path: bad })).toThrow('Set the ledger path to a file in a folder this user can write to.');
  });

  it('says when the file is not a SQLite database', () => {
    const notADb = join(dir, 'notes.txt');
    writeFileSync(notADb, 'x'.repeat(4096));
    expect(() => createSqliteLedger({ path: notADb })).toThrow(
      new RegExp(`Cannot open the effect ledger at ${notADb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(SQLITE_NOTADB`),
    );
  });

  it('refuses options it cannot use, naming the option', () => {
    expect(() => createSqliteLedger({ path: '' })).toThrow('createSqliteLedger needs a path');
    expect(() => createSqliteLedger({ path: dbFile, retainMs: -1 })).toThrow('retainMs = -1');
    expect(() => createSqliteLedger({ path: dbFile, busyTimeoutMs: Number.NaN })).toThrow('busyTimeoutMs = NaN');
  });
});

describe('claims across processes', () => {
  const bundles = createBundles();
  afterAll(() => bundles.remove());

  it('lets exactly one of two processes claim a key', async () => {
    open().close(); // create the file and its table first, so the race is only about the claim
    // the child script bundled (bundle-script.ts): plain node starts it in a fraction of tsx's time
    const child = await bundles.of(fileURLToPath(new URL('./fixtures/ledger-claim-in-child.ts', import.meta.url)));
    // two are a race as well as three: both claim on the same word, and one must wait for the other's lock
    const contenders = 2;

    const children = Array.from({ length: contenders }, (_, i) =>
      spawn(process.execPath, [child, dbFile, key.run, key.effect, `process ${i}`], {
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const outputOf = (proc: ChildProcessWithoutNullStreams) =>
      new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        proc.on('error', reject);
        proc.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited with ${code}: ${err}`))));
      });
    const ready = (proc: ChildProcessWithoutNullStreams) =>
      new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) {
            proc.stdout.off('data', onData);
            resolve();
          }
        };
        proc.stdout.on('data', onData);
        proc.once('close', (code) => reject(new Error(`child exited with ${code} before it was ready`)));
      });
    const outputs = children.map(outputOf);
    await Promise.all(children.map(ready));
    for (const proc of children) proc.stdin.end('go\n');

    const results = (await Promise.all(outputs)).map(
      (out) => JSON.parse(out.trim().split('\n').at(-1)!) as { label: string; claim: 'claimed' | EffectRecord },
    );
    const winners = results.filter((r) => r.claim === 'claimed');
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.claim !== 'claimed')) {
      expect(loser.claim).toMatchObject({ state: expect.stringMatching(/^(running|done)$/) });
    }
    expect(open().read(key)).toMatchObject({ state: 'done', outcome: { ok: true, value: { winner: winners[0]!.label } } });
  });
});

describe('pruning', () => {
  it('removes done records older than retainMs when it opens, never running ones', () => {
    const t0 = 1_800_000_000_000;
    const first = open({ now: () => t0 });
    const old = { run: 'run_old', effect: 'refund' };
    const recent = { run: 'run_recent', effect: 'refund' };
    const stuck = { run: 'run_stuck', effect: 'refund' };
    first.claim(old, t0);
    first.complete(old, { ok: true, value: 1 }, t0);
    first.claim(stuck, t0);
    first.claim(recent, t0 + 6 * DAY);
    first.complete(recent, { ok: true, value: 2 }, t0 + 6 * DAY);
    first.close();

    const later = open({ now: () => t0 + 7 * DAY + 1 });
    expect(later.read(old)).toBeUndefined();
    expect(later.read(recent)).toMatchObject({ state: 'done', finishedAt: t0 + 6 * DAY });
    expect(later.read(stuck)).toEqual({ state: 'running', startedAt: t0, alive: true });
  });

  it('prunes again at most once an hour while it completes effects', () => {
    const HOUR = 60 * 60 * 1000;
    let clock = 10 * DAY;
    const ledger = open({ now: () => clock }); // prunes once here, at 10 days
    const finish = (run: string, at: number) => {
      ledger.claim({ run, effect: 'x' }, at);
      ledger.complete({ run, effect: 'x' }, { ok: true, value: run }, at);
    };
    finish('run_early', 0); // finished long before the 7-day window, just after a prune
    ledger.claim({ run: 'run_stuck', effect: 'x' }, 0);
    expect(ledger.read({ run: 'run_early', effect: 'x' })).toMatchObject({ state: 'done' });

    clock += HOUR - 1; // under an hour since the last prune: not due
    finish('run_2', clock);
    expect(ledger.read({ run: 'run_early', effect: 'x' })).toMatchObject({ state: 'done' });

    clock += 1; // an hour: this completion prunes
    finish('run_3', clock);
    expect(ledger.read({ run: 'run_early', effect: 'x' })).toBeUndefined();
    expect(ledger.read({ run: 'run_stuck', effect: 'x' })).toEqual({ state: 'running', startedAt: 0, alive: true });
    expect(ledger.read({ run: 'run_2', effect: 'x' })).toMatchObject({ state: 'done' });
    expect(ledger.read({ run: 'run_3', effect: 'x' })).toMatchObject({ state: 'done' });
  });
});

describe('close', () => {
  it('makes later calls throw an error that names the ledger, and can be called twice', () => {
    const ledger = open();
    ledger.close();
    ledger.close();
    const closed = `The effect ledger at ${dbFile} is closed`;
    expect(() => ledger.claim(key, 1)).toThrow(closed);
    expect(() => ledger.complete(key, { ok: true, value: 1 }, 1)).toThrow(closed);
    expect(() => ledger.read(key)).toThrow(closed);
  });
});
