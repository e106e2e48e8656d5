// Hosts that declare no elicitation: questions with a model-mediated fallback are put to the model in
// a tool result, and the model calls again with the user's answers and the sealed continuation token.
import { describe, expect, it } from 'vitest';
import { ARGS, continuationIn, textOf, tripTool } from './fallback-tools.ts';
import { complete, failed, inputRequired, makeEngine, refused } from './support.ts';

describe('model-mediated fallback', () => {
  it.each([
    ['no capabilities', undefined],
    ['capabilities without elicitation', {}],
  ] as const)('completes a two-round tool through fallback results when the request declares %s', async (_, capabilities) => {
    const { call, logs } = makeEngine([tripTool()]);
    const first = await call({ name: 'plan_trip', arguments: ARGS, capabilities });
    expect(complete(first).result.isError).toBeUndefined();
    const text = textOf(first);
    expect(text).toBe(
      [
        "plan_trip needs the user's answer before it can go on, and this client cannot ask the user itself. Ask the user the question below in your own reply and wait for them to answer. Do not answer for the user or guess.",
        '',
        "Question 'city': Where does Ada want to go?",
        'Fields:',
        '- city (required): one of "lis" (Lisbon), "osl" (Oslo)',
        '- window (optional): true or false. A window seat',
        '',
        'Once the user has answered, call plan_trip again with the same arguments as before ({"traveller":"Ada"}) plus:',
        `- "answers": {"city": {"city": …, "window": …}} (the user's answer)`,
        `- "continuation": "${continuationIn(text)}"`,
        'If the user declines to answer a question, give "decline" as its answer instead of an object; if they want to stop, give "cancel".',
      ].join('\n'),
    );

    const second = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { city: { city: 'osl' } }, continuation: continuationIn(text) },
        capabilities,
      }),
    );
    expect(second).toContain("Question 'dates': When, and for how many nights?");
    expect(second).toContain('- date (required): a date (YYYY-MM-DD)');
    expect(second).toContain('- nights (optional; default 2): a whole number, from 1 to 30');

    const done = complete(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { dates: { date: '2026-12-01', nights: 3 } }, continuation: continuationIn(second) },
        capabilities,
      }),
    );
    expect(done.result.structuredContent).toEqual({
      status: 'booked',
      trip: { traveller: 'Ada', city: 'osl', date: '2026-12-01', nights: 3 },
    });
    expect(logs.filter((e) => e.event === 'fallback_used').map((e) => e.message)).toEqual([
      "asked 'city' through the model: the request did not declare form elicitation",
      "asked 'dates' through the model: the request did not declare form elicitation",
    ]);
  });

  it('does not repeat long arguments in its instructions: the model sends its own again', async () => {
    const { call } = makeEngine([tripTool()]);
    const long = { traveller: 'A'.repeat(600) };
    const text = textOf(await call({ name: 'plan_trip', arguments: long, capabilities: undefined }));
    expect(text).toContain('call plan_trip again with the same arguments as before, unchanged, plus:');
    expect(text).not.toContain(JSON.stringify(long));
    const done = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...long, answers: { city: { city: 'osl' } }, continuation: continuationIn(text) },
        capabilities: undefined,
      }),
    );
    expect(done).toContain("Question 'dates'");
  });

  it('asks again through the model, with the reason, when an answer does not fit the form', async () => {
    const { call } = makeEngine([tripTool()]);
    const first = textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined }));
    const again = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { city: { city: 'paris' } }, continuation: continuationIn(first) },
        capabilities: undefined,
      }),
    );
    expect(again).toMatch(
      /^Question 'city': Where does Ada want to go\?\nYour last answer was not accepted: city: .+\. Please answer again\.$/m,
    );
    const missing = textOf(
      await call({ name: 'plan_trip', arguments: { ...ARGS, continuation: continuationIn(again) }, capabilities: undefined }),
    );
    expect(missing).toContain('No answer to this question arrived; please answer it.');
    const notObject = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { city: 42 }, continuation: continuationIn(missing) },
        capabilities: undefined,
      }),
    );
    expect(notObject).toMatch(/Your last answer was not accepted: .*expected object/);
    // some models send objects as JSON text: that is read back
    const next = textOf(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: JSON.stringify({ city: { city: 'lis' } }), continuation: continuationIn(notObject) },
        capabilities: undefined,
      }),
    );
    expect(next).toContain("Question 'dates'");
  });

  it.each([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ] as const)('takes "%s" as the answer of a question the user would not answer', async (word, status) => {
    const { call } = makeEngine([tripTool()]);
    const first = textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined }));
    const done = complete(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { city: word }, continuation: continuationIn(first) },
        capabilities: undefined,
      }),
    );
    expect(done.result.structuredContent).toMatchObject({ status });
  });

  it('refuses a tampered continuation token, and one of another principal or other arguments, like any invalid state', async () => {
    const { call, logs } = makeEngine([tripTool()]);
    const token = continuationIn(textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })));
    const retry = (continuation: string, extra: { principal?: string; traveller?: string } = {}) =>
      call({
        name: 'plan_trip',
        arguments: { traveller: extra.traveller ?? 'Ada', answers: { city: { city: 'lis' } }, continuation },
        capabilities: undefined,
        ...(extra.principal ? { principal: extra.principal } : {}),
      });
    // a character inside the body, not the last (it may carry bits base64url leaves unused)
    const at = token.length - 7;
    const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    const refusal = (why: string) => ({
      type: 'complete',
      result: {
        content: [
          {
            type: 'text',
            text: `The 'continuation' token was not accepted: ${why}. Call plan_trip again with only its own arguments, without 'answers' and 'continuation', to start over; the questions will be asked again.`,
          },
        ],
        isError: true,
      },
    });
    expect(await retry(tampered)).toEqual(refusal('it is not one this server gave, or it was changed'));
    expect(await retry(token, { principal: 'eve' })).toEqual(
      refusal('it belongs to another call (other arguments, another tool or another user)'),
    );
    expect(await retry(token, { traveller: 'Bob' })).toEqual(
      refusal('it belongs to another call (other arguments, another tool or another user)'),
    );
    expect(logs.filter((e) => e.event === 'state_rejected').map((e) => e.message)).toEqual([
      'continuation token refused (invalid): failed authentication (tampered, truncated or corrupted)',
      'continuation token refused (mismatch): sealed for another principal',
      'continuation token refused (mismatch): sealed for other arguments of this target',
    ]);
    // the same token still works for the call it belongs to
    expect(textOf(await retry(token))).toContain("Question 'dates'");
  });

  it('never takes a continuation token as a requestState, nor a requestState as a continuation token', async () => {
    const { call } = makeEngine([tripTool()]);
    const token = continuationIn(textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })));
    expect(
      await call({
        name: 'plan_trip',
        arguments: ARGS,
        requestState: token,
        inputResponses: { city: { action: 'accept', content: { city: 'lis' } } },
      }),
    ).toEqual(refused('mismatch'));
    const state = inputRequired(await call({ name: 'plan_trip', arguments: ARGS })).requestState;
    const asToken = await call({
      name: 'plan_trip',
      arguments: { ...ARGS, answers: { city: { city: 'lis' } }, continuation: state },
      capabilities: undefined,
    });
    expect(textOf(asToken)).toMatch(/^The 'continuation' token was not accepted: it belongs to another call/);
  });

  it('asks by elicitation again as soon as a retry declares it', async () => {
    const { call } = makeEngine([tripTool()]);
    const token = continuationIn(textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })));
    const asked = inputRequired(
      await call({
        name: 'plan_trip',
        arguments: { ...ARGS, answers: { city: { city: 'lis' } }, continuation: token },
        capabilities: { elicitation: {} },
      }),
    );
    expect(Object.keys(asked.inputRequests)).toEqual(['dates']);
    const done = complete(
      await call({
        name: 'plan_trip',
        arguments: ARGS,
        requestState: asked.requestState,
        inputResponses: { dates: { action: 'accept', content: { date: '2026-12-01' } } },
      }),
    );
    expect(done.result.structuredContent).toMatchObject({ status: 'booked', trip: { city: 'lis', nights: 2 } });
  });

  it('refuses a call that sends answers without the continuation token, or the token with a requestState', async () => {
    const { call } = makeEngine([tripTool()]);
    expect(
      textOf(await call({ name: 'plan_trip', arguments: { ...ARGS, answers: { city: { city: 'lis' } } }, capabilities: undefined })),
    ).toBe(
      "'answers' came without 'continuation'. Pass both exactly as the last result of plan_trip said, or call plan_trip again with only its own arguments, without 'answers' and 'continuation', to start over.",
    );
    const token = continuationIn(textOf(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })));
    const both = complete(await call({ name: 'plan_trip', arguments: { ...ARGS, continuation: token }, requestState: token }));
    expect(both.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^This call carries both a requestState and 'continuation'/) }],
    });
  });

  it('marks the fallback result as a tool error when the tool has an output schema (clients reject a success without structuredContent)', async () => {
    const { call } = makeEngine([tripTool({ output: true })]);
    const first = complete(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined }));
    expect(first.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("Question 'city'") }] });
    expect(first.result.structuredContent).toBeUndefined();
  });

  it('answers -32021 when a question of the round has no fallback', async () => {
    const { call } = makeEngine([tripTool({ fallback: undefined })]);
    expect(failed(await call({ name: 'plan_trip', arguments: ARGS, capabilities: undefined })).error.code).toBe(-32021);
  });
});
