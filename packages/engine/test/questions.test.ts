import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AnswerSchema, type AskMeta, defineQuestions, defineTool, type QuestionSpec } from '../src/index.ts';
import { accept, complete, definitionError, failedText, formOf, inputRequired, makeEngine, problemsOf } from './support.ts';

/** A message typed as plain text, so its placeholders are checked only when the questions are defined. */
const text = (message: string) => message;

const FORMS_HOLD =
  'Forms hold flat strings, numbers, integers, booleans, string enums and arrays of string enums; split the question or ask for a string and parse it.';

type Context = Record<string, unknown>;

/** A tool that asks the one question `q` (with this message and schema) over this context, then ends. */
function askingTool(context: Context, message: QuestionSpec<Context>['message'], schema: AnswerSchema = z.object({ ok: z.boolean() })) {
  const questions = defineQuestions<Context>()({ q: { message, schema } });
  const machine = setup({
    types: { context: {} as Context, events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
  }).createMachine({
    id: 'm',
    context,
    initial: 'asking',
    states: { asking: { meta: { ask: ['q'] }, on: { 'q.*': 'done' } }, done: { type: 'final' } },
  });
  return defineTool({
    name: 'ask_once',
    description: 'Asks one question',
    input: z.object({}),
    questions,
    machine,
    result: () => ({ text: 'done' }),
  });
}

async function firstRound(tool: ReturnType<typeof askingTool>) {
  const test = makeEngine([tool]);
  return { ...test, outcome: await test.call({ name: 'ask_once', arguments: {} }) };
}

describe('messages rendered from context', () => {
  it('fills template placeholders, nested paths included, with strings, numbers and booleans', async () => {
    const context = { order: { id: 'ord_7', lines: [{ sku: 'A1' }] }, cents: 1250, express: false };
    const { outcome } = await firstRound(
      askingTool(context, 'Refund {{order.id}} ({{ cents }} cents, express: {{express}}, first line {{order.lines.0.sku}})?'),
    );
    expect(inputRequired(outcome).inputRequests.q!.params.message).toBe('Refund ord_7 (1250 cents, express: false, first line A1)?');
  });

  it('calls a function message with the context', async () => {
    const { outcome } = await firstRound(askingTool({ name: 'Ada' }, ({ context }) => `How old are you, ${context.name}?`));
    expect(inputRequired(outcome).inputRequests.q!.params.message).toBe('How old are you, Ada?');
  });

  it.each([
    ['missing', { order: null as { id: string } | null }, '{{order.id}}', 'order.id', 'undefined'],
    ['null', { note: null as string | null }, '{{note}}', 'note', 'null'],
    ['an object', { order: { id: 'x' } }, '{{order}}', 'order', 'object'],
  ])(
    'fails the round when a placeholder reads a %s value, naming the path in the log and telling the client only that the tool failed',
    async (_, context, placeholder, path, what) => {
      const { outcome, logs } = await firstRound(askingTool(context, text(`About ${placeholder}?`)));
      expect(complete(outcome).result).toEqual({ content: [{ type: 'text', text: failedText("Tool 'ask_once'") }], isError: true });
      expect(logs).toEqual([
        expect.objectContaining({
          level: 'error',
          event: 'engine_error',
          code: 'threw',
          target: 'tool ask_once',
          error: new Error(
            `the message placeholder {{${path}}} reads context.${path}, which is ${what}: give it a string, number or boolean before asking`,
          ),
        }),
      ]);
      expect(JSON.stringify(outcome)).not.toContain(path);
    },
  );

  it('ignores an answer to a question whose text changed since it was asked, and asks the new one', async () => {
    let price = 100;
    const tool = askingTool({}, () => `Pay ${price}?`);
    const { call, logs } = makeEngine([tool]);
    const first = inputRequired(await call({ name: 'ask_once', arguments: {} }));
    price = 120;
    const again = inputRequired(
      await call({ name: 'ask_once', arguments: {}, requestState: first.requestState, inputResponses: { q: accept({ ok: true }) } }),
    );
    expect(again.inputRequests.q!.params.message).toBe('Pay 120?');
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        event: 'answer_ignored',
        code: 'question_changed',
        key: 'q',
      }),
    );
    complete(
      await call({ name: 'ask_once', arguments: {}, requestState: again.requestState, inputResponses: { q: accept({ ok: true }) } }),
    );
  });
});

describe('question definitions', () => {
  const okSchema = z.object({ ok: z.boolean() });

  it('lists its keys and is frozen', () => {
    const questions = defineQuestions<unknown>()({
      confirm: { message: 'Sure?', schema: okSchema },
      reason: { message: 'Why?', schema: z.object({ why: z.string() }) },
    });
    expect(questions).toEqual({ kind: 'questions', keys: ['confirm', 'reason'] });
    expect(Object.isFrozen(questions)).toBe(true);
    expect(Object.isFrozen(questions.keys)).toBe(true);
  });

  it.each(['1st', 'has.dot', 'has space', 'x'.repeat(65), ''])('refuses the question key %j', (key) => {
    expect(problemsOf(() => defineQuestions<unknown>()({ [key]: { message: 'Q?', schema: okSchema } }))).toEqual([
      {
        path: [`question '${key}'`],
        code: 'invalid_question',
        message: 'a question key starts with a letter and holds only letters, digits, _ and - (at most 64).',
        fix: 'Rename the question.',
      },
    ]);
  });

  it.each(['ok', 'Confirm-2', 'a_b', 'x'.repeat(64)])('accepts the question key %j', (key) => {
    expect(defineQuestions<unknown>()({ [key]: { message: 'Q?', schema: okSchema } }).keys).toEqual([key]);
  });

  it.each(['', '   '])('refuses the empty message %j', (message) => {
    expect(problemsOf(() => defineQuestions<unknown>()({ q: { message, schema: okSchema } }))).toEqual([
      { path: ["question 'q'"], code: 'invalid_question', message: 'the message is empty.', fix: 'Write the question the user will read.' },
    ]);
  });

  it('refuses a question without a message', () => {
    expect(problemsOf(() => defineQuestions<unknown>()({ q: { schema: okSchema } as unknown as QuestionSpec }))).toEqual([
      {
        path: ["question 'q'"],
        code: 'invalid_question',
        message: 'it has no message.',
        fix: "Give it a message: a template such as 'Refund {{amount}}?' or ({ context }) => string.",
      },
    ]);
  });

  it('refuses every placeholder that is not a context path, one problem each', () => {
    const problems = problemsOf(() =>
      defineQuestions<unknown>()({ q: { message: text('Pay {{1st}} to {{a b}} by {{a..b}} or {{}}?'), schema: okSchema } }),
    );
    expect(problems.map((p) => p.message)).toEqual([
      'the placeholder {{1st}} is not a context path.',
      'the placeholder {{a b}} is not a context path.',
      'the placeholder {{a..b}} is not a context path.',
      'the placeholder {{}} is not a context path.',
    ]);
    expect(problems[0]).toMatchObject({
      path: ["question 'q'"],
      code: 'invalid_question',
      fix: 'Write placeholders as {{name}} or {{order.amount}}.',
    });
  });

  it('collects the problems of every question into one error', () => {
    const error = definitionError(() =>
      defineQuestions<unknown>()({
        '9lives': { message: 'Q?', schema: okSchema },
        empty: { message: '', schema: okSchema },
        placeholder: { message: text('Pay {{a b}}?'), schema: okSchema },
        nested: { message: 'Where?', schema: z.object({ address: z.object({ street: z.string() }) }) },
        fine: { message: 'Fine?', schema: okSchema },
      }),
    );
    expect(error.problems.map((p) => [p.path.join(' › '), p.code])).toEqual([
      ["question '9lives'", 'invalid_question'],
      ["question 'empty'", 'invalid_question'],
      ["question 'placeholder'", 'invalid_question'],
      ["question 'nested'", 'unexpressible_schema'],
    ]);
    expect(error.code).toBe('invalid_question');
    expect(error.message).toBe(
      [
        '4 problems:',
        "  - question '9lives': a question key starts with a letter and holds only letters, digits, _ and - (at most 64). Fix: Rename the question.",
        "  - question 'empty': the message is empty. Fix: Write the question the user will read.",
        "  - question 'placeholder': the placeholder {{a b}} is not a context path. Fix: Write placeholders as {{name}} or {{order.amount}}.",
        `  - question 'nested': field 'address' is a nested object, which an elicitation form cannot express. Fix: ${FORMS_HOLD}`,
      ].join('\n'),
    );
  });
});

describe('answer schemas a form cannot express', () => {
  it.each([
    ['a nested object', z.object({ address: z.object({ street: z.string() }) }), 'address', 'a nested object'],
    ['a union', z.object({ amount: z.union([z.string(), z.number()]) }), 'amount', 'a union of string and number'],
    [
      'an array of objects',
      z.object({ items: z.array(z.object({ sku: z.string() })) }),
      'items',
      'an array of something other than string enum values',
    ],
    ['an array of free strings', z.object({ tags: z.array(z.string()) }), 'tags', 'an array of something other than string enum values'],
    ['a nullable field', z.object({ note: z.string().nullable() }), 'note', 'a union of string and null'],
    ['a literal', z.object({ kind: z.literal('refund') }), 'kind', "constrained with 'const'"],
    [
      'a number enum',
      z.object({ level: z.union([z.literal(1), z.literal(2)]) }),
      'level',
      'of no single primitive type (a union, literal or unknown)',
    ],
    ['an unsupported string format', z.object({ id: z.uuid() }), 'id', "a string of format 'uuid'"],
    ['a multipleOf constraint', z.object({ qty: z.number().multipleOf(5) }), 'qty', "constrained with 'multipleOf'"],
  ])('refuses %s, naming the field', (_, schema, field, what) => {
    expect(problemsOf(() => defineQuestions<unknown>()({ q: { message: 'Q?', schema } }))).toEqual([
      {
        path: ["question 'q'"],
        code: 'unexpressible_schema',
        message: `field '${field}' is ${what}, which an elicitation form cannot express.`,
        fix: FORMS_HOLD,
      },
    ]);
  });

  it('refuses a schema that JSON Schema cannot represent at all', () => {
    expect(problemsOf(() => defineQuestions<unknown>()({ q: { message: 'Q?', schema: z.object({ when: z.date() }) } }))).toEqual([
      {
        path: ["question 'q'"],
        code: 'unexpressible_schema',
        message: 'the answer schema cannot be written as JSON Schema (Date cannot be represented in JSON Schema).',
        fix: 'Use strings, numbers, booleans and enums only.',
      },
    ]);
  });

  it('refuses an answer schema that is not a z.object', () => {
    expect(problemsOf(() => defineQuestions<unknown>()({ q: { message: 'Q?', schema: z.string() as unknown as AnswerSchema } }))).toEqual([
      {
        path: ["question 'q'"],
        code: 'unexpressible_schema',
        message: 'the answer schema is not a zod object.',
        fix: 'Use z.object({ … }) of strings, numbers, booleans and enums.',
      },
    ]);
  });
});

describe('answer schemas a form can express', () => {
  const schema = z.object({
    email: z.email().describe('Where the receipt goes'),
    amount: z.number().min(1).max(500),
    count: z.int().min(1).max(9),
    agree: z.boolean().default(false),
    reason: z.enum(['damaged', 'late', 'other']),
    extras: z.array(z.enum(['gift', 'express'])).min(1),
    note: z.string().min(3).max(200).optional(),
    code: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ title: 'Code', description: 'Three capital letters' }),
    day: z.iso.date(),
  });

  it('sends them as the restricted form schema: formats, bounds, enums, defaults, descriptions; optional fields not required', async () => {
    const { outcome } = await firstRound(askingTool({}, 'Survey?', schema));
    expect(formOf(inputRequired(outcome).inputRequests.q!)).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', description: 'Where the receipt goes' },
        amount: { type: 'number', minimum: 1, maximum: 500 },
        count: { type: 'integer', minimum: 1, maximum: 9 },
        agree: { type: 'boolean', default: false },
        reason: { type: 'string', enum: ['damaged', 'late', 'other'] },
        extras: { type: 'array', items: { type: 'string', enum: ['gift', 'express'] }, minItems: 1 },
        note: { type: 'string', minLength: 3, maxLength: 200 },
        code: { type: 'string', title: 'Code', description: 'Three capital letters' },
        day: { type: 'string', format: 'date' },
      },
      required: ['email', 'amount', 'count', 'reason', 'extras', 'code', 'day'],
    });
  });

  it('leaves out `required` when every field is optional', async () => {
    const { outcome } = await firstRound(askingTool({}, 'Anything?', z.object({ a: z.string().optional() })));
    expect(formOf(inputRequired(outcome).inputRequests.q!)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it('drops a regex pattern from the form but still enforces it when answering', async () => {
    const { call } = makeEngine([askingTool({}, 'Code?', z.object({ code: z.string().regex(/^[A-Z]{3}$/, 'use three capital letters') }))]);
    const first = inputRequired(await call({ name: 'ask_once', arguments: {} }));
    expect(formOf(first.inputRequests.q!)).toEqual({
      type: 'object',
      properties: { code: { type: 'string' } },
      required: ['code'],
    });
    const again = inputRequired(
      await call({ name: 'ask_once', arguments: {}, requestState: first.requestState, inputResponses: { q: accept({ code: 'abc' }) } }),
    );
    expect(again.inputRequests.q!.params.message).toBe(
      'Code?\n\nYour last answer was not accepted: code: use three capital letters. Please answer again.',
    );
    complete(
      await call({ name: 'ask_once', arguments: {}, requestState: again.requestState, inputResponses: { q: accept({ code: 'ABC' }) } }),
    );
  });
});
