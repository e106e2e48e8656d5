// Adversarial suite, answers: fuzzed `inputResponses` for a round that asks a form of every field kind.
// Whatever arrives, the outcome is the same question asked again (with a note), a decline or cancel, or
// (only for valid content) the next question; the engine never throws and no prototype is touched.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type StepOutcome } from '../src/index.ts';
import { type Details, makeSubmitTool, type SubmitCounter, validDetails } from './adversarial-tool.ts';
import { accept, complete, inputRequired, makeEngine, messageOf } from './support.ts';

const args = { account: 'acct_1' };
const runs = { seed: 0xa115, numRuns: 200 };
const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'polluted'];
const FIELDS = ['name', 'amount', 'urgent', 'channel', 'plan', 'tags'] as const;

// ─── what the outcome must be, decided without the engine's code ────────────────────────────────

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (value: unknown, options: readonly string[]) => typeof value === 'string' && options.includes(value);

/** The form's fields as the form says them, checked by hand: the content that must be accepted. */
function validContent(content: unknown): Details | undefined {
  if (!isRecord(content)) return undefined;
  const { name, amount, urgent, channel, plan, tags } = content;
  const ok =
    typeof name === 'string' &&
    name.length >= 1 &&
    name.length <= 80 &&
    typeof amount === 'number' &&
    Number.isFinite(amount) &&
    amount >= 1 &&
    amount <= 500 &&
    typeof urgent === 'boolean' &&
    oneOf(channel, ['email', 'phone']) &&
    oneOf(plan, ['free', 'pro']) &&
    Array.isArray(tags) &&
    tags.every((tag) => oneOf(tag, ['billing', 'shipping', 'other']));
  return ok ? ({ name, amount, urgent, channel, plan, tags: [...tags] } as Details) : undefined;
}

/** Length of the value as JSON; NaN when it is nested too deeply for JSON.stringify (about 8,000 levels on Node 20). */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return Number.NaN;
  }
}

type Expected = { kind: 'accepted'; details: Details } | { kind: 'declined' | 'cancelled' } | { kind: 'asked_again' };

/** What an answer to `details` must lead to; an answer larger than a state (64 KiB) is never read. */
function expected(answer: unknown): Expected {
  if (!isRecord(answer) || !(jsonLength(answer) <= 65_536)) return { kind: 'asked_again' };
  if (answer.action === 'decline') return { kind: 'declined' };
  if (answer.action === 'cancel') return { kind: 'cancelled' };
  const details = answer.action === 'accept' ? validContent(answer.content) : undefined;
  return details ? { kind: 'accepted', details } : { kind: 'asked_again' };
}

// ─── the engine under attack ─────────────────────────────────────────────────────────────────────

const counter: SubmitCounter = { runs: 0 };
const { call, logs } = makeEngine([makeSubmitTool(counter)]);
let state = '';
let askedMessage = '';

beforeAll(async () => {
  const first = inputRequired(await call({ name: 'submit_request', arguments: args }));
  state = first.requestState;
  askedMessage = first.inputRequests.details!.params.message;
});

/** Sends `inputResponses` with the round-1 state; never throws itself, whatever comes back. */
const answerWith = (inputResponses: unknown) => call({ name: 'submit_request', arguments: args, requestState: state, inputResponses });

/** Checks that `outcome` is what `want` says, and returns a description of what went wrong, if anything. */
function mismatch(outcome: StepOutcome, want: Expected): string | undefined {
  const seen = JSON.stringify(outcome).slice(0, 400);
  switch (want.kind) {
    case 'asked_again': {
      if (outcome.type !== 'input_required') return `expected the question again, got ${seen}`;
      const keys = Object.keys(outcome.inputRequests);
      const message = messageOf(outcome.inputRequests.details);
      if (keys.join() !== 'details') return `expected only 'details' again, got ${keys.join()}`;
      if (!message.startsWith(`${askedMessage}\n\n`) || !/(Your last answer was not accepted|No answer)/.test(message))
        return `the question came back without a note: ${message.slice(0, 200)}`;
      return undefined;
    }
    case 'accepted': {
      if (outcome.type !== 'input_required' || Object.keys(outcome.inputRequests).join() !== 'confirm')
        return `expected 'confirm', got ${seen}`;
      const message = messageOf(outcome.inputRequests.confirm);
      const wanted = `Submit ${want.details.amount} for ${want.details.name}?`;
      return message === wanted ? undefined : `confirm asked ${JSON.stringify(message)}, expected ${JSON.stringify(wanted)}`;
    }
    default: {
      if (outcome.type !== 'complete') return `expected the tool to end ${want.kind}, got ${seen}`;
      const structured = outcome.result.structuredContent as { outcome?: string; receipt?: unknown };
      return structured.outcome === want.kind && structured.receipt === null ? undefined : `expected ${want.kind}, got ${seen}`;
    }
  }
}

async function check(inputResponses: unknown, want: Expected): Promise<void> {
  const problem = mismatch(await answerWith(inputResponses), want);
  if (problem) throw new Error(problem);
}

// ─── prototypes: recorded before, compared after ─────────────────────────────────────────────────

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype };
const shapeOf = () =>
  Object.fromEntries(Object.entries(PROTOTYPES).map(([name, proto]) => [name, Object.getOwnPropertyDescriptors(proto)]));
let shapeBefore: ReturnType<typeof shapeOf>;
beforeAll(() => {
  shapeBefore = shapeOf();
});

function expectPrototypesUntouched() {
  const shape = shapeOf();
  for (const [name, descriptors] of Object.entries(shapeBefore)) {
    expect(Object.keys(shape[name]!), `${name}.prototype keys`).toEqual(Object.keys(descriptors));
    for (const [key, descriptor] of Object.entries(descriptors)) expect(shape[name]![key], `${name}.prototype.${key}`).toEqual(descriptor);
  }
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(([] as unknown as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

afterAll(() => {
  expectPrototypesUntouched();
  // nothing reached the effect, and no round failed on the server
  expect(counter.runs).toBe(0);
  expect(logs.filter((entry) => entry.level === 'error')).toEqual([]);
});

// ─── generators ──────────────────────────────────────────────────────────────────────────────────

const key = fc.oneof(fc.constantFrom(...DANGEROUS_KEYS, ...FIELDS, 'action', 'content'), fc.string({ maxLength: 8 }));
/** Any value a parsed JSON document can hold, with dangerous keys common, plus objects without a prototype. */
const anyValue = fc.anything({ key, maxDepth: 4, withNullPrototype: true, withSparseArray: true, withBoxedValues: true });
const jsonValue = fc.jsonValue({ maxDepth: 4 });
/** A right value for each field, or a wrong one of a nearby kind. */
const fieldValue: Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>> = {
  name: fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom('', 'x'.repeat(81), 42, null, ['Ada'], { toString: 'Ada' })),
  amount: fc.oneof(
    fc.double({ min: 1, max: 500, noNaN: true }),
    fc.constantFrom(0, 0.5, 501, -1, '42', 'NaN', 'Infinity', '1e3', null, true, [42], Number.NaN, Number.POSITIVE_INFINITY, -0),
  ),
  urgent: fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 0, 1, null, 'yes', [])),
  channel: fc.oneof(fc.constantFrom('email', 'phone'), fc.constantFrom('EMAIL', 'Email', 'fax', '', ['email'], 1, null, '__proto__')),
  plan: fc.oneof(fc.constantFrom('free', 'pro'), fc.constantFrom('Free', 'Pro, billed monthly', 'team', '', { const: 'pro' }, null)),
  tags: fc.oneof(
    fc.array(fc.constantFrom('billing', 'shipping', 'other'), { maxLength: 4 }),
    fc.constantFrom('billing', ['Billing'], ['billing', 1], [null], [['billing']], {}, null),
  ),
};
const content = fc.oneof(
  fc.record(fieldValue, { requiredKeys: [] }),
  fc.tuple(fc.record(fieldValue), fc.dictionary(key, jsonValue, { maxKeys: 4 })).map(([fields, extra]) => ({ ...extra, ...fields })),
  fc.dictionary(key, anyValue, { maxKeys: 6 }),
  anyValue,
);
const action = fc.oneof(
  { weight: 4, arbitrary: fc.constant('accept') },
  fc.constantFrom('decline', 'cancel', 'ACCEPT', 'Accept', 'accept ', ' accept', 'accepted', 'submit', '', '__proto__', 'constructor'),
  anyValue,
);
const answer = fc.oneof(
  { weight: 4, arbitrary: fc.record({ action, content }, { requiredKeys: [] }) },
  fc.tuple(fc.record({ action, content }), fc.dictionary(key, anyValue, { maxKeys: 3 })).map(([a, extra]) => ({ ...extra, ...a })),
  anyValue,
);

// ─── the properties ──────────────────────────────────────────────────────────────────────────────

describe('fuzzed answers to a form (fast-check, seeded)', () => {
  it('answers every fuzzed answer as a valid one, a decline or cancel, or the same question again with a note', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(answer, async (raw) => {
        const want = expected(raw);
        seen.add(want.kind);
        await check({ details: raw }, want);
      }),
      { ...runs, numRuns: 300 },
    );
    // the generators reach every branch, or the property proves little
    expect([...seen].sort()).toEqual(['accepted', 'asked_again', 'cancelled', 'declined']);
    expectPrototypesUntouched();
  });

  it('asks again for any JSON value that is not a form result, and ignores it under any other key', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, fc.dictionary(key, anyValue, { maxKeys: 4 }), async (raw, others) => {
        fc.pre(!isRecord(raw) || (raw.action !== 'decline' && raw.action !== 'cancel' && raw.action !== 'accept'));
        await check({ ...others, details: raw }, { kind: 'asked_again' });
      }),
      runs,
    );
  });

  it('accepts valid content with extra and dangerous keys, and keeps only the form fields', async () => {
    const validField = fc.record({
      name: fc.string({ minLength: 1, maxLength: 80 }),
      amount: fc.integer({ min: 1, max: 500 }),
      urgent: fc.boolean(),
      channel: fc.constantFrom('email', 'phone'),
      plan: fc.constantFrom('free', 'pro'),
      tags: fc.uniqueArray(fc.constantFrom('billing', 'shipping', 'other')),
    });
    const extras = fc.dictionary(fc.constantFrom(...DANGEROUS_KEYS, 'admin', 'role'), jsonValue, { minKeys: 1, maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(validField, extras, async (fields, extra) => {
        const withExtras: Record<string, unknown> = { ...fields };
        // own properties named __proto__ and constructor, as JSON.parse makes them
        for (const [k, v] of Object.entries(extra)) Object.defineProperty(withExtras, k, { value: v, enumerable: true });
        const outcome = await answerWith({ details: { action: 'accept', content: withExtras } });
        const problem = mismatch(outcome, { kind: 'accepted', details: fields as Details });
        if (problem) throw new Error(problem);
        // the content the machine kept is exactly the form's fields: end the run with "no" and read it back
        const next = inputRequired(outcome).requestState;
        const kept = complete(
          await call({
            name: 'submit_request',
            arguments: args,
            requestState: next,
            inputResponses: { confirm: accept({ confirm: false }) },
          }),
        );
        expect(kept.result.structuredContent).toEqual({ outcome: 'kept', details: fields, receipt: null });
      }),
      { ...runs, numRuns: 60 },
    );
    expectPrototypesUntouched();
  });
});

describe('hostile shapes of answers', () => {
  const huge = 'x'.repeat(5 * 1024 * 1024);

  it.each([
    ['a 5 MB name', () => ({ action: 'accept', content: { ...validDetails, name: huge } })],
    ['a 5 MB extra key beside valid fields', () => ({ action: 'accept', content: { ...validDetails, notes: huge } })],
    ['a 5 MB action', () => ({ action: huge, content: validDetails })],
    ['a decline carrying 5 MB', () => ({ action: 'decline', content: { notes: huge } })],
    ['a 5 MB key', () => ({ action: 'accept', content: { ...validDetails, [huge]: 1 } })],
    [
      "a 60 KB name (under the size cap, over the field's limit)",
      () => ({ action: 'accept', content: { ...validDetails, name: 'n'.repeat(60_000) } }),
    ],
    [
      '60 KB of extra keys beside valid fields (under the size cap)',
      () => ({ action: 'accept', content: { ...validDetails, notes: 'n'.repeat(60_000) } }),
    ],
  ])('handles %s without accepting it or throwing, and repeats none of it', async (_, make) => {
    const raw = make();
    const outcome = await answerWith({ details: raw });
    const problem = mismatch(outcome, expected(raw));
    if (problem) throw new Error(problem);
    if (outcome.type === 'input_required') {
      for (const request of Object.values(outcome.inputRequests)) expect(messageOf(request).length).toBeLessThan(1000);
    }
  });

  it('asks again for a 60 KB action (under the size cap)', async () => {
    await check({ details: { action: 'a'.repeat(60_000), content: validDetails } }, { kind: 'asked_again' });
  });

  // found by this suite, fixed in read-answer.ts: an unknown action was repeated whole in the note, up to the 64 KiB answer cap
  it('repeats at most a few dozen characters of an unknown action in the note', async () => {
    const outcome = inputRequired(await answerWith({ details: { action: 'a'.repeat(60_000), content: validDetails } }));
    expect(outcome.inputRequests.details!.params.message.length).toBeLessThan(1000);
  });

  it('refuses answers for forms that hide a prototype: __proto__ and constructor as own keys (as JSON.parse makes them)', async () => {
    const attacks = [
      `{"details": {"action": "accept", "content": {"__proto__": ${JSON.stringify(validDetails)}}}}`,
      `{"details": {"__proto__": {"action": "accept", "content": ${JSON.stringify(validDetails)}}}}`,
      `{"__proto__": {"details": {"action": "accept", "content": ${JSON.stringify(validDetails)}}}}`,
      `{"__proto__": {"action": "accept", "content": ${JSON.stringify(validDetails)}}}`,
      `{"details": {"action": "accept", "content": {"constructor": {"prototype": {"polluted": true}}}}}`,
      `{"details": {"action": "accept", "content": {"__proto__": {"polluted": true}, "tags": {"__proto__": ["billing"]}}}}`,
      `{"constructor": {"prototype": {"polluted": true}}, "details": {"action": "accept", "content": {"__proto__": {"polluted": true}}}}`,
    ];
    for (const text of attacks) await check(JSON.parse(text), expected((JSON.parse(text) as { details?: unknown }).details));
    expectPrototypesUntouched();
  });

  it('never reads an answer inherited by inputResponses, only its own keys', async () => {
    await check(Object.create({ details: accept(validDetails) }) as object, { kind: 'asked_again' });
  });

  it.each([
    ['a list', [accept(validDetails)]],
    ['a string', JSON.stringify({ details: accept(validDetails) })],
    ['a number', 42],
    ['true', true],
    ['null', null],
  ])('asks again when inputResponses is %s', async (_, inputResponses) => {
    await check(inputResponses, { kind: 'asked_again' });
  });
});

describe('answers nested 10,000 levels', () => {
  // an engine of its own: a round that fails here logs at error level, which the suite above forbids
  const deep = (levels: number, leaf = '1') => JSON.parse(`${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`) as unknown;
  const deepObject = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;
  const cases: [string, () => unknown][] = [
    ['an array nested 10,000 levels as the answer', () => ({ details: deep(10_000) })],
    ['an object nested 10,000 levels as the content', () => ({ details: { action: 'accept', content: deepObject(10_000) } })],
    ['a field nested 10,000 levels', () => ({ details: { action: 'accept', content: { ...validDetails, name: deep(10_000, '"Ada"') } } })],
    [
      'an extra key nested 10,000 levels',
      () => ({ details: { action: 'accept', content: { ...validDetails, extra: deepObject(10_000) } } }),
    ],
    ['inputResponses nested 10,000 levels', () => JSON.parse(`${'{"details":'.repeat(10_000)}1${'}'.repeat(10_000)}`)],
  ];

  it.each(cases)('never accepts %s, never throws, and runs no effect', async (_, make) => {
    const deepCounter: SubmitCounter = { runs: 0 };
    const engine = makeEngine([makeSubmitTool(deepCounter)]);
    const first = inputRequired(await engine.call({ name: 'submit_request', arguments: args })).requestState;
    const outcome = await engine.call({ name: 'submit_request', arguments: args, requestState: first, inputResponses: make() });
    // asked again, or (today) the round fails as a tool error: never the next question, never a result
    if (outcome.type === 'input_required') expect(Object.keys(outcome.inputRequests)).toEqual(['details']);
    else expect(outcome).toMatchObject({ type: 'complete', result: { isError: true } });
    expect(deepCounter.runs).toBe(0);
    expectPrototypesUntouched();
  });

  // found by this suite, fixed in feed-answers.ts: sizing the answer with JSON.stringify overflowed the stack past about 8,000 levels,
  // so the round failed as engine_error ("failed on the server", logged at error level) instead of asking again
  it.each(cases)('asks again for %s, with a note', async (_, make) => {
    const engine = makeEngine([makeSubmitTool({ runs: 0 })]);
    const first = inputRequired(await engine.call({ name: 'submit_request', arguments: args })).requestState;
    const outcome = await engine.call({ name: 'submit_request', arguments: args, requestState: first, inputResponses: make() });
    expect(Object.keys(inputRequired(outcome).inputRequests)).toEqual(['details']);
    expect(engine.logs.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

describe('answers just under the size cap', () => {
  /** A tool that keeps a free-text note (no length limit) and asks one more question. */
  function noteTool() {
    const questions = defineQuestions<{ note: string }>()({
      note: { message: 'Any note?', schema: z.object({ note: z.string() }) },
      sure: { message: 'Sure?', schema: z.object({ sure: z.boolean() }) },
    });
    const machine = setup({
      types: { context: {} as { note: string }, events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
    }).createMachine({
      id: 'note',
      context: { note: '' },
      initial: 'noting',
      states: {
        noting: {
          meta: { ask: ['note'] },
          on: { 'note.accept': { target: 'checking', actions: assign({ note: ({ event }) => event.content.note }) }, 'note.*': 'done' },
        },
        checking: { meta: { ask: ['sure'] }, on: { 'sure.*': 'done' } },
        done: { type: 'final' },
      },
    });
    return defineTool({
      name: 'take_note',
      description: 'Keeps a note',
      input: z.object({}),
      questions,
      machine,
      result: () => ({ text: 'noted' }),
    });
  }

  // found by this suite, fixed in feed-answers.ts and run-step.ts: an answer under the answer cap (64 KiB of JSON) was accepted, but the state sealed with it was
  // larger than maxStateBytes (base64 adds a third), so the next round refused it: the user answered, then had to start over
  it('never hands out a state larger than it accepts back', async () => {
    const { call } = makeEngine([noteTool()]);
    const first = inputRequired(await call({ name: 'take_note', arguments: {} })).requestState;
    const outcome = await call({
      name: 'take_note',
      arguments: {},
      requestState: first,
      inputResponses: { note: accept({ note: 'n'.repeat(60_000) }) },
    });
    // asked again: a round that ends in an error (state_too_large) also sends the user back to the start
    const again = inputRequired(outcome);
    expect(Object.keys(again.inputRequests)).toEqual(['note']);
    expect(again.requestState.length).toBeLessThanOrEqual(65_536);
  });
});
