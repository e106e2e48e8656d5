import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  createEngine,
  createKeyring,
  defineQuestions,
  defineTool,
  generateKey,
  RoundtripDefinitionError,
} from '../src/index.ts';
import { internalsOf } from '../src/internal.ts';
import { makeConfirmTool } from './machines.ts';
import { definitionError, makeEngine } from './support.ts';

const okSchema = z.object({ ok: z.boolean() });
const confirmQuestions = defineQuestions<unknown>()({ confirm: { message: 'Sure?', schema: okSchema } });
type ConfirmQuestions = typeof confirmQuestions;
const askingSetup = () => setup({ types: { events: {} as AnswerEvents<ConfirmQuestions>, meta: {} as AskMeta<ConfirmQuestions> } });

/** A machine that asks 'confirm' once, then ends. */
const askingMachine = askingSetup().createMachine({
  id: 'm',
  initial: 'asking',
  states: { asking: { meta: { ask: ['confirm'] }, on: { 'confirm.*': 'done' } }, done: { type: 'final' } },
});

const instantMachine = setup({}).createMachine({ id: 'instant', initial: 'done', states: { done: { type: 'final' } } });

function defineAsking(machine: typeof askingMachine, name = 'tool_x') {
  return defineTool({
    name,
    description: 'test tool',
    input: z.object({}),
    questions: confirmQuestions,
    machine,
    result: () => ({ text: 'done' }),
  });
}

function define(machine: AnyStateMachine, name = 'tool_x') {
  return defineTool({ name, description: 'test tool', input: z.object({}), machine, result: () => ({ text: 'done' }) });
}

describe('tool names', () => {
  it.each(['', 'has space', 'slash/name', 'ünïcode', 'x'.repeat(129), 'semi;colon'])('refuses the tool name %j', (name) => {
    const error = definitionError(() => defineAsking(askingMachine, name));
    expect(error.problems).toEqual([
      {
        path: [`Tool '${name}'`],
        code: 'invalid_name',
        message: 'a tool name is 1–128 characters of letters, digits, _, - and .',
        fix: 'Rename the tool.',
      },
    ]);
    expect(error.code).toBe('invalid_name');
    expect(error.message).toBe(`Tool '${name}': a tool name is 1–128 characters of letters, digits, _, - and . Fix: Rename the tool.`);
  });

  it.each(['a', 'refund_order', 'orders.refund-v2', 'x'.repeat(128)])('accepts the tool name %j', (name) => {
    expect(defineAsking(askingMachine, name).name).toBe(name);
  });

  it('refuses an input that is not a z.object', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'x',
        description: 'd',
        input: z.string() as unknown as z.ZodObject,
        machine: instantMachine,
        result: () => ({ text: '' }),
      }),
    );
    expect(error.problems).toEqual([
      {
        path: ["Tool 'x'", 'input'],
        code: 'invalid_option',
        message: "'input' is not a zod object schema.",
        fix: 'Describe the arguments with z.object({ … }).',
      },
    ]);
  });

  it('refuses an output that is not a z.object', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'x',
        description: 'd',
        input: z.object({}),
        output: z.string() as unknown as z.ZodObject,
        machine: instantMachine,
        result: () => ({ text: '' }),
      }),
    );
    expect(error.problems).toMatchObject([{ path: ["Tool 'x'", 'output'], code: 'invalid_option' }]);
  });

  it('reports a bad name and a bad input together', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'bad name',
        description: 'd',
        input: z.string() as unknown as z.ZodObject,
        machine: instantMachine,
        result: () => ({ text: '' }),
      }),
    );
    expect(error.problems.map((p) => p.code)).toEqual(['invalid_name', 'invalid_option']);
    expect(error.message).toMatch(
      /^2 problems:\n {2}- Tool 'bad name': a tool name is .* Fix: Rename the tool\.\n {2}- Tool 'bad name' › input: /,
    );
  });
});

describe('asking states must handle every answer', () => {
  const machineWith = (on: Record<string, string>, parentOn: Record<string, string> = {}) =>
    askingSetup().createMachine({
      id: 'm',
      initial: 'outer',
      states: {
        outer: { on: parentOn, initial: 'asking', states: { asking: { meta: { ask: ['confirm'] }, on } } },
        done: { type: 'final' },
      },
    }) as unknown as typeof askingMachine;

  it.each([
    ['decline', { 'confirm.accept': '#m.done', 'confirm.cancel': '#m.done' }],
    ['cancel', { 'confirm.accept': '#m.done', 'confirm.decline': '#m.done' }],
    ['accept', { 'confirm.decline': '#m.done', 'confirm.cancel': '#m.done' }],
  ])('refuses an asking state with no transition for %s', (action, on) => {
    expect(definitionError(() => defineAsking(machineWith(on))).problems).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.outer.asking'", "ask 'confirm'"],
        code: 'unhandled_answer',
        message: `no transition handles 'confirm.${action}', so that answer would leave the user asked again forever.`,
        fix: `Add on: { 'confirm.${action}': … } to the state or an ancestor (or 'confirm.*').`,
      },
    ]);
  });

  it('accepts decline and cancel handled by an ancestor state', () => {
    expect(() =>
      defineAsking(machineWith({ 'confirm.accept': '#m.done' }, { 'confirm.decline': '#m.done', 'confirm.cancel': '#m.done' })),
    ).not.toThrow();
  });

  it("accepts a 'key.*' wildcard for the answers, on the state or on an ancestor", () => {
    expect(() => defineAsking(machineWith({ 'confirm.accept': '#m.done', 'confirm.*': '#m.done' }))).not.toThrow();
    expect(() => defineAsking(machineWith({ 'confirm.accept': '#m.done' }, { 'confirm.*': '#m.done' }))).not.toThrow();
  });

  it("accepts a '*' wildcard", () => {
    expect(() => defineAsking(machineWith({ '*': '#m.done' }))).not.toThrow();
  });

  it("does not count another key's wildcard", () => {
    const error = definitionError(() => defineAsking(machineWith({ 'confirm.accept': '#m.done', 'other.*': '#m.done' })));
    expect(error.problems.map((p) => p.code)).toEqual(['unhandled_answer', 'unhandled_answer']);
  });
});

describe('final output', () => {
  it('refuses a final state with an output when the machine has no top-level output', () => {
    const machine = setup({}).createMachine({ id: 'm', initial: 'done', states: { done: { type: 'final', output: { ok: true } } } });
    expect(definitionError(() => define(machine)).problems).toEqual([
      {
        path: ["Tool 'tool_x'", "machine 'm'"],
        code: 'invalid_option',
        message: "its final state 'done' has an output but the machine has no top-level 'output', so XState reports no output at all.",
        fix: "Add output: ({ event }) => event.output to the machine's config to pass on the output of whichever final state it reached.",
      },
    ]);
  });

  it('accepts a final state with an output when the machine passes it on', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'done',
      states: { done: { type: 'final', output: { ok: true } } },
      output: ({ event }) => event.output,
    });
    expect(() => define(machine)).not.toThrow();
  });
});

describe('tool listing and engine options', () => {
  it('lists tools with their JSON Schema arguments (no $schema) and title only when set', () => {
    const titled = defineTool({
      name: 'titled',
      title: 'A titled tool',
      description: 'has a title',
      input: z.object({ id: z.string().describe('The id'), count: z.int().optional() }),
      machine: instantMachine,
      result: () => ({ text: '' }),
    });
    const refund = makeConfirmTool();
    const { engine } = makeEngine([refund, titled]);
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
          properties: {
            id: { type: 'string', description: 'The id' },
            count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          },
          required: ['id'],
        },
      },
    ]);
    expect(refund).toMatchObject({ kind: 'tool', name: 'refund_order', title: undefined, acceptAnswersWithoutState: false });
    expect(makeConfirmTool({ acceptAnswersWithoutState: true }).acceptAnswersWithoutState).toBe(true);
  });

  it('refuses two tools with the same name', () => {
    const keyring = createKeyring([generateKey()]);
    expect(definitionError(() => createEngine({ tools: [makeConfirmTool(), makeConfirmTool()], keyring, audience: 'x' })).problems).toEqual(
      [
        {
          path: ['createEngine', "tool 'refund_order'"],
          code: 'duplicate_name',
          message: "two tools are named 'refund_order'.",
          fix: 'Give every tool its own name.',
        },
      ],
    );
  });

  it.each([
    ['stateTtlSeconds', 0, 604_800, 600],
    ['maxStateBytes', -1, 1_048_576, 65_536],
    ['settleTimeoutMs', 1.5, 600_000, 10_000],
    ['maxRounds', Number.NaN, 1000, 64],
    ['maxRounds', 1001, 1000, 64],
  ] as const)('refuses %s = %s', (option, value, max, fallback) => {
    const keyring = createKeyring([generateKey()]);
    expect(definitionError(() => createEngine({ tools: [], keyring, audience: 'x', [option]: value })).problems).toEqual([
      {
        path: ['createEngine', option],
        code: 'invalid_option',
        message: `'${option}' is ${String(value)}.`,
        fix: `Give a whole number from 1 to ${max} (default ${fallback}).`,
      },
    ]);
  });

  it('reports every bad option at once: limits, duplicates, an empty audience and objects that are not definitions', () => {
    const keyring = createKeyring([generateKey()]);
    const forged = { ...makeConfirmTool({ name: 'forged' }) };
    const error = definitionError(() =>
      createEngine({ tools: [makeConfirmTool(), makeConfirmTool(), forged], keyring, audience: '', stateTtlSeconds: 0, maxRounds: 0 }),
    );
    expect(error.problems.map((p) => [p.path.join(' › '), p.code])).toEqual([
      ['createEngine › stateTtlSeconds', 'invalid_option'],
      ['createEngine › maxRounds', 'invalid_option'],
      ["createEngine › tool 'refund_order'", 'duplicate_name'],
      ["createEngine › tool 'forged'", 'invalid_option'],
      ['createEngine › audience', 'invalid_option'],
    ]);
    expect(error.problems[3]!.message).toMatch(/^Not a Roundtrip definition/);
    expect(error.message).toMatch(/^5 problems:\n/);
  });

  it('refuses an engine without a keyring', () => {
    const error = definitionError(() => createEngine({ tools: [], audience: 'x' } as unknown as Parameters<typeof createEngine>[0]));
    expect(error.problems).toMatchObject([{ path: ['createEngine', 'keyring'], code: 'invalid_key' }]);
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
  });
});

describe('the structure hash sealed with every state', () => {
  const withInvoke = (onDone: string) =>
    internalsOf(
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
      ),
    ).machine.hash;

  it('changes when an invoke is routed to another state on completion', () => {
    expect(withInvoke('a')).toEqual(withInvoke('a'));
    expect(withInvoke('a')).not.toEqual(withInvoke('b'));
  });

  it('changes when the form of a question changes, not when only its message is reworded (the question is asked again)', () => {
    const hashOf = (message: string, schema: z.ZodObject) => {
      const questions = defineQuestions<unknown>()({ confirm: { message, schema } });
      const machine = setup({
        types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
      }).createMachine({
        id: 'm',
        initial: 'asking',
        states: { asking: { meta: { ask: ['confirm'] }, on: { 'confirm.*': 'done' } }, done: { type: 'final' } },
      });
      return internalsOf(defineTool({ name: 't', description: 'd', input: z.object({}), questions, machine, result: () => ({ text: '' }) }))
        .machine.hash;
    };
    expect(hashOf('Sure?', okSchema)).toEqual(hashOf('Sure?', okSchema));
    expect(hashOf('Sure?', okSchema)).toEqual(hashOf('Really sure?', okSchema));
    expect(hashOf('Sure?', okSchema)).not.toEqual(hashOf('Sure?', z.object({ ok: z.string() })));
  });
});
