// Tasks a process left working when it was killed, on one machine (SQLite): a server started again on the same
// file takes them over and runs them on from the state they last settled in, a once-effect already recorded
// not running again; a task whose process is alive is not taken; stores that cannot tell resume nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBundles } from '../../mcp/test/fixtures/suite-bundle.ts';
import { createKeyring, generateKey } from '../src/index.ts';
import { createSqliteLedger, createSqliteTaskStore } from '../src/sqlite/index.ts';
import { resumableTool } from './fixtures/resumable-tool.ts';
import { makeEngine, textIn } from './support.ts';
import { TASKS, untilStatus } from './tasks-tools.ts';

let dir: string;
let dbFile: string;
let runsFile: string;
const closing: (() => unknown)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-resume-'));
  dbFile = join(dir, 'roundtrip.db');
  runsFile = join(dir, 'charges.txt');
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

/** An engine over the SQLite file (ledger and task store), serving the resumable tool. */
function engineOnFile(hold: boolean, keyring = createKeyring([generateKey()])) {
  const ledger = createSqliteLedger({ path: dbFile });
  const store = createSqliteTaskStore({ path: dbFile });
  const made = makeEngine([resumableTool({ hold, runsFile })], { keyring, ledger, tasks: { store } });
  closing.push(
    () => ledger.close(),
    () => store.close(),
    () => made.engine.close(),
  );
  return { ...made, store };
}

describe('a task left working by a process that was killed', () => {
  const bundles = createBundles();
  afterAll(() => bundles.remove());

  it('is taken over by the next engine on the file and completes, its once-effect run once', async () => {
    const key = generateKey();
    const script = await bundles.of(fileURLToPath(new URL('./fixtures/task-in-child.ts', import.meta.url)));
    const child = spawn(process.execPath, [script, dbFile, runsFile, key], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const taskId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('close', (code) => reject(new Error(`child exited with ${code} before its task waited: ${err}`)));
    });
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await exited;

    const { engine, store, logs } = engineOnFile(false, createKeyring([key]));
    expect((await store.read(taskId, Date.now()))?.status).toBe('working');
    expect(await engine.resumeTasks()).toBe(1);
    const done = await untilStatus(engine, taskId, 'completed');
    expect(textIn(done.result?.content[0])).toBe('ch_a resumed');
    expect(readFileSync(runsFile, 'utf8')).toBe('a\n');
    expect(logs.map((e) => e.event)).toContain('task_resumed');
    // taken once: a second call finds nothing left
    expect(await engine.resumeTasks()).toBe(0);
  });
});

describe('a task whose process is alive', () => {
  it('is not taken over by another engine on the file', async () => {
    const keyring = createKeyring([generateKey()]);
    const running = engineOnFile(true, keyring);
    const outcome = await running.call({ name: 'charge_then_wait', arguments: { label: 'b' }, capabilities: TASKS });
    expect(outcome.type).toBe('task');
    const other = engineOnFile(false, keyring);
    expect(await other.engine.resumeTasks()).toBe(0);
    expect(readFileSync(runsFile, 'utf8')).toBe('b\n');
  });

  it('is never taken over from a store that cannot tell a process gone (memory, PostgreSQL)', async () => {
    const { engine } = makeEngine([resumableTool({ hold: true, runsFile })]);
    closing.push(() => engine.close());
    expect(await engine.resumeTasks()).toBe(0);
  });
});
