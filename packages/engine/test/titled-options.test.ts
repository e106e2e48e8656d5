// Titled single and multi selects: a union of string literals, each optionally titled with
// `.meta({ title })`, becomes `oneOf` / `items.anyOf` of `{ const, title }` in the form.
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AnswerSchema, type AskMeta, defineQuestions, defineTool } from '../src/index.ts';
import { accept, complete, inputRequired, makeEngine, problemsOf } from './support.ts';

const plan = z.union([
  z.literal('free').meta({ title: 'Free' }),
  z.literal('pro').meta({ title: 'Pro, billed monthly' }),
  z.literal('team'),
]);
const PLAN_OPTIONS = [
  { const: 'free', title: 'Free' },
  { const: 'pro', title: 'Pro, billed monthly' },
  { const: 'team', title: 'team' },
];
const CHOICE_FIX =
  "Make every option a string literal, titled or not: z.union([z.literal('a').meta({ title: 'Option A' }), …]) or z.enum([…]).";

/** A tool that asks `Pick?` with this answer schema once, and ends with the accepted content as its text. */
function pickingTool(schema: AnswerSchema) {
  const questions = defineQuestions<unknown>()({ q: { message: 'Pick?', schema } });
  const machine = setup({
    types: {
      context: {} as { answer: unknown },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { answer: unknown },
    },
  }).createMachine({
    id: 'pick',
    context: { answer: null },
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['q'] },
        on: {
          'q.accept': { target: 'done', actions: assign({ answer: ({ event }) => event.content }) },
          'q.decline': 'done',
          'q.cancel': 'done',
        },
      },
      done: { type: 'final' },
    },
    output: ({ context }) => ({ answer: context.answer }),
  });
  return defineTool({
    name: 'pick',
    description: 'Asks one question',
    input: z.object({}),
    questions,
    machine,
    result: (output) => ({ text: JSON.stringify(output.answer) }),
  });
}

async function requestedSchemaOf(schema: AnswerSchema) {
  const { call } = makeEngine([pickingTool(schema)]);
  return (inputRequired(await call({ name: 'pick', arguments: {} })).inputRequests.q!.params as { requestedSchema: unknown })
    .requestedSchema;
}

const refusalOf = (schema: AnswerSchema) => problemsOf(() => defineQuestions<unknown>()({ q: { message: 'Pick?', schema } }));

describe('titled selects in the requested schema', () => {
  it('sends a union of string literals as a titled single select, an untitled option titled by its value', async () => {
    expect(await requestedSchemaOf(z.object({ plan }))).toEqual({
      type: 'object',
      properties: { plan: { type: 'string', oneOf: PLAN_OPTIONS } },
      required: ['plan'],
    });
  });

  it('sends an array of such a union as a titled multi select with its item bounds', async () => {
    expect(await requestedSchemaOf(z.object({ plans: z.array(plan).min(1).max(2) }))).toEqual({
      type: 'object',
      properties: { plans: { type: 'array', items: { anyOf: PLAN_OPTIONS }, minItems: 1, maxItems: 2 } },
      required: ['plans'],
    });
  });

  it('carries defaults, titles and descriptions over, and a defaulted or optional select is not required', async () => {
    const schema = z.object({
      plan: plan.default('pro').meta({ title: 'Plan', description: 'What you pay for' }),
      addons: z.array(plan).default(['free', 'team']).meta({ title: 'Add-ons' }),
      backup: plan.optional(),
    });
    expect(await requestedSchemaOf(schema)).toEqual({
      type: 'object',
      properties: {
        plan: { type: 'string', title: 'Plan', description: 'What you pay for', oneOf: PLAN_OPTIONS, default: 'pro' },
        addons: { type: 'array', title: 'Add-ons', items: { anyOf: PLAN_OPTIONS }, default: ['free', 'team'] },
        backup: { type: 'string', oneOf: PLAN_OPTIONS },
      },
    });
  });

  it('reads z.xor (oneOf), nested unions and string enums among the options the same way', async () => {
    const schema = z.object({
      xor: z.xor([z.literal('a').meta({ title: 'A' }), z.literal('b')]),
      nested: z.union([z.literal('a'), z.union([z.literal('b').meta({ title: 'B' }), z.enum(['c', 'd'])])]),
    });
    expect(await requestedSchemaOf(schema)).toEqual({
      type: 'object',
      properties: {
        xor: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'A' },
            { const: 'b', title: 'b' },
          ],
        },
        nested: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'a' },
            { const: 'b', title: 'B' },
            { const: 'c', title: 'c' },
            { const: 'd', title: 'd' },
          ],
        },
      },
      required: ['xor', 'nested'],
    });
  });

  it('keeps a plain enum and an array of a plain enum untitled', async () => {
    expect(await requestedSchemaOf(z.object({ one: z.enum(['a', 'b']), many: z.array(z.enum(['a', 'b'])) }))).toEqual({
      type: 'object',
      properties: {
        one: { type: 'string', enum: ['a', 'b'] },
        many: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
      required: ['one', 'many'],
    });
  });
});

describe('answers to titled selects', () => {
  const schema = z.object({ plan, addons: z.array(plan).max(2).optional() });

  async function answer(content: Record<string, unknown>) {
    const { call } = makeEngine([pickingTool(schema)]);
    const first = inputRequired(await call({ name: 'pick', arguments: {} }));
    return {
      call,
      first,
      outcome: await call({ name: 'pick', arguments: {}, requestState: first.requestState, inputResponses: { q: accept(content) } }),
    };
  }

  it('accepts an option value (not its title) and hands it to the machine', async () => {
    const { outcome } = await answer({ plan: 'pro', addons: ['free', 'team'] });
    expect(complete(outcome).result).toEqual({ content: [{ type: 'text', text: '{"plan":"pro","addons":["free","team"]}' }] });
  });

  it.each([
    ['a value that is not an option', { plan: 'gold' }, 'plan: Invalid input'],
    ['a title instead of its value', { plan: 'Free' }, 'plan: Invalid input'],
    ['a multi select item that is not an option', { plan: 'free', addons: ['gold'] }, 'addons.0: Invalid input'],
    [
      'more items than the multi select allows',
      { plan: 'free', addons: ['free', 'pro', 'team'] },
      'addons: Too big: expected array to have <=2 items',
    ],
  ])('asks again after %s, with the reason', async (_, content, reason) => {
    const { call, outcome } = await answer(content);
    const again = inputRequired(outcome);
    expect(again.inputRequests.q!.params.message).toBe(`Pick?\n\nYour last answer was not accepted: ${reason}. Please answer again.`);
    const done = await call({
      name: 'pick',
      arguments: {},
      requestState: again.requestState,
      inputResponses: { q: accept({ plan: 'team' }) },
    });
    expect(complete(done).result).toEqual({ content: [{ type: 'text', text: '{"plan":"team"}' }] });
  });

  it("gives the union's own error message as the reason when the schema sets one", async () => {
    const named = z.union([z.literal('a').meta({ title: 'A' }), z.literal('b')], { error: 'pick a or b' });
    const { call } = makeEngine([pickingTool(z.object({ choice: named }))]);
    const first = inputRequired(await call({ name: 'pick', arguments: {} }));
    const again = inputRequired(
      await call({ name: 'pick', arguments: {}, requestState: first.requestState, inputResponses: { q: accept({ choice: 'c' }) } }),
    );
    expect(again.inputRequests.q!.params.message).toBe(
      'Pick?\n\nYour last answer was not accepted: choice: pick a or b. Please answer again.',
    );
  });
});

describe('unions a titled select cannot express', () => {
  it.each([
    ['a string option beside a number', z.union([z.literal('a'), z.number()]), 'a choice whose option 2 is any number'],
    ['a string option beside a number literal', z.union([z.literal('a'), z.literal(1)]), 'a choice whose option 2 is the literal 1'],
    ['a string option beside a boolean literal', z.union([z.literal(true), z.literal('a')]), 'a choice whose option 1 is the literal true'],
    ['a string option beside any string', z.union([z.literal('a'), z.string()]), 'a choice whose option 2 is any string'],
    ['a nullable choice', z.union([z.literal('a'), z.literal('b')]).nullable(), 'a choice whose option 3 is null'],
    [
      'an option with a description',
      z.union([z.literal('a').meta({ description: 'd' }), z.literal('b')]),
      "a choice whose option 1 is constrained with 'description'",
    ],
    [
      'an option offered twice',
      z.union([z.literal('a'), z.literal('a').meta({ title: 'A again' })]),
      "a choice whose options offer 'a' twice",
    ],
    [
      'a default that is not an option',
      z.union([z.literal('a'), z.literal('b')]).default('c' as 'a'),
      'a choice whose default "c" is not one of its options',
    ],
    ['a multi select mixing in a number', z.array(z.union([z.literal('a'), z.number()])), 'a multi select whose option 2 is any number'],
    [
      'a multi select whose default is not its options',
      z.array(z.union([z.literal('a'), z.literal('b')])).default(['a', 'c'] as 'a'[]),
      'a multi select whose default ["a","c"] is not a list of its options',
    ],
  ])('refuses %s, naming the field and the option', (_, field, what) => {
    expect(refusalOf(z.object({ field }))).toEqual([
      {
        path: ["question 'q'"],
        code: 'unexpressible_schema',
        message: `field 'field' is ${what}, which an elicitation form cannot express.`,
        fix: CHOICE_FIX,
      },
    ]);
  });

  it.each([
    ['number literals', z.union([z.literal(1), z.literal(2)]), 'of no single primitive type (a union, literal or unknown)'],
    [
      'objects',
      z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      'of no single primitive type (a union, literal or unknown)',
    ],
    ['an array of number literals', z.array(z.union([z.literal(1), z.literal(2)])), 'an array of something other than string enum values'],
  ])('refuses a union of %s, with no string option in it, as any other union', (_, field, what) => {
    expect(refusalOf(z.object({ field }))).toEqual([
      expect.objectContaining({
        code: 'unexpressible_schema',
        message: `field 'field' is ${what}, which an elicitation form cannot express.`,
      }),
    ]);
  });
});
