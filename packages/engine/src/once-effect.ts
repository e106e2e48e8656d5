import { type AnyActorLogic, createActor, fromPromise } from 'xstate';
import { ConfirmedValueChangedError } from './confirmed-value.ts';
import { canonicalJson } from './digest.ts';
import type { EffectKey, EffectOutcome, EffectRecord } from './effect-ledger.ts';
import { awaitEffect, type EffectScope, effectScopeOf } from './effect-scope.ts';
import { firstNonJson } from './json-value.ts';
import { giveLedgerTransaction, type LedgerTransaction, type TransactionalLedger, transactionalLedger } from './ledger-transaction.ts';
import type { JsonValue } from './wire-shapes.ts';

/**
 * How one named actor of a definition's machine is guarded.
 * `TInput` is the input the machine passes to that actor.
 */
export interface EffectSpec<TInput = unknown> {
  /**
   * Run at most once per run (one call and all its rounds): a replayed or duplicated round gets the
   * recorded outcome from the effect ledger, and the effect does not run again. The record is keyed by
   * the invoke's id: a machine that invokes the same effect again in one run (a loop) gets the first
   * outcome, so give each occurrence its own invoke id. A recorded failure replays as an Error with
   * the original message (not the original error class).
   */
  once?: boolean;
  /**
   * With `once`: the effect writes to the ledger's own database (the application's tables in the same
   * SQLite file or PostgreSQL database as the ledger's). When the ledger offers transactions
   * (createSqliteLedger, createPostgresLedger), its claim, its writes and its outcome are one transaction:
   * exactly once, where `once` alone is at most once (a crash between the effect and its record leaves
   * the outcome unknown). The effect gets the transaction with `ledgerTransactionOf({ system })` and
   * writes through `sqliteTransaction(tx)` or `postgresTransaction(tx)`; an effect that throws has its
   * writes rolled back, and its error recorded. It holds the ledger's lock while it runs, so keep it short.
   * With another ledger it runs as `once` alone, and `ledgerTransactionOf` gives undefined.
   */
  inLedgerTransaction?: boolean;
  /**
   * A value shown to the user and confirmed (it travels in the effect's input): read it again from
   * its source right before the effect acts. If it changed, the effect does not act and the invoke
   * fails with ConfirmedValueChangedError, so the machine can ask again with the new value.
   */
  confirmed?: {
    shown: (args: { input: TInput }) => unknown;
    current: (args: { input: TInput }) => unknown;
  };
}

/** Thrown to the machine when a duplicate round cannot learn what the first one's effect did. */
export class EffectOutcomeUnknownError extends Error {
  override readonly name = 'EffectOutcomeUnknownError';
}

/**
 * Runs the effect's own logic in an actor of its own. With `keep`, an aborted round does not stop it:
 * an effect that must happen at most once is let settle, so that its real outcome is recorded (stopping
 * a promise does not undo what it already started). Without, the round's abort stops it. Either way the
 * returned promise settles only with the effect's own output or error, or rejects when it was stopped.
 */
function runLogic(
  logic: AnyActorLogic,
  input: unknown,
  signal: AbortSignal,
  effect: string,
  keep: boolean,
  tx?: LedgerTransaction,
): Promise<unknown> {
  const child = createActor(logic, { input });
  // the logic (and whatever it invokes) finds the transaction by its actor system: see ledgerTransactionOf
  if (tx) giveLedgerTransaction(child.system, tx);
  return new Promise((resolve, reject) => {
    child.subscribe({
      complete: () => {
        const snapshot = child.getSnapshot();
        if (snapshot.status === 'done') resolve(snapshot.output);
        else reject(new Error(`Effect '${effect}' was stopped before it finished, because its round was aborted.`));
      },
      error: reject,
    });
    if (!keep) signal.addEventListener('abort', () => child.stop(), { once: true });
    child.start();
  });
}

const replay = (outcome: EffectOutcome): unknown => {
  if (outcome.ok) return outcome.value;
  throw new Error(outcome.error);
};

/** What an effect waits with: the round's scope, its actor system (see awaitEffect) and its abort signal. */
interface Waiter {
  readonly scope: EffectScope;
  readonly system: object;
  readonly signal: AbortSignal;
}

/**
 * Polls the ledger until the record another request made is done (its outcome replays), or known to be
 * abandoned or orphaned (EffectOutcomeUnknownError). Otherwise the round's own deadline or abort ends the
 * wait, and the round then says the effect is still running (awaitEffect, run-step.ts).
 */
async function waitForRecord({ scope, system, signal }: Waiter, key: EffectKey, startedAt: number): Promise<EffectOutcome> {
  let delay = 5;
  let endWait: (() => void) | undefined;
  try {
    for (;;) {
      const record = await scope.ledger.read(key);
      if (record?.state === 'done') return record.outcome;
      const since = record?.startedAt ?? startedAt;
      const [stopped, cause] = record?.disconnected
        ? ['lost its connection to the ledger', 'it crashed, was killed, or lost its database']
        : record?.leaseLapsed
          ? ['stopped renewing its claim', 'it crashed, stalled, or lost its database']
          : ['ended', 'it crashed or was killed'];
      // a record the ledger knows is alive (its own lease or process check) is waited for: this machine's
      // clock may run ahead of the one that wrote startedAt
      const unknown = record?.abandoned
        ? `Effect '${key.effect}' of this conversation was started at ${new Date(since).toISOString()} by a server process that ${stopped} before it recorded an outcome (${cause}), so whether it happened is unknown. Check before doing it again.`
        : !record?.alive && scope.now() - since > scope.orphanAfterMs
          ? `Effect '${key.effect}' of this conversation started at ${new Date(since).toISOString()} and never recorded an outcome (its process may have died), so whether it happened is unknown. Check before doing it again.`
          : undefined;
      if (unknown) {
        // the machine may handle the error (read its store again); the operator hears of it either way
        const code = record?.abandoned ? 'process_stopped' : 'never_recorded';
        scope.log({ level: 'warn', event: 'effect_outcome_unknown', code, effect: key.effect, detail: unknown });
        throw new EffectOutcomeUnknownError(unknown);
      }
      if (signal.aborted) throw new Error(`Stopped while waiting for effect '${key.effect}' started by another round.`);
      if (!endWait) {
        endWait = awaitEffect(system, { effect: key.effect, since });
        scope.log({ level: 'info', event: 'effect_waiting', code: 'started_elsewhere', effect: key.effect, since });
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 200);
    }
  } finally {
    endWait?.();
  }
}

async function recheck(spec: EffectSpec, effect: string, input: unknown): Promise<void> {
  if (!spec.confirmed) return;
  const shown = spec.confirmed.shown({ input });
  const current = await spec.confirmed.current({ input });
  if (canonicalJson(shown) !== canonicalJson(current)) throw new ConfirmedValueChangedError(effect, shown, current);
}

/** What an effect's act ended with, as recorded, and (when it failed) the error to throw: the original one. */
interface Settled {
  readonly outcome: EffectOutcome;
  readonly thrown?: { readonly error: unknown };
}

async function settle(scope: EffectScope, key: EffectKey, act: () => Promise<unknown>): Promise<Settled> {
  try {
    const value = await act();
    const nonJson = firstNonJson(value, 'output');
    if (!nonJson) return { outcome: { ok: true, value: (value ?? null) as JsonValue } };
    const error = `Effect '${key.effect}' ran, but its ${nonJson.path} is ${nonJson.what}, so it cannot be recorded: ${nonJson.fix}.`;
    return { outcome: { ok: false, error }, thrown: { error: new Error(error) } };
  } catch (error) {
    // the machine may handle the failure (and the round end well): the operator hears why it failed either way
    scope.log({ level: 'warn', event: 'effect_failed', code: 'effect_threw', effect: key.effect, thrown: error });
    return { outcome: { ok: false, error: error instanceof Error ? error.message : String(error) }, thrown: { error } };
  }
}

/**
 * The effect, its claim and its outcome in one transaction of the ledger: a done record replays, a
 * running one (claimed outside a transaction) is waited for; otherwise the effect runs, once, in it.
 */
async function runOnceInTransaction(
  waiter: Waiter,
  ledger: TransactionalLedger,
  key: EffectKey,
  act: (tx: LedgerTransaction) => Promise<unknown>,
  check: () => Promise<void>,
): Promise<unknown> {
  const { scope, signal } = waiter;
  const existing = await ledger.read(key);
  if (existing?.state === 'done') return replay(existing.outcome);
  if (existing?.state === 'running') return replay(await waitForRecord(waiter, key, existing.startedAt));
  await check();
  if (signal.aborted) throw new Error(`Effect '${key.effect}' was not started, because its round was aborted.`);
  let settled: Settled | undefined;
  let result: 'ran' | EffectRecord;
  try {
    result = await ledger.runOnceInTransaction(key, scope.now, async (tx) => {
      settled = await settle(scope, key, () => act(tx));
      return settled.outcome;
    });
  } catch (error) {
    const code = settled ? 'not_committed' : 'not_started';
    scope.log({ level: 'error', event: 'effect_transaction_failed', code, effect: key.effect, thrown: error });
    throw error;
  }
  if (result !== 'ran') return replay(result.state === 'done' ? result.outcome : await waitForRecord(waiter, key, result.startedAt));
  const { outcome, thrown } = settled!;
  scope.log({ level: 'info', event: 'effect_recorded', code: 'committed', effect: key.effect, ok: outcome.ok });
  if (thrown) throw thrown.error;
  return outcome.ok ? outcome.value : undefined;
}

async function runOnce(waiter: Waiter, key: EffectKey, act: () => Promise<unknown>, check: () => Promise<void>): Promise<unknown> {
  const { scope, signal } = waiter;
  const existing = await scope.ledger.read(key);
  if (existing?.state === 'done') return replay(existing.outcome);
  if (existing?.state === 'running') return replay(await waitForRecord(waiter, key, existing.startedAt));
  await check();
  // nothing is claimed for a round already aborted; once claimed, the effect runs and its outcome is recorded
  if (signal.aborted) throw new Error(`Effect '${key.effect}' was not started, because its round was aborted.`);
  const claim = await scope.ledger.claim(key, scope.now());
  if (claim !== 'claimed') return replay(claim.state === 'done' ? claim.outcome : await waitForRecord(waiter, key, claim.startedAt));
  const { outcome, thrown } = await settle(scope, key, act);
  try {
    await scope.ledger.complete(key, outcome, scope.now());
  } catch (error) {
    // said here too: the round may have ended (aborted) while the effect ran, and then nobody else hears of it
    scope.log({ level: 'error', event: 'effect_record_failed', code: 'record_failed', effect: key.effect, ran: outcome.ok, thrown: error });
    throw error;
  }
  scope.log({ level: 'info', event: 'effect_recorded', code: 'recorded', effect: key.effect, ok: outcome.ok });
  if (thrown) throw thrown.error;
  return outcome.ok ? outcome.value : undefined;
}

/**
 * Wraps a named actor of a machine so that it runs as its spec says: at most once per run through
 * the engine's effect ledger, and only while the value the user confirmed is still the live one.
 */
export function guardEffect(logic: AnyActorLogic, spec: EffectSpec): AnyActorLogic {
  return fromPromise(async ({ input, system, self, signal }) => {
    const effect = self.id;
    const scope = effectScopeOf(system);
    const keep = spec.once === true && scope !== undefined;
    const act = (tx?: LedgerTransaction) => runLogic(logic, input, signal, effect, keep, tx);
    const check = () => recheck(spec, effect, input);
    if (!spec.once || !scope) {
      await check();
      return act();
    }
    const inTransaction = spec.inLedgerTransaction ? transactionalLedger(scope.ledger) : undefined;
    if (spec.inLedgerTransaction && !inTransaction)
      scope.log({ level: 'info', event: 'effect_transaction_unavailable', code: 'ledger_cannot', effect });
    const key: EffectKey = { run: scope.run, effect };
    const local = `${key.run}\u0000${key.effect}`;
    const running = scope.inflight.get(local);
    if (running) {
      scope.log({ level: 'info', event: 'effect_duplicate', code: 'running_here', effect });
      const endWait = awaitEffect(system, { effect });
      try {
        return await running;
      } catch (error) {
        // the first round saw the original error; this one gets the recorded message
        throw error instanceof ConfirmedValueChangedError ? error : new Error(error instanceof Error ? error.message : String(error));
      } finally {
        endWait();
      }
    }
    const waiter: Waiter = { scope, system, signal };
    const promise = inTransaction ? runOnceInTransaction(waiter, inTransaction, key, act, check) : runOnce(waiter, key, () => act(), check);
    scope.inflight.set(local, promise);
    try {
      return await promise;
    } finally {
      scope.inflight.delete(local);
    }
  });
}
