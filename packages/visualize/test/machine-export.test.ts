// exportMachine asks the tools whether a definition is a declared flow (isDeclaredFlow): a flow exports
// its own JSON config, question templates, fields and user view; a hand-written machine is walked for
// code; and an error inside a flow's own parts is the author's to see, not taken for "not a flow".
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool } from '@roundtrip/engine';
import { ask, defineFlowTool, field } from '@roundtrip/tools';
import { flowMachineConfig, isDeclaredFlow } from '@roundtrip/tools/internal';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { exportMachine } from '../src/machine-export.ts';

const bookRoom = (seats: z.ZodType = field.integer({ title: 'Seats' })) =>
  defineFlowTool({
    name: 'book_room',
    description: 'Books a room',
    input: z.object({ topic: z.string() }),
    steps: { room: ask({ message: 'Which room for {{input.topic}}?', fields: { seats } }) },
    final: () => ({ text: 'Booked' }),
  });

type Context = { name: string | null };
const questions = defineQuestions<Context>()({ who: { message: 'Whom should I greet?', schema: z.object({ name: z.string() }) } });
const greet = defineTool({
  name: 'greet',
  description: 'Greets someone',
  input: z.object({}),
  questions,
  machine: setup({
    types: { context: {} as Context, events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> },
    actions: { remember: assign((_, params: { name: string }) => ({ name: params.name })) },
  }).createMachine({
    id: 'greet',
    context: { name: null },
    initial: 'asking',
    states: {
      asking: {
        meta: { ask: ['who'] },
        on: {
          'who.accept': { target: 'done', actions: { type: 'remember', params: ({ event }) => ({ name: event.content.name }) } },
          'who.decline': 'done',
          'who.cancel': 'done',
        },
      },
      done: { type: 'final' },
    },
  }),
  result: () => ({ text: 'Hello' }),
});

describe('exporting a machine', () => {
  it('tells a declared flow from a hand-written machine', () => {
    expect(isDeclaredFlow(bookRoom())).toBe(true);
    expect(isDeclaredFlow(greet)).toBe(false);
    expect(isDeclaredFlow({})).toBe(false);
  });

  it("exports a declared flow's own JSON config, question templates, fields and user view", () => {
    const flow = bookRoom();
    const exported = exportMachine(flow);
    expect(exported.config).toEqual(flowMachineConfig(flow));
    expect(exported.questions).toEqual({ room: 'Which room for {{input.topic}}?' });
    expect(exported.fields).toEqual({ room: ['Seats'] });
    expect(exported.userView).not.toBe(exported.config);
    expect([exported.omitted, exported.inline]).toEqual([[], []]);
  });

  it('walks a hand-written machine, naming the mappers it leaves out', () => {
    const exported = exportMachine(greet);
    expect(exported.userView).toBe(exported.config);
    expect(exported.questions).toEqual({ who: 'Whom should I greet?' });
    expect(exported.fields).toEqual({});
    expect(exported.omitted).toEqual([{ path: 'states.asking.on["who.accept"].actions.params', what: 'a function (params)' }]);
    expect(exported.inline).toEqual([]);
  });

  it("lets an error inside a declared flow's parts through, a TypeError too", () => {
    const seats = field.integer({ title: 'Seats' });
    const flow = bookRoom(seats);
    // a field whose schema breaks after the flow was defined: reading its title throws
    Object.defineProperty(seats, 'meta', {
      value: () => {
        throw new TypeError('the schema is broken');
      },
    });
    expect(() => exportMachine(flow)).toThrow(new TypeError('the schema is broken'));
  });
});
