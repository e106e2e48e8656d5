import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type AnswersOf, ask, askAll, defineFlowPrompt, defineFlowResource, defineFlowTool, field, form, review } from '../src/index.ts';

const steps = {
  when: ask({
    message: 'When?',
    fields: { date: field.text({ format: 'date' }), attendees: field.integer({ min: 1 }), note: field.text({ optional: true }) },
    check: ({ answer }) => {
      expectTypeOf(answer).toEqualTypeOf<{ date: string; attendees: number; note?: string | undefined }>();
      return undefined;
    },
  }),
  more: askAll({
    forms: {
      room: form({ message: 'Room?', fields: { room: field.select({ options: { big: 'Big', hall: 'Hall' } }) } }),
      gear: form({
        message: 'Gear?',
        fields: { gear: field.multiSelect({ options: ['screen', 'mic'] }) },
        if: { 'when.attendees': { gt: 5 } },
      }),
    },
  }),
  check: review({ message: 'Book?' }),
};

describe('answers typed from the declaration', () => {
  it('has one optional entry per form, named after its step (ask) or its key (askAll), none for a review', () => {
    expectTypeOf<AnswersOf<typeof steps>>().toEqualTypeOf<{
      when?: { date: string; attendees: number; note?: string | undefined };
      room?: { room: 'big' | 'hall' };
      gear?: { gear: ('screen' | 'mic')[] };
    }>();
  });

  it('types the final action of a tool, a prompt and a resource without annotations', () => {
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({ topic: z.string(), size: z.number().optional() }),
      steps,
      final: ({ input, answers }) => {
        expectTypeOf(input).toEqualTypeOf<{ topic: string; size?: number | undefined }>();
        expectTypeOf(answers.room).toEqualTypeOf<{ room: 'big' | 'hall' } | undefined>();
        // @ts-expect-error: no such form
        void answers.nope;
        return { text: 'ok' };
      },
    });
    defineFlowPrompt({
      name: 'agenda',
      description: 'Agenda',
      arguments: z.object({ team: z.string() }),
      steps: { style: ask({ message: 'Style?', fields: { style: field.select({ options: ['short', 'long'] }) } }) },
      final: ({ input, answers }) => {
        expectTypeOf(input).toEqualTypeOf<{ team: string }>();
        expectTypeOf(answers.style).toEqualTypeOf<{ style: 'short' | 'long' } | undefined>();
        return [{ role: 'user', text: 'x' }];
      },
    });
    defineFlowResource({
      uri: 'rooms://{room}/{week}',
      name: 'room_week',
      description: 'Week',
      steps: { ok: ask({ message: 'Sure?', fields: { ok: field.boolean() } }) },
      final: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<{ room: string; week: string }>();
        return 'text';
      },
    });
  });

  it('tells ended where the user stopped, with the input and the answers so far, typed', () => {
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({ topic: z.string() }),
      steps,
      final: () => ({ text: 'ok' }),
      ended: ({ step, how, input, answers }) => {
        expectTypeOf(step).toEqualTypeOf<'when' | 'more' | 'check'>();
        expectTypeOf(how).toEqualTypeOf<'declined' | 'cancelled' | 'abandoned'>();
        expectTypeOf(input).toEqualTypeOf<{ topic: string }>();
        expectTypeOf(answers.when).toEqualTypeOf<{ date: string; attendees: number; note?: string | undefined } | undefined>();
        return { text: `Nothing booked for ${input.topic}.` };
      },
    });
  });

  it('types structured content by the output schema', () => {
    const output = z.object({ status: z.enum(['booked', 'taken']), id: z.number().optional() });
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      output,
      // a literal keeps its type: no `as const`, whether the function takes its arguments or not, sync or async
      final: ({ answers }) =>
        answers.room ? { text: 'booked', structured: { status: 'booked', id: 1 } } : { text: 'taken', structured: { status: 'taken' } },
      ended: async () => ({ text: 'not booked', structured: { status: 'taken' } }),
      stopped: () => ({ text: 'stopped', isError: true }),
    });
    const tagged = z.object({
      status: z.enum(['booked', 'taken']),
      tags: z.array(z.string()),
      where: z.object({ room: z.enum(['a', 'b']) }),
    });
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      output: tagged,
      // array and object literals too (they are inferred readonly, which the schema's input type accepts)
      final: () => ({ text: 'booked', structured: { status: 'booked', tags: ['big', 'quiet'], where: { room: 'a' } } }),
    });
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      output,
      final: () => ({ text: 'booked', structured: { status: 'booked' } }),
      // @ts-expect-error: 'maybe' is not a status, in ended either
      ended: () => ({ text: 'x', structured: { status: 'maybe' } }),
    });
    const status: string = 'booked';
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      output,
      // @ts-expect-error: a string is wider than the schema's status
      final: () => ({ text: 'x', structured: { status } }),
    });
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      output,
      // @ts-expect-error: 'maybe' is not a status
      final: () => ({ text: 'x', structured: { status: 'maybe' } }),
    });
  });

  it('refuses at compile time a final action that returns the wrong thing', () => {
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps,
      // @ts-expect-error: a tool's final action returns { text, structured?, isError? }
      final: () => 'booked',
    });
    defineFlowPrompt({
      name: 'agenda',
      description: 'Agenda',
      steps,
      // @ts-expect-error: a prompt's final action returns messages
      final: () => ({ text: 'x' }),
    });
  });
});
