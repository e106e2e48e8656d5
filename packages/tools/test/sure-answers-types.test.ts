// Type tests of which answers the final action gets required in a flow declared in order: a step's `end`
// rules never reach the final action, so they make nothing after optional; a `goto` that may pass a step
// by does. Checked by `npx tsc -p tsconfig.json --noEmit` at the repository root (every `@ts-expect-error`
// sits on the line that must fail); vitest runs them as plain definitions.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineFlowTool, field } from '../src/index.ts';

const input = z.object({ orderId: z.string() });
const loaders = { findOrder: async () => ({ found: true, refunded: false }) };
type Ok = { ok: boolean };
type Note = { note: string };

describe('answers that are sure stay sure', () => {
  it('after a load whose other ways end: the ask it goes on to is required in later checks and the final action', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders,
      steps: (flow) =>
        flow
          .load('order', {
            run: 'findOrder',
            next: [
              { if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' },
              { if: { 'order.refunded': { eq: true } }, end: 'It was refunded.' },
              { goto: 'confirm' },
            ],
          })
          .ask('confirm', {
            message: 'Refund {{input.orderId}}?',
            fields: { ok: field.boolean() },
            next: [{ if: { 'confirm.ok': { eq: false } }, end: 'Not refunded.' }, { goto: 'note' }],
          })
          // a plain step name, the one declared next, is no branch either
          .ask('note', { message: 'A note?', fields: { note: field.text() }, next: 'sure' })
          .review('sure', {
            message: 'Sure?',
            show: ({ answers }) => {
              expectTypeOf(answers).toEqualTypeOf<{ confirm: Ok; note: Note }>();
              return { Note: answers.note.note };
            },
            next: [{ if: { 'note.note': { eq: 'stop' } }, end: 'Stopped.' }, { goto: 'finish' }],
          }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ confirm: Ok; note: Note }>();
        return { text: `${answers.confirm.ok} ${answers.note.note}` };
      },
    });
  });

  it('after an askAll whose other ways end: the forms it goes on to are required', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      steps: (flow) =>
        flow
          .askAll('both', {
            forms: { confirm: { message: 'Refund?', fields: { ok: field.boolean() } } },
            next: [{ if: { 'confirm.ok': { eq: false } }, end: 'No.' }, { goto: 'more' }],
          })
          .askAll('more', { forms: { note: { message: 'A note?', fields: { note: field.text() } } } }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ confirm: Ok; note: Note }>();
        return { text: answers.note.note };
      },
    });
  });
});

describe('answers that can be skipped stay optional', () => {
  it('a `goto` past a step (to a step declared after the next one)', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders,
      steps: (flow) =>
        flow
          .load('order', { run: 'findOrder', next: [{ if: { 'order.found': { eq: false } }, end: 'No order.' }, { goto: 'note' }] })
          .ask('confirm', { message: 'Refund?', fields: { ok: field.boolean() }, next: 'finish' })
          .ask('note', {
            message: 'A note?',
            fields: { note: field.text() },
            next: [{ if: { 'note.note': { eq: 'refund' } }, goto: 'confirm' }, { goto: 'finish' }],
          }),
      final: ({ answers }) => {
        // `note` is on every way too, but after a step passed by the flow is not straight: it stays optional
        expectTypeOf(answers).toEqualTypeOf<{ confirm?: Ok; note?: Note }>();
        // @ts-expect-error: `confirm` is passed by unless the note says so
        void answers.confirm.ok;
        return { text: 'ok' };
      },
    });
  });

  it("a rule that jumps ahead to 'finish', and rules going to two steps", () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      steps: (flow) =>
        flow
          .ask('confirm', {
            message: 'Refund?',
            fields: { ok: field.boolean() },
            next: [{ if: { 'confirm.ok': { eq: true } }, goto: 'finish' }, { goto: 'note' }],
          })
          .ask('note', { message: 'A note?', fields: { note: field.text() } }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ confirm: Ok; note?: Note }>();
        return { text: 'ok' };
      },
    });
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      steps: (flow) =>
        flow
          .ask('confirm', {
            message: 'Refund?',
            fields: { ok: field.boolean() },
            next: [
              { if: { 'confirm.ok': { eq: true } }, end: 'Done.' },
              { if: { 'confirm.ok': { eq: false } }, goto: 'why' },
              { goto: 'note' },
            ],
          })
          .ask('note', { message: 'A note?', fields: { note: field.text() } })
          .ask('why', { message: 'Why?', fields: { why: field.text() } }),
      final: ({ answers }) => {
        expectTypeOf(answers).toEqualTypeOf<{ confirm: Ok; note?: Note; why?: { why: string } }>();
        return { text: 'ok' };
      },
    });
  });
});
