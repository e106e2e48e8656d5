// Type tests: checked by `npx tsc -p tsconfig.json --noEmit` at the repository root. Every
// `@ts-expect-error` sits on the line that must fail; tsc reports any that no longer fails.
// Definitions that must not compile are built inside functions that never run.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvent,
  type AnswerEvents,
  type AnswerOf,
  type AskMeta,
  defineQuestions,
  defineResource,
  defineTool,
  type EffectSpec,
  type QuestionKey,
  type ToolDefinition,
} from '../src/index.ts';

type RefundContext = { orderId: string; cents: number; order: { id: string; note: string | null } };
type RefundInput = { order_id: string };
type RefundOutput = { refunded: boolean; refundId: string | null };
type ConfirmContent = { confirm: boolean };
type ReasonContent = { reason: 'damaged' | 'late'; note?: string | undefined };

const questions = defineQuestions<RefundContext>()({
  confirm: { message: 'Refund {{cents}} cents for order {{order.id}}?', schema: z.object({ confirm: z.boolean() }) },
  reason: {
    message: ({ context }) => `Why refund ${context.orderId}?`,
    schema: z.object({ reason: z.enum(['damaged', 'late']), note: z.string().optional() }),
  },
});
type Q = typeof questions;

const issueRefund = fromPromise<{ refundId: string }, { orderId: string; cents: number }>(async ({ input }) => ({
  refundId: `re_${input.orderId}`,
}));

const refundContext = ({ input }: { input: RefundInput }): RefundContext => ({
  orderId: input.order_id,
  cents: 500,
  order: { id: input.order_id, note: null },
});

/** The refund machine, typed as an author should: AnswerEvents and AskMeta of its questions. */
const typed = setup({
  types: {
    context: {} as RefundContext,
    input: {} as RefundInput,
    output: {} as RefundOutput,
    events: {} as AnswerEvents<Q>,
    meta: {} as AskMeta<Q>,
  },
  actors: { issueRefund },
}).createMachine({
  id: 'refund',
  context: refundContext,
  initial: 'asking',
  states: {
    asking: { meta: { ask: ['reason', 'confirm'] }, on: { 'confirm.accept': 'refunding', 'confirm.*': 'kept', 'reason.*': 'kept' } },
    refunding: {
      invoke: {
        id: 'refund',
        src: 'issueRefund',
        input: ({ context }) => ({ orderId: context.orderId, cents: context.cents }),
        onDone: 'refunded',
      },
    },
    refunded: { type: 'final', output: { refunded: true, refundId: 're' } },
    kept: { type: 'final', output: { refunded: false, refundId: null } },
  },
  output: ({ event }) => event.output as RefundOutput,
});

const input = z.object({ order_id: z.string() });
const base = { name: 'refund_order', description: 'Refunds an order', input, questions } as const;

describe('question types', () => {
  it('types the answer events from the zod schemas', () => {
    expectTypeOf<QuestionKey<Q>>().toEqualTypeOf<'confirm' | 'reason'>();
    expectTypeOf<AnswerOf<Q, 'reason'>>().toEqualTypeOf<ReasonContent>();
    expectTypeOf<AnswerEvents<Q>>().toEqualTypeOf<AnswerEvent<'confirm', ConfirmContent> | AnswerEvent<'reason', ReasonContent>>();
    expectTypeOf<Extract<AnswerEvents<Q>, { type: 'confirm.accept' }>>().toEqualTypeOf<{
      type: 'confirm.accept';
      key: 'confirm';
      content: ConfirmContent;
    }>();
    expectTypeOf<Extract<AnswerEvents<Q>, { type: 'reason.decline' }>>().toEqualTypeOf<{ type: 'reason.decline'; key: 'reason' }>();
    expect(questions.keys).toEqual(['confirm', 'reason']);
  });

  it('lets a machine ask only keys of its questions when its meta is typed with AskMeta', () => {
    const ask = setup({ types: { events: {} as AnswerEvents<Q>, meta: {} as AskMeta<Q> } });
    ask.createMachine({ id: 'ok', initial: 'a', states: { a: { meta: { ask: ['confirm', 'reason'] }, on: { '*': 'b' } }, b: {} } });
    ask.createMachine({
      id: 'bad',
      initial: 'a',
      states: {
        // @ts-expect-error 'unknown' is not a key of the questions
        a: { meta: { ask: ['unknown'] }, on: { '*': 'b' } },
        b: {},
      },
    });
  });

  it('refuses a template placeholder that is not a path of the context', () => {
    defineQuestions<RefundContext>()({
      ok: { message: 'Refund {{cents}} for {{ order.id }}, note {{order.note}}?', schema: z.object({ ok: z.boolean() }) },
    });
    const bad = () =>
      defineQuestions<RefundContext>()({
        // @ts-expect-error {{amount}} is not a path of RefundContext
        ok: { message: 'Refund {{amount}}?', schema: z.object({ ok: z.boolean() }) },
      });
    const badNested = () =>
      defineQuestions<RefundContext>()({
        // @ts-expect-error {{order.total}} is not a path of RefundContext
        ok: { message: 'Refund {{order.total}}?', schema: z.object({ ok: z.boolean() }) },
      });
    expect([bad, badNested]).toHaveLength(2);
  });
});

describe('placeholders into arrays', () => {
  it('accepts an index placeholder such as {{lines.0.sku}}, as the run time renders it', () => {
    // message-template.ts renders index segments (see questions.test.ts), and ContextPaths includes them
    const documented = () =>
      defineQuestions<{ lines: { sku: string }[] }>()({
        first: { message: 'Refund {{lines.0.sku}}?', schema: z.object({ ok: z.boolean() }) },
      });
    expect(documented).toBeTypeOf('function');
  });
});

describe('defineTool checks that its parts fit', () => {
  it('accepts a machine typed with AnswerEvents and AskMeta, and gives result the machine’s output type', () => {
    const tool = defineTool({
      ...base,
      machine: typed,
      result: (output) => {
        expectTypeOf(output).toEqualTypeOf<RefundOutput>();
        return { text: output.refunded ? 'refunded' : 'kept', structured: output };
      },
    });
    expectTypeOf(tool).toEqualTypeOf<ToolDefinition>();
    expect(tool.name).toBe('refund_order');
  });

  it('refuses a machine whose state meta is not typed with AskMeta', () => {
    const untypedMeta = setup({
      types: { context: {} as RefundContext, input: {} as RefundInput, events: {} as AnswerEvents<Q> },
    }).createMachine({
      id: 'm',
      context: refundContext,
      initial: 'asking',
      states: {
        asking: { meta: { ask: ['reason', 'confirm'] }, on: { 'confirm.*': 'done', 'reason.*': 'done' } },
        done: { type: 'final' },
      },
    });
    const bad = () =>
      defineTool({
        ...base,
        // @ts-expect-error the meta must be typed with AskMeta<typeof questions>
        machine: untypedMeta,
        result: () => ({ text: '' }),
      });
    expect(bad).toBeTypeOf('function');
  });

  it('refuses answer events written by hand with another content type', () => {
    type HandWritten = AnswerEvent<'confirm', { confirm: 'yes' | 'no' }> | AnswerEvent<'reason', ReasonContent>;
    const handWritten = setup({
      types: { context: {} as RefundContext, input: {} as RefundInput, events: {} as HandWritten, meta: {} as AskMeta<Q> },
    }).createMachine({
      id: 'm',
      context: refundContext,
      initial: 'asking',
      states: {
        asking: { meta: { ask: ['reason', 'confirm'] }, on: { 'confirm.*': 'done', 'reason.*': 'done' } },
        done: { type: 'final' },
      },
    });
    const bad = () =>
      defineTool({
        ...base,
        // @ts-expect-error confirm.accept carries { confirm: boolean }, not 'yes' | 'no'
        machine: handWritten,
        result: () => ({ text: '' }),
      });
    expect(bad).toBeTypeOf('function');
  });

  it("refuses an input schema whose output is not the machine's input", () => {
    const bad = () =>
      defineTool({
        ...base,
        input: z.object({ order_id: z.number() }),
        // @ts-expect-error the machine takes { order_id: string }
        machine: typed,
        result: () => ({ text: '' }),
      });
    expect(bad).toBeTypeOf('function');
  });

  it('refuses questions defined for another context type', () => {
    const otherContext = defineQuestions<{ amount: number }>()({
      confirm: { message: 'Refund {{amount}}?', schema: z.object({ confirm: z.boolean() }) },
      reason: { message: 'Why?', schema: z.object({ reason: z.enum(['damaged', 'late']), note: z.string().optional() }) },
    });
    const bad = () =>
      defineTool({
        ...base,
        // @ts-expect-error the questions read { amount: number }, the machine's context is RefundContext
        questions: otherContext,
        machine: typed,
        result: () => ({ text: '' }),
      });
    expect(bad).toBeTypeOf('function');
  });

  it('refuses an effect named after an actor the machine does not have', () => {
    const bad = () =>
      defineTool({
        ...base,
        machine: typed,
        result: () => ({ text: '' }),
        effects: {
          issueRefund: { once: true },
          // @ts-expect-error the machine's actors are issueRefund only
          chargeCard: { once: true },
        },
      });
    expect(bad).toBeTypeOf('function');
  });

  it("types an effect's confirmed-value readers with the actor's input", () => {
    const tool = defineTool({
      ...base,
      machine: typed,
      result: () => ({ text: '' }),
      effects: {
        issueRefund: {
          once: true,
          confirmed: {
            shown: ({ input }) => {
              expectTypeOf(input).toEqualTypeOf<{ orderId: string; cents: number }>();
              return input.cents;
            },
            current: ({ input }) => input.cents,
          },
        },
      },
    });
    expectTypeOf<EffectSpec<{ orderId: string }>['confirmed']>().toEqualTypeOf<
      { shown: (args: { input: { orderId: string } }) => unknown; current: (args: { input: { orderId: string } }) => unknown } | undefined
    >();
    expect(tool.name).toBe('refund_order');
  });

  it('types structured content from the output schema', () => {
    const output = z.object({ refunded: z.boolean(), refundId: z.string().nullable() });
    const tool = defineTool({
      ...base,
      machine: typed,
      output,
      result: (o) => ({ text: '', structured: { refunded: o.refunded, refundId: o.refundId } }),
    });
    expect(tool.outputSchema).toBeDefined();
    const bad = () =>
      defineTool({
        ...base,
        machine: typed,
        output,
        result: () => ({
          text: '',
          // @ts-expect-error refunded is a boolean in the output schema
          structured: { refunded: 'yes', refundId: null },
        }),
      });
    expect(bad).toBeTypeOf('function');
  });
});

describe('structured content and output transforms', () => {
  it("types structured content as the output schema's input, which is what it parses", () => {
    // With output: z.object({ cents: z.string().transform(Number) }), result() hands the schema a
    // string (it is parsed, then sent as a number; see tool-metadata.test.ts)
    const output = z.object({ cents: z.string().transform(Number) });
    const documented = () =>
      defineTool({
        ...base,
        machine: typed,
        output,
        result: () => ({
          text: '',
          structured: { cents: '1250' },
        }),
      });
    expect(documented).toBeTypeOf('function');
  });
});

describe('defineResource types', () => {
  type StatementInput = { customer: string };
  const statement = setup({
    types: { input: {} as StatementInput, context: {} as StatementInput, output: {} as { text: string } },
  }).createMachine({
    id: 'statement',
    context: ({ input }) => input,
    initial: 'done',
    states: { done: { type: 'final' } },
    output: ({ context }) => ({ text: context.customer }),
  });

  it('checks explicit variables against the machine input', () => {
    defineResource({
      uri: 'statement://{customer}',
      name: 's',
      description: 'd',
      variables: z.object({ customer: z.string() }),
      machine: statement,
      contents: (o) => o.text,
    });
    const bad = () =>
      defineResource({
        uri: 'statement://{customer}',
        name: 's',
        description: 'd',
        variables: z.object({ client: z.string() }),
        // @ts-expect-error the machine takes { customer: string }
        machine: statement,
        contents: (o) => o.text,
      });
    expect(bad).toBeTypeOf('function');
  });

  it('types the variables from the URI template when no variables schema is given', () => {
    // The documented form (define-resource.ts example): the variables default to one string per {variable}
    const documented = () =>
      defineResource({
        uri: 'statement://{customer}',
        name: 's',
        description: 'd',
        machine: statement,
        contents: (o) => o.text,
      });
    expect(documented).toBeTypeOf('function');
  });
});

describe('the valid definition at run time', () => {
  it('defines without problems', () => {
    expect(() => defineTool({ ...base, machine: typed, result: () => ({ text: '' }) })).not.toThrow();
  });
});
