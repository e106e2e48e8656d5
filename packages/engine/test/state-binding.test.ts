import { describe, expect, it } from 'vitest';
import { createKeyring, type EngineLogEntry, generateKey, INVALID_STATE_HINT, INVALID_STATE_MESSAGE } from '../src/index.ts';
import { makeConfirmMachine, makeConfirmMachineWithAudit, makeConfirmTool, profileTool } from './machines.ts';
import { accept, complete, failed, inputRequired, makeEngine, refused } from './support.ts';

const refund = makeConfirmTool();
const args = { order_id: 'ord_1' };
const yes = { confirm: accept({ confirm: true }) };

/** The log entry that carries the precise reason: what the client was told, and the check that refused. */
const rejection = (reason: string, code: string, extra: Partial<EngineLogEntry> = {}) =>
  expect.objectContaining({ ...extra, level: 'warn', event: 'state_rejected', reason, code });

async function firstState(call: ReturnType<typeof makeEngine>['call'], name = 'refund_order', callArgs: object = args) {
  return inputRequired(await call({ name, arguments: callArgs })).requestState;
}

describe('the state is bound to its request', () => {
  it('uses the frozen message and start-over hint for every refusal', () => {
    expect(INVALID_STATE_MESSAGE).toBe('Invalid or expired requestState');
    expect(INVALID_STATE_HINT).toBe('Start over: send the request again without requestState or inputResponses.');
  });

  it('refuses a state replayed with other arguments', async () => {
    const { call, logs } = makeEngine([refund]);
    const state = await firstState(call);
    expect(await call({ name: 'refund_order', arguments: { order_id: 'ord_2' }, requestState: state, inputResponses: yes })).toEqual(
      refused('mismatch'),
    );
    expect(logs).toContainEqual(rejection('mismatch', 'other_arguments'));
  });

  it('binds the arguments as validated, so an extra argument the schema strips does not break the binding', async () => {
    const { call } = makeEngine([refund]);
    const state = await firstState(call, 'refund_order', { order_id: 'ord_1' });
    complete(
      await call({ name: 'refund_order', arguments: { order_id: 'ord_1', ignored: true }, requestState: state, inputResponses: yes }),
    );
  });

  it('refuses a state replayed on another tool of the same engine', async () => {
    const { call, logs } = makeEngine([refund, makeConfirmTool({ name: 'refund_order_again' })]);
    const state = await firstState(call);
    expect(await call({ name: 'refund_order_again', arguments: args, requestState: state, inputResponses: yes })).toEqual(
      refused('mismatch'),
    );
    expect(logs).toContainEqual(rejection('mismatch', 'other_target', { target: 'tool refund_order_again' }));
  });

  it('refuses a state replayed by another principal', async () => {
    const { call, logs } = makeEngine([refund]);
    const state = await firstState(call);
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes, principal: 'eve' })).toEqual(
      refused('mismatch'),
    );
    expect(logs).toContainEqual(rejection('mismatch', 'other_principal'));
  });

  it('refuses a state replayed to another server (other audience, same key)', async () => {
    const a = makeEngine([refund], { audience: 'orders' });
    const b = makeEngine([refund], { audience: 'bookings' });
    const state = await firstState(a.call);
    expect(await b.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('mismatch'));
    expect(b.logs).toContainEqual(rejection('mismatch', 'other_audience'));
  });

  it('refuses a state sealed with a key the server does not hold', async () => {
    const a = makeEngine([refund]);
    const b = makeEngine([refund], { keyring: createKeyring([generateKey()]) });
    const state = await firstState(a.call);
    expect(await b.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('invalid'));
    expect(b.logs).toContainEqual(rejection('invalid', 'unknown_key'));
  });

  it('lets another engine with the same key, audience and tool serve the next round (no server memory)', async () => {
    const a = makeEngine([makeConfirmTool()]);
    const b = makeEngine([makeConfirmTool({ machine: makeConfirmMachine() })]);
    const state = await firstState(a.call);
    expect(
      complete(await b.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).result.structuredContent,
    ).toEqual({
      outcome: 'refunded',
      orderId: 'ord_1',
    });
  });

  it('keeps opening states sealed with the old key after a key rotation', async () => {
    const oldKey = generateKey();
    const a = makeEngine([refund], { keyring: createKeyring([oldKey]) });
    const b = makeEngine([refund], { keyring: createKeyring([generateKey(), oldKey]) });
    const state = await firstState(a.call);
    complete(await b.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
  });

  it('rotates keys with conversations in flight: add (old still seals), promote (new seals, old opens), retire (old refused)', async () => {
    const oldKey = generateKey();
    const newKey = generateKey();
    const kidOf = (state: string) => state.split('.')[1];
    const before = makeEngine([profileTool], { keyring: createKeyring([oldKey]) });
    const added = makeEngine([profileTool], { keyring: createKeyring([oldKey, newKey]) });
    const promoted = makeEngine([profileTool], { keyring: createKeyring([newKey, oldKey]) });
    const retired = makeEngine([profileTool], { keyring: createKeyring([newKey]) });
    const name = { name: accept({ name: 'Ada' }) };
    const inFlight = inputRequired(await before.call({ name: 'create_profile', arguments: {} })).requestState;
    // added: a server that knows the new key but still seals with the old one, so old servers open its states
    const fromAdded = inputRequired(
      await added.call({ name: 'create_profile', arguments: {}, requestState: inFlight, inputResponses: name }),
    ).requestState;
    expect(kidOf(fromAdded)).toBe(kidOf(inFlight));
    inputRequired(await before.call({ name: 'create_profile', arguments: {}, requestState: inFlight, inputResponses: name }));
    // promoted: the new key seals; states of the old one still open
    const fromPromoted = inputRequired(
      await promoted.call({ name: 'create_profile', arguments: {}, requestState: inFlight, inputResponses: name }),
    ).requestState;
    expect(kidOf(fromPromoted)).not.toBe(kidOf(inFlight));
    // retired: the old key's states are refused with the usual error; the new key's go on
    expect(await retired.call({ name: 'create_profile', arguments: {}, requestState: inFlight, inputResponses: name })).toEqual(
      refused('invalid'),
    );
    expect(retired.logs.at(-1)).toMatchObject({
      level: 'warn',
      event: 'state_rejected',
      code: 'unknown_key',
    });
    inputRequired(
      await retired.call({
        name: 'create_profile',
        arguments: {},
        requestState: fromPromoted,
        inputResponses: { age: accept({ age: 36 }) },
      }),
    );
  });

  it.each([
    ['a changed character', (s: string) => s.slice(0, -5) + (s.at(-5) === 'A' ? 'B' : 'A') + s.slice(-4)],
    ['-TAMPERED appended', (s: string) => `${s}-TAMPERED`],
    ['the body cut in half', (s: string) => s.slice(0, Math.floor(s.length / 2))],
    ['another format prefix', (s: string) => s.replace(/^rt1\./, 'rt2.')],
  ])('refuses a state with %s as invalid', async (_, alter) => {
    const { call, logs } = makeEngine([refund]);
    const state = await firstState(call);
    expect(await call({ name: 'refund_order', arguments: args, requestState: alter(state), inputResponses: yes })).toEqual(
      refused('invalid'),
    );
    expect(logs.at(-1)).toMatchObject({ level: 'warn', event: 'state_rejected' });
  });
});

describe('expiry', () => {
  it('refuses a state once its ttl has passed (default 10 minutes), and accepts it just before', async () => {
    let clock = Date.UTC(2026, 11, 2, 12, 0, 0);
    const { call, logs } = makeEngine([refund], { now: () => clock });
    const state = await firstState(call);
    clock += 599_999;
    inputRequired(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: { confirm: accept({}) } }));
    clock += 1;
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('expired'));
    expect(logs).toContainEqual(rejection('expired', 'expired'));
  });

  it('never expires a state early when it was issued within a second (the expiry is rounded up)', async () => {
    let clock = Date.UTC(2026, 11, 2, 12, 0, 0) + 900;
    const { call } = makeEngine([refund], { now: () => clock });
    const state = await firstState(call);
    clock += 599_100; // 12:10:00.000, 0.9 s before the full 10 minutes
    inputRequired(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: { confirm: accept({}) } }));
    clock += 1_000; // 12:10:01.000, past them
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('expired'));
  });

  it('honours stateTtlSeconds', async () => {
    let clock = Date.UTC(2026, 11, 2);
    const { call } = makeEngine([refund], { now: () => clock, stateTtlSeconds: 30 });
    const state = await firstState(call);
    clock += 30_000;
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('expired'));
  });

  it('renews the expiry every round', async () => {
    let clock = Date.UTC(2026, 11, 2);
    const { call } = makeEngine([profileTool], { now: () => clock });
    const r1 = inputRequired(await call({ name: 'create_profile', arguments: {} })).requestState;
    clock += 500_000;
    const r2 = inputRequired(
      await call({ name: 'create_profile', arguments: {}, requestState: r1, inputResponses: { name: accept({ name: 'Ada' }) } }),
    ).requestState;
    clock += 500_000;
    expect(
      await call({ name: 'create_profile', arguments: {}, requestState: r1, inputResponses: { name: accept({ name: 'Ada' }) } }),
    ).toEqual(refused('expired'));
    inputRequired(await call({ name: 'create_profile', arguments: {}, requestState: r2, inputResponses: { age: accept({ age: 36 }) } }));
  });

  it('refuses a state issued more than a minute in the future (clock skew between servers)', async () => {
    let clock = Date.UTC(2026, 11, 2);
    const { call, logs } = makeEngine([refund], { now: () => clock });
    const state = await firstState(call);
    clock -= 61_000;
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('invalid'));
    expect(logs).toContainEqual(rejection('invalid', 'issued_in_future'));
    clock += 1_000;
    complete(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
  });
});

describe('changed machines', () => {
  it('refuses a state made by a machine that has since gained a state as outdated', async () => {
    const before = makeEngine([refund]);
    const after = makeEngine([makeConfirmTool({ machine: makeConfirmMachineWithAudit() })]);
    const state = await firstState(before.call);
    expect(await after.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(
      refused('outdated'),
    );
    expect(after.logs).toContainEqual(rejection('outdated', 'machine_changed'));
  });

  it('refuses a state made by another version of the same machine as outdated', async () => {
    const v1 = makeEngine([makeConfirmTool({ machine: makeConfirmMachine({ version: '1' }) })]);
    const v2 = makeEngine([makeConfirmTool({ machine: makeConfirmMachine({ version: '2' }) })]);
    const state = await firstState(v1.call);
    expect(await v2.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('outdated'));
    complete(await v1.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
  });
});

describe('requestState that is not a state', () => {
  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { state: 'x' }],
    ['the empty string', ''],
  ])('refuses %s as invalid, even though it is not absent', async (_, requestState) => {
    const { call, logs } = makeEngine([refund]);
    expect(await call({ name: 'refund_order', arguments: args, requestState, inputResponses: yes })).toEqual(refused('invalid'));
    expect(logs).toEqual([rejection('invalid', 'not_text', { target: 'tool refund_order' })]);
  });

  it('refuses a state over maxStateBytes before decoding it', async () => {
    const { call } = makeEngine([refund]);
    const state = await firstState(call);
    const small = makeEngine([refund], { maxStateBytes: state.length - 1 });
    expect(await small.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(
      refused('invalid'),
    );
    expect(small.logs).toContainEqual(rejection('invalid', 'too_large'));
    const exact = makeEngine([refund], { maxStateBytes: state.length });
    complete(await exact.call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
  });

  it('refuses a huge string under the default 64 KiB cap', async () => {
    const { call, logs } = makeEngine([refund]);
    expect(await call({ name: 'refund_order', arguments: args, requestState: `rt1.${'A'.repeat(70_000)}` })).toEqual(refused('invalid'));
    expect(logs).toContainEqual(rejection('invalid', 'too_large'));
  });

  it('refuses a state once the call has taken maxRounds rounds', async () => {
    const { call, logs } = makeEngine([refund], { maxRounds: 3 });
    let state = await firstState(call); // round 1
    state = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: { confirm: accept({}) } }),
    ).requestState; // round 2
    state = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: { confirm: accept({}) } }),
    ).requestState; // round 3
    expect(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes })).toEqual(refused('invalid'));
    expect(logs).toContainEqual(rejection('invalid', 'round_limit'));
  });

  it('never shows the precise reason to the client', async () => {
    const { call, logs } = makeEngine([refund]);
    const state = await firstState(call);
    const outcome = failed(await call({ name: 'refund_order', arguments: args, requestState: state, principal: 'mallory' }));
    expect(JSON.stringify(outcome)).not.toMatch(/principal/);
    expect(logs.at(-1)?.message).toMatch(/principal/);
  });
});
