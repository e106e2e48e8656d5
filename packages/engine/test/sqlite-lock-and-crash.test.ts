// The SQLite ledger when another connection holds the file's write lock (the wait must not stall other
// requests, and must end in a clear error), and when the process that claimed an effect has died
// (a retry learns at once that the outcome is unknown).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { createSqliteLedger, type SqliteLedger } from '../src/sqlite/index.ts';
import { accept, complete, deferred, inputRequired, makeEngine } from './support.ts';

type Context = { orderId: string; refundId: string | null; error: string | null };
const questions = defineQuestions<Context>()({
  confirm: { message: 'Refund order {{orderId}}?', schema: z.object({ confirm: z.boolean() }) },
});

function makeTools(refunds: { runs: number }) {
  const machine = setup({
    types: {
      context: {} as Context,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as Context,
    },
    actors: {
      issueRefund: fromPromise<string, { orderId: string }>(async ({ input }) => `re_${input.orderId}_${++refunds.runs}`),
    },
  }).createMachine({
    id: 'refund',
    context: ({ input }) => ({ orderId: input.order_id, refundId: null, error: null }),
    initial: 'confirming',
    states: {
      confirming: { meta: { ask: ['confirm'] }, on: { 'confirm.accept': 'refunding', 'confirm.*': 'done' } },
      refunding: {
        invoke: {
          id: 'refund',
          src: 'issueRefund',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'done', actions: assign({ refundId: ({ event }) => event.output }) },
          onError: {
            target: 'done',
            actions: assign({ error: ({ event }) => `${(event.error as Error).name}: ${(event.error as Error).message}` }),
          },
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => context,
  });
  const refund = defineTool({
    name: 'refund_order',
    description: 'Refunds an order once the user confirms',
    input: z.object({ order_id: z.string() }),
    questions,
    machine,
    result: (output) => ({ text: output.refundId ?? `not refunded: ${output.error}`, structured: output }),
    effects: { issueRefund: { once: true } },
  });
  const ping = defineTool({
    name: 'ping',
    description: 'Answers at once, touching no store',
    input: z.object({}),
    machine: setup({ types: { output: {} as { pong: true } } }).createMachine({
      id: 'ping',
      initial: 'done',
      states: { done: { type: 'final' } },
      output: () => ({ pong: true as const }),
    }),
    result: () => ({ text: 'pong' }),
  });
  return [refund, ping];
}

const args = { order_id: 'ord_1' };
const yes = { confirm: accept({ confirm: true }) };

let dir: string;
let path: string;
const closers: Array<() => void> = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rt-ledger-lock-'));
  path = join(dir, 'effects.db');
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
  rmSync(dir, { recursive: true, force: true });
});

/** A ledger on the test's file whose claims report when they were made and whether they had to wait. */
function watchedLedger(options: { busyTimeoutMs?: number } = {}) {
  const ledger = createSqliteLedger({ path, ...options });
  closers.push(() => ledger.close());
  const claimed = deferred<'waited' | 'at once'>();
  const watched: SqliteLedger = {
    ...ledger,
    path: ledger.path,
    claim: (key, now) => {
      const result = ledger.claim(key, now);
      claimed.resolve(result instanceof Promise ? 'waited' : 'at once');
      return result;
    },
  };
  return { ledger: watched, claimed: claimed.promise };
}

/** Another connection holding the file's write lock until `release()`. */
function holdWriteLock() {
  const other = new Database(path);
  closers.push(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  return { release: () => other.exec('COMMIT') };
}

describe('the SQLite ledger under another connection’s lock', () => {
  it('waits for the lock without stalling other requests, then runs the effect once', async () => {
    const refunds = { runs: 0 };
    const { ledger, claimed } = watchedLedger();
    const test = makeEngine(makeTools(refunds), { ledger });
    const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const lock = holdWriteLock();
    let refundSettled = false;
    const refunding = test
      .call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes })
      .finally(() => (refundSettled = true));
    expect(await claimed).toBe('waited');
    // the claim is waiting for the lock: another request is served meanwhile
    expect(complete(await test.call({ name: 'ping', arguments: {} })).result.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(refundSettled).toBe(false);
    expect(refunds.runs).toBe(0);
    lock.release();
    const done = complete(await refunding);
    expect(done.result.structuredContent).toMatchObject({ refundId: 're_ord_1_1', error: null });
    expect(refunds.runs).toBe(1);
  });

  it('gives up after busyTimeoutMs with an error that names the lock and the fix; the effect did not run, and a later retry runs it', async () => {
    const refunds = { runs: 0 };
    const { ledger } = watchedLedger({ busyTimeoutMs: 50 });
    const test = makeEngine(makeTools(refunds), { ledger });
    const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const lock = holdWriteLock();
    const retry = () => test.call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: yes });
    const refused = complete(await retry());
    expect((refused.result.structuredContent as Context).error).toMatch(
      new RegExp(
        `^Error: The effect ledger at ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} stayed locked by another connection for 50 ms, so this server could not claim run "[\\w-]+", effect "refund" \\(the effect was not started\\)\\. Find the process that holds the database lock \\(a long transaction on the same file\\), or raise busyTimeoutMs; then try again\\.$`,
      ),
    );
    expect(refunds.runs).toBe(0);
    lock.release();
    expect(complete(await retry()).result.structuredContent).toMatchObject({ refundId: 're_ord_1_1' });
  });
});

describe('an effect whose process died before recording its outcome', () => {
  /** The run id of a conversation, from the log of a round that did not accept its answer. */
  async function conversation(test: ReturnType<typeof makeEngine>) {
    const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const second = inputRequired(
      await test.call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: { confirm: accept({}) } }),
    );
    const run = test.logs.find((e) => e.event === 'answer_invalid')?.run;
    if (!run) throw new Error('no run id was logged');
    return {
      run,
      confirm: () => test.call({ name: 'refund_order', arguments: args, requestState: second.requestState, inputResponses: yes }),
    };
  }
  /** Writes a running record as the process `owner` left it. */
  function leaveRunning(run: string, owner: object | null) {
    const db = new Database(path);
    db.prepare("INSERT INTO roundtrip_effects (run, effect, state, started_at, owner) VALUES (?, 'refund', 'running', ?, ?)").run(
      run,
      Date.UTC(2026, 6, 28, 12),
      owner === null ? null : JSON.stringify(owner),
    );
    db.close();
  }

  it('is reported at once as unknown when that process has ended, and the effect does not run again', async () => {
    const refunds = { runs: 0 };
    const { ledger } = watchedLedger();
    const test = makeEngine(makeTools(refunds), { ledger });
    const { run, confirm } = await conversation(test);
    // a process that has ended (node --version exits before starting the runtime: 3 ms instead of 50)
    const ended = spawnSync(process.execPath, ['--version']).pid;
    leaveRunning(run, { host: hostname(), pid: ended, token: 'a0' });
    expect(await ledger.read({ run, effect: 'refund' })).toEqual({
      state: 'running',
      startedAt: Date.UTC(2026, 6, 28, 12),
      abandoned: true,
    });
    const outcome = complete(await confirm());
    expect((outcome.result.structuredContent as Context).error).toBe(
      "EffectOutcomeUnknownError: Effect 'refund' of this conversation was started at 2026-07-28T12:00:00.000Z by a server process that ended before it recorded an outcome (it crashed or was killed), so whether it happened is unknown. Check before doing it again.",
    );
    expect(refunds.runs).toBe(0);
  });

  it('tells a process that reused the id of the dead one from it, reads live processes as alive, and leaves unknown ones running', async () => {
    const ledger = createSqliteLedger({ path });
    closers.push(() => ledger.close());
    leaveRunning('reused-pid', { host: hostname(), pid: process.pid, token: 'an earlier process' });
    leaveRunning('live', { host: hostname(), pid: process.ppid, token: 'b1' });
    leaveRunning('other-host', { host: `not-${hostname()}`, pid: 1, token: 'c2' });
    leaveRunning('before-owners', null);
    const startedAt = Date.UTC(2026, 6, 28, 12);
    expect(await ledger.read({ run: 'reused-pid', effect: 'refund' })).toEqual({ state: 'running', startedAt, abandoned: true });
    expect(await ledger.read({ run: 'live', effect: 'refund' })).toEqual({ state: 'running', startedAt, alive: true });
    // liveness unknown: the engine's clock decides when they are orphaned
    for (const run of ['other-host', 'before-owners'])
      expect(await ledger.read({ run, effect: 'refund' })).toEqual({ state: 'running', startedAt });
    // this process's own claim is alive, not abandoned
    expect(await ledger.claim({ run: 'mine', effect: 'refund' }, startedAt)).toBe('claimed');
    expect(await ledger.read({ run: 'mine', effect: 'refund' })).toEqual({ state: 'running', startedAt, alive: true });
  });

  it('opens a file made before claims recorded their process, adding the column', async () => {
    const old = new Database(path);
    old.exec(`CREATE TABLE roundtrip_effects (
      run TEXT NOT NULL, effect TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('running', 'done')),
      started_at INTEGER NOT NULL, finished_at INTEGER, ok INTEGER CHECK (ok IN (0, 1)), value TEXT, error TEXT,
      PRIMARY KEY (run, effect)) STRICT`);
    old.prepare("INSERT INTO roundtrip_effects (run, effect, state, started_at) VALUES ('old', 'refund', 'running', 5)").run();
    old.close();
    const ledger = createSqliteLedger({ path });
    closers.push(() => ledger.close());
    expect(await ledger.read({ run: 'old', effect: 'refund' })).toEqual({ state: 'running', startedAt: 5 });
    expect(await ledger.claim({ run: 'new', effect: 'refund' }, 6)).toBe('claimed');
  });
});
