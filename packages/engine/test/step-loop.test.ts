import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ErrorCode } from '../src/index.ts';
import { confirmMachine, makeConfirmTool, profileMachine, profileTool } from './machines.ts';
import { accept, cancel, complete, decline, formOf, inputRequired, makeEngine } from './support.ts';

const refund = makeConfirmTool();
const args = { order_id: 'ord_1' };

describe('first call', () => {
  it('returns input_required with an elicitation/create form and a sealed rt1 requestState', async () => {
    const { call } = makeEngine([refund]);
    const outcome = inputRequired(await call({ name: 'refund_order', arguments: args }));
    expect(outcome.inputRequests).toEqual({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Refund order ord_1?',
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        },
      },
    });
    expect(outcome.requestState).toMatch(/^rt1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
  });

  it('ignores answers sent with a first call that carries no requestState', async () => {
    const { call } = makeEngine([refund]);
    const outcome = await call({ name: 'refund_order', arguments: args, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(Object.keys(inputRequired(outcome).inputRequests)).toEqual(['confirm']);
  });

  it('accepts answers on a first call without requestState when the tool opts in with acceptAnswersWithoutState', async () => {
    const { call } = makeEngine([makeConfirmTool({ acceptAnswersWithoutState: true })]);
    const outcome = await call({ name: 'refund_order', arguments: args, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(complete(outcome).result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'ord_1' });
  });

  it('asks again, with the reason, when an opted-in first call carries an invalid answer', async () => {
    const { call } = makeEngine([makeConfirmTool({ acceptAnswersWithoutState: true })]);
    const outcome = inputRequired(
      await call({ name: 'refund_order', arguments: args, inputResponses: { confirm: accept({ confirm: 'yes' }) } }),
    );
    expect(outcome.inputRequests.confirm!.params.message).toMatch(/^Refund order ord_1\?\n\nYour last answer was not accepted: confirm: /);
  });
});

describe('answering', () => {
  async function firstRound() {
    const test = makeEngine([refund]);
    const first = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const retry = (inputResponses: unknown) =>
      test.call({ name: 'refund_order', arguments: args, inputResponses, requestState: first.requestState });
    return { ...test, first, retry };
  }

  it('finishes on accept with the machine output mapped through result (text and structuredContent)', async () => {
    const { retry, logs } = await firstRound();
    const outcome = complete(await retry({ confirm: accept({ confirm: true }) }));
    expect(outcome.result).toEqual({
      content: [{ type: 'text', text: 'refunded: ord_1' }],
      structuredContent: { outcome: 'refunded', orderId: 'ord_1' },
    });
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'info', event: 'run_complete', code: 'finished', target: 'tool refund_order', round: 2 }),
    );
  });

  it('passes accepted content to the machine, whose guards choose the branch', async () => {
    const { retry } = await firstRound();
    expect(complete(await retry({ confirm: accept({ confirm: false }) })).result.structuredContent).toEqual({
      outcome: 'kept',
      orderId: 'ord_1',
    });
  });

  it('sends decline to the machine as confirm.decline, which ends the flow', async () => {
    const { retry } = await firstRound();
    expect(complete(await retry({ confirm: decline })).result).toEqual({
      content: [{ type: 'text', text: 'declined: ord_1' }],
      structuredContent: { outcome: 'declined', orderId: 'ord_1' },
    });
  });

  it('sends cancel to the machine as confirm.cancel, which ends the flow', async () => {
    const { retry } = await firstRound();
    expect(complete(await retry({ confirm: cancel })).result.structuredContent).toEqual({ outcome: 'cancelled', orderId: 'ord_1' });
  });

  it('asks again with the reason in the message and a new requestState when the content is invalid', async () => {
    const { first, retry, logs, call } = await firstRound();
    const again = inputRequired(await retry({ confirm: accept({ confirm: 'yes' }) }));
    expect(again.inputRequests.confirm!.params.message).toBe(
      'Refund order ord_1?\n\nYour last answer was not accepted: confirm: Invalid input: expected boolean, received string. Please answer again.',
    );
    expect(formOf(again.inputRequests.confirm!)).toEqual(formOf(first.inputRequests.confirm!));
    expect(again.requestState).not.toBe(first.requestState);
    expect(logs).toContainEqual(
      expect.objectContaining({
        event: 'answer_invalid',
        code: 'not_accepted',
        key: 'confirm',
        reason: expect.stringMatching(/^confirm: Invalid input/),
      }),
    );

    // the new state carries on
    const done = await call({
      name: 'refund_order',
      arguments: args,
      inputResponses: { confirm: accept({ confirm: true }) },
      requestState: again.requestState,
    });
    expect(complete(done).result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'ord_1' });
  });

  it('asks again, naming each missing field, when accepted content leaves out a required field', async () => {
    const { retry } = await firstRound();
    const again = inputRequired(await retry({ confirm: accept({}) }));
    expect(again.inputRequests.confirm!.params.message).toMatch(
      /not accepted: confirm: Invalid input: expected boolean, received undefined/,
    );
  });

  it.each([
    ['an unknown action', { action: 'maybe' }, `the answer's action was "maybe", expected accept, decline or cancel`],
    ['a string instead of a form result', 'yes', 'the answer was not a form result'],
    ['null', null, 'the answer was not a form result'],
  ])('asks again when the answer is %s, saying why', async (_, answer, reason) => {
    const { retry } = await firstRound();
    const again = inputRequired(await retry({ confirm: answer }));
    expect(again.inputRequests.confirm!.params.message).toBe(
      `Refund order ord_1?\n\nYour last answer was not accepted: ${reason}. Please answer again.`,
    );
  });

  it.each([
    ['no inputResponses', undefined],
    ['empty inputResponses', {}],
    ['inputResponses with only an unknown key', { something_else: accept({ confirm: true }) }],
  ])('asks the same question again with a new requestState when the answer is missing (%s)', async (_, responses) => {
    const { first, retry } = await firstRound();
    const again = inputRequired(await retry(responses));
    expect(Object.keys(again.inputRequests)).toEqual(['confirm']);
    expect(again.inputRequests.confirm!.params.message).toMatch(/^Refund order ord_1\?/);
    expect(again.requestState).not.toBe(first.requestState);
  });

  it('ignores unknown answer keys next to a valid answer', async () => {
    const { retry } = await firstRound();
    const responses = {
      ...JSON.parse('{"__proto__": {"action": "decline"}, "constructor": {"action": "cancel"}}'),
      confirm: accept({ confirm: true }),
      bogus: accept({ x: 1 }),
    };
    const outcome = await retry(responses);
    expect(complete(outcome).result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'ord_1' });
  });

  it('asks again and logs it when inputResponses is not an object', async () => {
    const { retry, logs } = await firstRound();
    inputRequired(await retry([accept({ confirm: true })]));
    inputRequired(await retry('confirm'));
    expect(logs.filter((e) => e.event === 'answer_invalid').map((e) => e.message)).toEqual([
      'inputResponses is a list, not an object; answers ignored',
      'inputResponses is a string, not an object; answers ignored',
    ]);
  });

  it('drops unknown fields of accepted content before the machine sees it', async () => {
    const { retry } = await firstRound();
    const outcome = await retry({ confirm: accept({ confirm: true, extra: 'ignored' }) });
    expect(complete(outcome).result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'ord_1' });
  });

  it('lets the same requestState be retried (it is not single-use) and keeps the run id in the log across rounds', async () => {
    const { retry, logs } = await firstRound();
    inputRequired(await retry({ confirm: accept({ confirm: 1 }) }));
    complete(await retry({ confirm: accept({ confirm: true }) }));
    const runs = logs.filter((e) => e.run !== undefined).map((e) => e.run);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toBe(runs[1]);
  });
});

describe('several rounds', () => {
  it('walks a three-question machine through three rounds, each with its own requestState', async () => {
    const { call } = makeEngine([profileTool]);
    const r1 = inputRequired(await call({ name: 'create_profile', arguments: {} }));
    expect(r1.inputRequests.name!.params.message).toBe('What is your name?');

    const r2 = inputRequired(
      await call({
        name: 'create_profile',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { name: accept({ name: 'Ada' }) },
      }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['age']);
    expect(r2.inputRequests.age!.params).toEqual({
      mode: 'form',
      message: 'How old are you, Ada?',
      requestedSchema: { type: 'object', properties: { age: { type: 'integer', minimum: 0, maximum: 150 } }, required: ['age'] },
    });

    const r3 = inputRequired(
      await call({ name: 'create_profile', arguments: {}, requestState: r2.requestState, inputResponses: { age: accept({ age: 36 }) } }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['colour']);
    expect(new Set([r1.requestState, r2.requestState, r3.requestState]).size).toBe(3);

    const done = complete(
      await call({
        name: 'create_profile',
        arguments: {},
        requestState: r3.requestState,
        inputResponses: { colour: accept({ colour: 'blue' }) },
      }),
    );
    expect(done.result.structuredContent).toEqual({ status: 'complete', profile: { name: 'Ada', age: 36, colour: 'blue' } });
  });

  it('ignores an answer to an earlier round’s question (answers are pinned to the questions the state asked)', async () => {
    const { call, logs } = makeEngine([profileTool]);
    const r1 = inputRequired(await call({ name: 'create_profile', arguments: {} }));
    const r2 = inputRequired(
      await call({
        name: 'create_profile',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { name: accept({ name: 'Ada' }) },
      }),
    );
    const again = inputRequired(
      await call({
        name: 'create_profile',
        arguments: {},
        requestState: r2.requestState,
        inputResponses: { name: accept({ name: 'Eve' }), colour: accept({ colour: 'red' }) },
      }),
    );
    expect(again.inputRequests.age!.params.message).toBe('How old are you, Ada?\n\nNo answer to this question arrived; please answer it.');
    expect(logs.some((e) => e.event === 'answer_invalid' || e.event === 'answer_ignored')).toBe(false);
  });

  it('routes decline of an inner question to a transition on an ancestor state', async () => {
    const { call } = makeEngine([profileTool]);
    const r1 = inputRequired(await call({ name: 'create_profile', arguments: {} }));
    const done = complete(
      await call({ name: 'create_profile', arguments: {}, requestState: r1.requestState, inputResponses: { name: decline } }),
    );
    expect(done.result.structuredContent).toEqual({ status: 'abandoned', profile: { name: null, age: null, colour: null } });
  });

  it("routes cancel to a 'key.*' wildcard transition while accept keeps its own transition", async () => {
    const { call } = makeEngine([profileTool]);
    let state = inputRequired(await call({ name: 'create_profile', arguments: {} })).requestState;
    state = inputRequired(
      await call({ name: 'create_profile', arguments: {}, requestState: state, inputResponses: { name: accept({ name: 'Ada' }) } }),
    ).requestState;
    state = inputRequired(
      await call({ name: 'create_profile', arguments: {}, requestState: state, inputResponses: { age: accept({ age: 36 }) } }),
    ).requestState;
    const cancelled = complete(
      await call({ name: 'create_profile', arguments: {}, requestState: state, inputResponses: { colour: cancel } }),
    );
    expect(cancelled.result.structuredContent).toMatchObject({ status: 'abandoned', profile: { name: 'Ada', age: 36, colour: null } });
    const accepted = complete(
      await call({ name: 'create_profile', arguments: {}, requestState: state, inputResponses: { colour: accept({ colour: 'red' }) } }),
    );
    expect(accepted.result.structuredContent).toMatchObject({ status: 'complete' });
  });
});

describe('size of the sealed state', () => {
  const bound = (raw: string) => 1.4 * raw.length + 120;

  it('keeps a small snapshot’s sealed state under 1.4 × its persisted JSON + 120 characters', async () => {
    const actor = createActor(confirmMachine, { input: args }).start();
    const raw = JSON.stringify(actor.getPersistedSnapshot());
    actor.stop();
    const { call } = makeEngine([refund]);
    const { requestState } = inputRequired(await call({ name: 'refund_order', arguments: args }));
    expect(requestState.length).toBeLessThan(bound(raw));
  });

  it('keeps a multi-round snapshot with context under the same bound', async () => {
    const actor = createActor(profileMachine).start();
    actor.send({ type: 'name.accept', key: 'name', content: { name: 'Ada Lovelace' } });
    actor.send({ type: 'age.accept', key: 'age', content: { age: 36 } });
    const raw = JSON.stringify(actor.getPersistedSnapshot());
    actor.stop();
    const { call } = makeEngine([profileTool]);
    let state = inputRequired(await call({ name: 'create_profile', arguments: {} })).requestState;
    state = inputRequired(
      await call({
        name: 'create_profile',
        arguments: {},
        requestState: state,
        inputResponses: { name: accept({ name: 'Ada Lovelace' }) },
      }),
    ).requestState;
    state = inputRequired(
      await call({ name: 'create_profile', arguments: {}, requestState: state, inputResponses: { age: accept({ age: 36 }) } }),
    ).requestState;
    expect(state.length).toBeLessThan(bound(raw));
  });
});

describe('unknown tools', () => {
  it('answers an unknown tool name with -32602 listing the tools', async () => {
    const { call } = makeEngine([refund, profileTool]);
    expect(await call({ name: 'nope', arguments: {} })).toEqual({
      type: 'error',
      error: { code: ErrorCode.InvalidParams, message: 'Unknown tool: nope', data: { tools: ['refund_order', 'create_profile'] } },
    });
    expect(ErrorCode.InvalidParams).toBe(-32602);
  });
});

describe('what a client sent, repeated back', () => {
  it('is cut to 120 characters in an error, with the rest counted', async () => {
    const { call } = makeEngine([refund]);
    const name = 'x'.repeat(10_000_000);
    const outcome = await call({ name, arguments: {} });
    expect(outcome).toMatchObject({ type: 'error', error: { message: `Unknown tool: ${'x'.repeat(120)}… (9999880 more characters)` } });
    expect(JSON.stringify(outcome).length).toBeLessThan(1_000);
  });
});

describe('an answer too large to keep', () => {
  it('is not accepted: the question is asked again with the reason, and nothing of it is repeated', async () => {
    const { call, logs } = makeEngine([refund]);
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    const huge = { action: 'accept', content: { confirm: true, note: 'x'.repeat(100_000) } };
    const again = inputRequired(
      await call({ name: 'refund_order', arguments: args, requestState: first.requestState, inputResponses: { confirm: huge } }),
    );
    expect(again.inputRequests.confirm!.params.message).toMatch(
      /^Refund order ord_1\?\n\nYour last answer was not accepted: it is 1000\d\d characters long, more than the 65536 this server keeps between rounds\. Please answer again\.$/,
    );
    expect(JSON.stringify(again).length).toBeLessThan(2_000);
    expect(logs.at(-1)).toMatchObject({ event: 'answer_invalid' });
  });
});
