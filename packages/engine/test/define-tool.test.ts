import { type AnyStateMachine, createMachine, fromPromise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnswerSchema, type RoundtripDefinitionErrorCode, RoundtripDefinitionError, ask, createEngine, createKeyring, defineTool, generateKey, toElicitationSchema } from '../src/index.ts';
import { makeConfirmTool } from './machines.ts';
import { accept, complete, inputRequired, makeEngine } from './support.ts';

const okSchema = z.object({ ok: z.boolean() });

function define(machine: AnyStateMachine, name = 'tool_x') {
  return defineTool({ name, description: 'test tool', input: z.object({}), machine, result: () => ({ text: 'done' }) });
}

/** Runs `fn`, expecting a RoundtripDefinitionError with `code`; returns its message. */
function definitionError(fn: () => unknown, code: RoundtripDefinitionErrorCode): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    expect((error as RoundtripDefinitionError).code).toBe(code);
    expect((error as RoundtripDefinitionError).name).toBe('RoundtripDefinitionError');
    return (error as RoundtripDefinitionError).message;
  }
  throw new Error(`expected a RoundtripDefinitionError '${code}', but nothing was thrown`);
}

/** A machine with one asking state whose answer schema is `schema`. */
function askingMachine(schema: AnswerSchema) {
  return setup({}).createMachine({
    id: 'm',
    initial: 'asking',
    states: { asking: { meta: { ask: { q: ask<unknown>({ message: 'Question?', schema }) } }, on: { 'q.*': 'done' } }, done: { type: 'final' } },
  });
}

describe('tool names', () => {
  it.each(['', 'has space', 'slash/name', 'ünïcode', 'x'.repeat(129), 'semi;colon'])('refuses the tool name %j', (name) => {
    const message = definitionError(() => define(askingMachine(okSchema), name), 'invalid_tool_name');
    expect(message).toBe(`Tool name ${JSON.stringify(name)} is not valid: use 1–128 characters of letters, digits, '_', '-' and '.'.`);
  });

  it.each(['a', 'refund_order', 'orders.refund-v2', 'x'.repeat(128)])('accepts the tool name %j', (name) => {
    expect(define(askingMachine(okSchema), name).name).toBe(name);
  });

  it('refuses an input that is not a z.object', () => {
    const message = definitionError(
      () => defineTool({ name: 'x', description: 'd', input: z.string() as unknown as z.ZodObject, machine: askingMachine(okSchema), result: () => ({ text: '' }) }),
      'invalid_option',
    );
    expect(message).toBe("Tool 'x': 'input' must be a z.object({...}) schema of the arguments.");
  });
});

describe('asking states must handle every answer', () => {
  const machineWith = (on: Record<string, string>, parentOn: Record<string, string> = {}) =>
    setup({}).createMachine({
      id: 'm',
      initial: 'outer',
      states: {
        outer: {
          on: parentOn,
          initial: 'asking',
          states: { asking: { meta: { ask: { confirm: ask<unknown>({ message: 'Sure?', schema: okSchema }) } }, on } },
        },
        done: { type: 'final' },
      },
    });

  it.each([
    ['decline', { 'confirm.accept': '#m.done', 'confirm.cancel': '#m.done' }],
    ['cancel', { 'confirm.accept': '#m.done', 'confirm.decline': '#m.done' }],
    ['accept', { 'confirm.decline': '#m.done', 'confirm.cancel': '#m.done' }],
  ])('refuses an asking state with no transition for %s', (action, on) => {
    const message = definitionError(() => define(machineWith(on)), 'unhandled_answer');
    expect(message).toBe(
      `Tool 'tool_x', state 'm.outer.asking', ask 'confirm' has no transition for 'confirm.${action}', so that answer would leave the user asked again forever. ` +
        `Add on: { 'confirm.${action}': … } to the state (or 'confirm.*').`,
    );
  });

  it('accepts decline and cancel handled by an ancestor state', () => {
    expect(() => define(machineWith({ 'confirm.accept': '#m.done' }, { 'confirm.decline': '#m.done', 'confirm.cancel': '#m.done' }))).not.toThrow();
  });

  it("accepts a 'key.*' wildcard for the answers, on the state or on an ancestor", () => {
    expect(() => define(machineWith({ 'confirm.accept': '#m.done', 'confirm.*': '#m.done' }))).not.toThrow();
    expect(() => define(machineWith({ 'confirm.accept': '#m.done' }, { 'confirm.*': '#m.done' }))).not.toThrow();
  });

  it("accepts a '*' wildcard", () => {
    expect(() => define(machineWith({ '*': '#m.done' }))).not.toThrow();
  });

  it("does not count another key's wildcard", () => {
    definitionError(() => define(machineWith({ 'confirm.accept': '#m.done', 'other.*': '#m.done' })), 'unhandled_answer');
  });
});

describe('machines that cannot be served', () => {
  it('refuses an invoke without an id', () => {
    const machine = setup({ actors: { work: fromPromise(async () => 1) } }).createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(definitionError(() => define(machine), 'unnamed_invoke')).toBe(
      `Tool 'tool_x', state 'm.working' invokes "work" without an 'id'. Give every invoke an id so sealed snapshots stay valid when the machine changes.`,
    );
  });

  it('refuses an invoke of inline actor logic, even with an id', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { id: 'job', src: fromPromise(async () => 1), onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(definitionError(() => define(machine), 'unnamed_invoke')).toBe(
      "Tool 'tool_x', state 'm.working' invokes inline actor logic 'job'. Name it in setup({ actors: { … } }) and invoke it by name.",
    );
  });

  it('refuses an invoke of inline actor logic without an id, as unnamed', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { src: fromPromise(async () => 1), onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(definitionError(() => define(machine), 'unnamed_invoke')).toMatch(/^Tool 'tool_x', state 'm\.working' invokes "inline" without an 'id'\./);
  });

  it("refuses an 'after' delay, saying to keep the deadline in context", () => {
    const machine = setup({}).createMachine({ id: 'm', initial: 'waiting', states: { waiting: { after: { 1000: 'done' } }, done: { type: 'final' } } });
    expect(definitionError(() => define(machine), 'delayed_transition')).toBe(
      "Tool 'tool_x', state 'm.waiting' uses 'after', but XState does not persist delays, so the timer would be lost between rounds. " +
        'Keep the deadline in context and check it with a guard on the next answer instead.',
    );
  });

  it('refuses a final state with an output when the machine has no top-level output', () => {
    const machine = setup({}).createMachine({ id: 'm', initial: 'done', states: { done: { type: 'final', output: { ok: true } } } });
    expect(definitionError(() => define(machine), 'invalid_option')).toMatch(
      /^Tool 'tool_x': machine 'm' gives its final state 'done' an output but has no top-level 'output'.*Add output: \(\{ event \}\) => event\.output/,
    );
  });

  it('accepts a final state with an output when the machine passes it on', () => {
    const machine = setup({}).createMachine({ id: 'm', initial: 'done', states: { done: { type: 'final', output: { ok: true } } }, output: ({ event }) => event.output });
    expect(() => define(machine)).not.toThrow();
  });

  it.each(['1st', 'has.dot', 'has space', 'x'.repeat(65), ''])('refuses the input key %j', (key) => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'asking',
      states: { asking: { meta: { ask: { [key]: ask<unknown>({ message: 'Q?', schema: okSchema }) } }, on: { '*': 'done' } }, done: { type: 'final' } },
    });
    expect(definitionError(() => define(machine), 'invalid_ask_key')).toMatch(/an input key starts with a letter and holds only letters, digits, '_' and '-' \(at most 64\)/);
  });

  it('refuses a question without a message', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'asking',
      states: { asking: { meta: { ask: { q: { schema: okSchema } } }, on: { '*': 'done' } }, done: { type: 'final' } },
    });
    expect(definitionError(() => define(machine), 'invalid_ask_key')).toBe("Tool 'tool_x', state 'm.asking', ask 'q' has no message: give it a string or ({ context }) => string.");
  });
});

describe('answer schemas a form cannot express', () => {
  const FORMS_HOLD = 'Forms hold flat strings, numbers, integers, booleans, string enums and arrays of string enums; split the question or ask for a string and parse it.';

  it.each([
    ['a nested object', z.object({ address: z.object({ street: z.string() }) }), 'address', 'a nested object'],
    ['a union', z.object({ amount: z.union([z.string(), z.number()]) }), 'amount', 'a union of string and number'],
    ['an array of objects', z.object({ items: z.array(z.object({ sku: z.string() })) }), 'items', 'an array of something other than string enum values'],
    ['an array of free strings', z.object({ tags: z.array(z.string()) }), 'tags', 'an array of something other than string enum values'],
    ['a nullable field', z.object({ note: z.string().nullable() }), 'note', 'a union of string and null'],
    ['a literal', z.object({ kind: z.literal('refund') }), 'kind', "constrained with 'const'"],
    ['a number enum', z.object({ level: z.union([z.literal(1), z.literal(2)]) }), 'level', 'of no single primitive type (a union, literal or unknown)'],
    ['an unsupported string format', z.object({ id: z.uuid() }), 'id', "a string of format 'uuid'"],
    ['a multipleOf constraint', z.object({ qty: z.number().multipleOf(5) }), 'qty', "constrained with 'multipleOf'"],
  ])('refuses %s, naming the field', (_, schema, field, what) => {
    const message = definitionError(() => define(askingMachine(schema)), 'unexpressible_schema');
    expect(message).toBe(`Tool 'tool_x', state 'm.asking', ask 'q': field '${field}' is ${what}, which an elicitation form cannot express. ${FORMS_HOLD}`);
  });

  it('refuses a schema that JSON Schema cannot represent at all', () => {
    expect(definitionError(() => define(askingMachine(z.object({ when: z.date() }))), 'unexpressible_schema')).toBe(
      "Tool 'tool_x', state 'm.asking', ask 'q': the answer schema cannot be written as JSON Schema (Date cannot be represented in JSON Schema). Use strings, numbers, booleans and enums only.",
    );
  });

  it('refuses an answer schema that is not a z.object', () => {
    expect(definitionError(() => toElicitationSchema(z.string() as unknown as AnswerSchema, 'here'), 'unexpressible_schema')).toBe(
      'here: the answer schema must be z.object({...}) of primitive fields.',
    );
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
    code: z.string().regex(/^[A-Z]{3}$/).meta({ title: 'Code', description: 'Three capital letters' }),
    day: z.iso.date(),
  });

  it('turns them into the restricted form schema: formats, bounds, enums, defaults, descriptions; optional fields not required', () => {
    expect(toElicitationSchema(schema, 'here')).toEqual({
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

  it('leaves out `required` when every field is optional', () => {
    expect(toElicitationSchema(z.object({ a: z.string().optional() }), 'here')).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('sends that schema as the requestedSchema of the form', async () => {
    const tool = define(askingMachine(schema), 'survey');
    const { call } = makeEngine([tool]);
    const outcome = inputRequired(await call({ name: 'survey', arguments: {} }));
    expect(outcome.inputRequests.q!.params.requestedSchema).toEqual(toElicitationSchema(schema, 'here'));
  });

  it('drops a regex pattern from the form but still enforces it when answering', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'asking',
      context: { code: '' },
      states: {
        asking: {
          meta: { ask: { q: ask<unknown>({ message: 'Code?', schema: z.object({ code: z.string().regex(/^[A-Z]{3}$/, 'use three capital letters') }) }) } },
          on: { 'q.*': 'done' },
        },
        done: { type: 'final' },
      },
    });
    const { call } = makeEngine([define(machine, 'code')]);
    const first = inputRequired(await call({ name: 'code', arguments: {} }));
    expect(first.inputRequests.q!.params.requestedSchema).toEqual({ type: 'object', properties: { code: { type: 'string' } }, required: ['code'] });
    const again = inputRequired(await call({ name: 'code', arguments: {}, requestState: first.requestState, inputResponses: { q: accept({ code: 'abc' }) } }));
    expect(again.inputRequests.q!.params.message).toBe('Code?\n\nYour last answer was not accepted: code: use three capital letters. Please answer again.');
    complete(await call({ name: 'code', arguments: {}, requestState: again.requestState, inputResponses: { q: accept({ code: 'ABC' }) } }));
  });
});

describe('tool listing and engine options', () => {
  it('lists tools with their JSON Schema arguments (no $schema) and title only when set', () => {
    const titled = defineTool({
      name: 'titled',
      title: 'A titled tool',
      description: 'has a title',
      input: z.object({ id: z.string().describe('The id'), count: z.int().optional() }),
      machine: askingMachine(okSchema),
      result: () => ({ text: '' }),
    });
    const { engine } = makeEngine([makeConfirmTool(), titled]);
    expect(engine.listTools()).toEqual([
      {
        name: 'refund_order',
        description: 'Refund an order once the user confirms',
        inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      },
      {
        name: 'titled',
        title: 'A titled tool',
        description: 'has a title',
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string', description: 'The id' }, count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
          required: ['id'],
        },
      },
    ]);
    expect(engine.tools.map((t) => t.name)).toEqual(['refund_order', 'titled']);
    expect(engine.tools[0]!.acceptAnswersWithoutState).toBe(false);
  });

  it('refuses two tools with the same name', () => {
    const keyring = createKeyring([generateKey()]);
    expect(definitionError(() => createEngine({ tools: [makeConfirmTool(), makeConfirmTool()], keyring, audience: 'x' }), 'duplicate_tool')).toBe(
      "createEngine: two tools are named 'refund_order'; tool names must be unique.",
    );
  });

  it.each([
    ['stateTtlSeconds', 0],
    ['maxStateBytes', -1],
    ['settleTimeoutMs', 1.5],
    ['maxRounds', Number.NaN],
  ] as const)('refuses %s = %s', (option, value) => {
    const keyring = createKeyring([generateKey()]);
    expect(definitionError(() => createEngine({ tools: [], keyring, audience: 'x', [option]: value }), 'invalid_option')).toBe(
      `createEngine: '${option}' must be a positive integer (got ${String(value)}).`,
    );
  });

  it('refuses more than 1000 rounds', () => {
    const keyring = createKeyring([generateKey()]);
    expect(definitionError(() => createEngine({ tools: [], keyring, audience: 'x', maxRounds: 1001 }), 'invalid_option')).toBe("createEngine: 'maxRounds' is at most 1000 (got 1001).");
  });
});

describe('the structure hash sealed with every state', () => {
  const withInvoke = (onDone: string) =>
    define(
      setup({ actors: { work: fromPromise(async () => 1) } }).createMachine({
        id: 'm',
        initial: 'working',
        states: {
          working: { invoke: { id: 'w', src: 'work', onDone } },
          a: { type: 'final' },
          b: { type: 'final' },
        },
      }),
    )._machine.hash;

  it('changes when an invoke is routed to another state on completion', () => {
    expect(withInvoke('a')).toEqual(withInvoke('a'));
    expect(withInvoke('a')).not.toEqual(withInvoke('b'));
  });
});
