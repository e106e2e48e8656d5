// A select whose options come from a load step (field.choiceFrom): the form offers exactly the items
// loaded when it is asked, an answer outside them is asked again, the review shows the chosen item's
// title; a path that names no loaded list is refused when the flow is defined, with the fix.
import { type DefinitionProblem, type ElicitationSchema, RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, type FormAnswer, field, load, review, type StepSpec } from '../src/index.ts';
import { accept, converse } from './conversation.ts';

const room = field.choiceFrom('rooms.free', { value: 'id', label: 'name', title: 'Room' });

/** A tool that loads the rooms free for `size` people, asks one of them, reviews and books it. */
function roomTool(free: (size: number) => Array<{ id: string | number; name: string }>) {
  return defineFlowTool({
    name: 'pick_room',
    description: 'Picks a room',
    input: z.object({ size: z.number() }),
    loaders: { freeRooms: async ({ input }: { input: { size: number } }) => ({ free: free(input.size) }) },
    steps: {
      rooms: load({ run: 'freeRooms', next: 'pick' }),
      pick: ask({ message: 'Which room?', fields: { room }, next: 'confirm' }),
      confirm: review({ message: 'Book it?' }),
    },
    final: ({ answers }) => ({ text: `Booked ${String((answers.pick as { room: string }).room)}` }),
  });
}

const ROOMS = [
  { id: 'atlas', name: 'Atlas', seats: 10 },
  { id: 'orion', name: 'Orion', seats: 20 },
  { id: 7, name: 'Room seven', seats: 40 },
];
const fitting = (size: number) => ROOMS.filter((r) => r.seats >= size);

describe('a choice among loaded items', () => {
  it('is a select of exactly the items loaded; the answer is the item’s value as a string', async () => {
    let c = await converse(roomTool(fitting), { size: 15 });
    expect((c.asked.pick as { requestedSchema: ElicitationSchema }).requestedSchema).toEqual({
      type: 'object',
      properties: {
        room: {
          type: 'string',
          title: 'Room',
          oneOf: [
            { const: 'orion', title: 'Orion' },
            { const: '7', title: 'Room seven' },
          ],
        },
      },
      required: ['room'],
    });
    c = await c.answer({ pick: accept({ room: '7' }) });
    expect(c.asked.confirm!.message).toContain('- Room: Room seven');
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Booked 7');
  });

  it('refuses an answer not among the items loaded for this conversation and asks again', async () => {
    let c = await converse(roomTool(fitting), { size: 15 });
    c = await c.answer({ pick: accept({ room: 'atlas' }) });
    expect(c.asked.pick!.message).toBe(
      'Which room?\n\nYour last answer was not accepted: "atlas" is not one of the options offered (Orion, Room seven). Please answer again.',
    );
    c = await c.answer({ pick: accept({ room: 'orion' }) });
    expect(Object.keys(c.asked)).toEqual(['confirm']);
  });

  it('types the answer as a string', () => {
    expectTypeOf<FormAnswer<{ room: typeof room }>>().toEqualTypeOf<{ room: string }>();
  });
});

/** The problems a declaration is refused with (it must be refused). */
function problemsOf(steps: Record<string, StepSpec>): Array<[string, string, string]> {
  try {
    defineFlowTool({
      name: 'flow',
      description: 'A flow',
      input: z.object({}),
      steps,
      loaders: { freeRooms: async () => ({ free: [] }) },
      final: () => ({ text: 'done' }),
    });
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    return (error as RoundtripDefinitionError).problems.map((p: DefinitionProblem<string>) => [p.path.join(' › '), p.message, p.fix]);
  }
  throw new Error('the declaration was accepted');
}

describe('a choice among loaded items is refused when the flow is defined', () => {
  it('when its path names nothing loaded before the question', () => {
    expect(
      problemsOf({
        rooms: load({ run: 'freeRooms', next: 'pick' }),
        pick: ask({ message: 'Which?', fields: { room: field.choiceFrom('spaces.free', { value: 'id', label: 'name' }) } }),
      }),
    ).toEqual([
      [
        "tool 'flow' › step 'pick' › field 'room'",
        "field.choiceFrom('spaces.free') names nothing loaded before this question.",
        "Name a list a step before it loads: 'rooms', or a path under it such as 'rooms.items'.",
      ],
    ]);
  });

  it('when its path names a form’s field, not a loaded list', () => {
    expect(
      problemsOf({
        kind: ask({ message: 'Kind?', fields: { tags: field.multiSelect({ options: ['a', 'b'] }) }, next: 'rooms' }),
        rooms: load({ run: 'freeRooms', next: 'pick' }),
        pick: ask({ message: 'Which?', fields: { room: field.choiceFrom('kind.tags', { value: 'id', label: 'name' }) } }),
      }),
    ).toEqual([
      [
        "tool 'flow' › step 'pick' › field 'room'",
        "field.choiceFrom('kind.tags') names a form's field, not a list loaded by a load step.",
        "Name a list a step before it loads: 'rooms', or a path under it such as 'rooms.items'.",
      ],
    ]);
  });

  it('when its path or keys are not written as a path and keys', () => {
    expect(() => field.choiceFrom('rooms[0]', { value: 'id', label: 'name' })).toThrow(
      "field.choiceFrom: the path \"rooms[0]\" is not a path. Name a load step, or a path under its value: 'rooms' or 'rooms.free'.",
    );
    expect(() => field.choiceFrom('rooms', { value: '', label: 'name' })).toThrow('field.choiceFrom: value is "".');
  });
});
