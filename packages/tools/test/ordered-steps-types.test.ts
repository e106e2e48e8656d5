// Type tests of steps declared in order (`steps: (flow) => flow.ask(…)…`): checked by
// `npx tsc -p tsconfig.json --noEmit` at the repository root. Every `@ts-expect-error` sits on the line
// that must fail; tsc reports any that no longer fails. The runtime cases run under vitest.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowResource, defineFlowTool, field, review } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';

const input = z.object({ topic: z.string() });
const when = { date: field.text({ format: 'date' }), attendees: field.integer({ min: 1 }) };
const room = { room: field.select({ options: { big: 'Big', hall: 'Hall' } }) };
type When = { date: string; attendees: number };
type Room = { room: 'big' | 'hall' };

describe('a check sees the answers of the steps before it', () => {
  it('typed, required while no step before could branch or be skipped', () => {
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input,
      steps: (flow) =>
        flow
          .ask('when', {
            message: 'When is "{{input.topic}}"?',
            fields: when,
            check: ({ answer, input, answers }) => {
              expectTypeOf(answer).toEqualTypeOf<When>();
              expectTypeOf(input).toEqualTypeOf<{ topic: string }>();
              expectTypeOf(answers).toEqualTypeOf<Record<never, never>>();
              return undefined;
            },
          })
          .ask('room', {
            message: 'Which room for {{when.attendees}}?',
            fields: room,
            check: ({ answer, answers }) => {
              expectTypeOf(answer).toEqualTypeOf<Room>();
              expectTypeOf(answers).toEqualTypeOf<{ when: When }>();
              // @ts-expect-error: a later step's answer is not there yet
              void answers.confirm;
              return answers.when.attendees > 10 && answer.room === 'big' ? 'too small' : undefined;
            },
          })
          .review('confirm', {
            message: 'Book?',
            show: ({ answers }) => {
              expectTypeOf(answers).toEqualTypeOf<{ when: When; room: Room }>();
              return { Room: answers.room.room };
            },
          }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ when: When; room: Room }>();
        return { text: `${answers.when.date} in ${answers.room.room}` };
      },
    });
  });

  it('optional after a step that branches (`next`), and for a step that can be skipped', () => {
    defineFlowTool({
      name: 'book',
      description: 'Books',
      input,
      steps: (flow) =>
        flow
          .ask('note', { message: 'A note?', fields: { note: field.text() }, onCancel: 'skip' })
          .ask('when', {
            message: 'When?',
            fields: when,
            next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'confirm' }],
          })
          .ask('room', {
            message: 'Room?',
            fields: room,
            check: ({ answers }) => {
              expectTypeOf(answers).toEqualTypeOf<{ note?: { note: string }; when: When }>();
              return undefined;
            },
          })
          .review('confirm', { message: 'Book?' }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ note?: { note: string }; when: When; room?: Room }>();
        // @ts-expect-error: the room may be missing (asked only for more than 5)
        void answers.room.room;
        return { text: answers.when.date };
      },
      ended: ({ step, answers }) => {
        // where the user left, answers are all optional
        expectTypeOf(step).toEqualTypeOf<'note' | 'when' | 'room' | 'confirm'>();
        expectTypeOf(answers).toEqualTypeOf<{ note?: { note: string }; when?: When; room?: Room }>();
        return { text: 'nothing' };
      },
    });
  });

  it('askAll: a form with an `if` or a form-level skip is optional, the others required', () => {
    defineFlowTool({
      name: 'report',
      description: 'Reports',
      input,
      steps: (flow) =>
        flow.ask('severity', { message: 'How bad?', fields: { level: field.select({ options: ['low', 'high'] }) } }).askAll('report', {
          forms: {
            details: { message: 'What happened at {{severity.level}}?', fields: { text: field.text() } },
            oncall: { message: 'Page?', fields: { page: field.boolean() }, if: { 'severity.level': { eq: 'high' } } },
            extra: { message: 'More?', fields: { more: field.text() }, onDecline: 'skip' },
          },
        }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{
          severity: { level: 'low' | 'high' };
          details: { text: string };
          oncall?: { page: boolean };
          extra?: { more: string };
        }>();
        return { text: answers.details.text };
      },
    });
  });

  it('a step-level skip of askAll and a page make what follows optional; a load whose other way ends does not', () => {
    defineFlowTool({
      name: 'pay',
      description: 'Pays',
      input,
      steps: (flow) =>
        flow
          .askAll('both', { forms: { a: { message: 'A?', fields: { a: field.text() } } }, onDecline: 'skip' })
          .ask('b', { message: 'B?', fields: { b: field.text() } })
          .openPage('pay', { message: 'Pay', url: 'https://pay.example.com/{{input.topic}}', alternative: 'c' })
          .ask('c', { message: 'C?', fields: { c: field.text() } }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ a?: { a: string }; b: { b: string }; c?: { c: string } }>();
        return { text: 'ok' };
      },
    });
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: { findOrder: async () => ({ found: true }) },
      steps: (flow) =>
        flow
          .load('order', { run: 'findOrder', next: [{ if: { 'order.found': { eq: false } }, end: 'No order.' }, { goto: 'ok' }] })
          .ask('ok', { message: 'Refund {{order.found}}?', fields: { ok: field.boolean() } }),
      final: ({ answers, loaded }) => {
        // the load's `end` rule does not reach the final action: `ok` is on every way there
        expectTypeOf(answers).toEqualTypeOf<{ ok: { ok: boolean } }>();
        expectTypeOf(loaded).toEqualTypeOf<{ order?: { found: boolean } }>();
        return { text: 'ok' };
      },
    });
  });

  it('works for prompts and resources too', () => {
    defineFlowPrompt({
      name: 'agenda',
      description: 'Agenda',
      arguments: z.object({ team: z.string() }),
      steps: (flow) =>
        flow.ask('style', { message: 'Style for {{input.team}}?', fields: { style: field.select({ options: ['short', 'long'] }) } }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ style: { style: 'short' | 'long' } }>();
        return [{ role: 'user', text: answers.style.style }];
      },
    });
    defineFlowResource({
      uri: 'rooms://{room}',
      name: 'room',
      description: 'Room',
      steps: (flow) => flow.ask('ok', { message: 'Show {{input.room}}?', fields: { ok: field.boolean() } }),
      final: ({ answers }) => String(answers.ok.ok),
    });
  });
});

describe('what a flow declared in order refuses', () => {
  it('a step name used twice, a placeholder or a condition path nothing before answers', () => {
    const refused = () =>
      defineFlowTool({
        name: 'book',
        description: 'Books',
        input,
        steps: (flow) =>
          flow
            .ask('when', { message: 'When?', fields: when })
            // @ts-expect-error: the name is taken
            .ask('when', { message: 'Again?', fields: room })
            // @ts-expect-error: no field `atendees` in `when`
            .ask('room', { message: 'Room for {{when.atendees}}?', fields: room })
            // @ts-expect-error: `if` is for the forms of askAll; a step of one form is reached by `next` rules
            .ask('cake', { message: 'Cake?', fields: { cake: field.boolean() }, if: { 'when.attendees': { gt: 5 } } })
            // @ts-expect-error: `confirm` is not answered before this step
            .ask('gear', { message: 'Gear {{ confirm.choice }}?', fields: { gear: field.text() } })
            .askAll('more', {
              forms: {
                // @ts-expect-error: `input.topik` is not an argument
                a: { message: 'For {{input.topik}}?', fields: { a: field.text() } },
                // @ts-expect-error: `room.size` is no field of `room`
                b: { message: 'B?', fields: { b: field.text() }, if: { 'room.size': { gt: 1 } } },
              },
            })
            // @ts-expect-error: `gt` does not fit a select
            .review('confirm', { message: 'Book?', next: [{ if: { 'room.room': { gt: 1 } }, goto: 'finish' }] }),
        final: () => ({ text: 'ok' }),
      });
    expect(refused).toThrow(/declared twice/);
  });
  it("an `end` rule's message or a load's onError reading nothing before", () => {
    // the check at definition time stays: it reports the same placeholders
    const refused = () =>
      defineFlowTool({
        name: 'refund',
        description: 'Refunds',
        input: z.object({ orderId: z.string() }),
        loaders: { findOrder: async () => ({ found: true }) },
        steps: (flow) =>
          flow
            .load('order', {
              run: 'findOrder',
              onError: 'Order {{input.orderId}} could not be read: {{error}}',
              next: [{ if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' }, { goto: 'ok' }],
            })
            // @ts-expect-error: `input.ordrId` is not an argument
            .load('again', { run: 'findOrder', onError: 'Order {{input.ordrId}} could not be read' })
            .ask('ok', {
              message: 'Refund {{order.found}}?',
              fields: { ok: field.boolean() },
              // the step's own answer is there for its rules
              next: [{ if: { 'ok.ok': { eq: false } }, end: 'Nothing refunded for {{input.orderId}} ({{ok.ok}}).' }],
            })
            // @ts-expect-error: `confirm.choice` is nothing a rule can read
            .review('confirm', { message: 'Sure?', next: [{ end: 'Stopped at {{confirm.choice}}' }] }),
        final: () => ({ text: 'ok' }),
      });
    expect(refused).toThrow(/\{\{input\.ordrId\}\} reads nothing[\s\S]*\{\{confirm\.choice\}\} reads nothing/);
  });
});

describe('the same steps as a record', () => {
  it('makes the same machine as the record form', () => {
    const record = defineFlowTool({
      name: 'book',
      description: 'Books',
      input,
      steps: {
        when: ask({
          message: 'When is "{{input.topic}}"?',
          fields: when,
          next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'confirm' }],
        }),
        room: ask({ message: 'Room?', fields: room, onDecline: 'back' }),
        confirm: review({ message: 'Book?' }),
      },
      final: () => ({ text: 'ok' }),
    });
    const ordered = defineFlowTool({
      name: 'book',
      description: 'Books',
      input,
      steps: (flow) =>
        flow
          .ask('when', {
            message: 'When is "{{input.topic}}"?',
            fields: when,
            next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'confirm' }],
          })
          .ask('room', { message: 'Room?', fields: room, onDecline: 'back' })
          .review('confirm', { message: 'Book?' }),
      final: () => ({ text: 'ok' }),
    });
    expect(flowMachineConfig(ordered)).toEqual(flowMachineConfig(record));
  });
});
