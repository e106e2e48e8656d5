// Type tests: checked by `npx tsc -p tsconfig.json --noEmit` at the repository root. What a loader
// returns types `loaded.<step>` in the final action, ended and stopped; loaders are typed with the flow's
// input and answers; a step that runs a loader the flow does not give fails to compile.
import { RoundtripDefinitionError } from '@roundtrip/engine';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowTool, field, type LoadedOf, load } from '../src/index.ts';

const input = z.object({ orderId: z.string() });
const steps = {
  order: load({
    run: 'findOrder',
    next: [{ if: { 'order.found': { eq: false } }, end: 'No order {{input.orderId}}.' }, { goto: 'why' }],
  }),
  why: ask({ message: 'Why refund {{order.amount}}?', fields: { reason: field.text() } }),
};
type Order = { found: true; amount: number } | { found: false };
const findOrder = async ({ input }: { input: { orderId: string } }): Promise<Order> =>
  input.orderId === 'ord_1' ? { found: true, amount: 40 } : { found: false };

describe('loaded values typed from the loaders', () => {
  it('gives each load step an optional entry typed by its loader’s result (undefined kept as null)', () => {
    expectTypeOf<LoadedOf<typeof steps, { findOrder: typeof findOrder }>>().toEqualTypeOf<{ order?: Order }>();
    const maybe = { a: load({ run: 'readMaybe' }) };
    expectTypeOf<LoadedOf<typeof maybe, { readMaybe: () => Promise<string | undefined> }>>().toEqualTypeOf<{ a?: string | null }>();
  });

  it('types loaded in the final action, ended and stopped, and the loader’s input and answers', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        findOrder: async ({ input, answers, attempt }) => {
          expectTypeOf(input).toEqualTypeOf<{ orderId: string }>();
          expectTypeOf(answers.why).toEqualTypeOf<{ reason: string } | undefined>();
          expectTypeOf(attempt).toEqualTypeOf<number>();
          return findOrder({ input });
        },
      },
      steps,
      final: ({ loaded }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Order | undefined>();
        // @ts-expect-error: the order may be one that was not found, which has no amount
        void loaded.order?.amount;
        // @ts-expect-error: no step loads a customer
        void loaded.customer;
        return { text: loaded.order?.found ? `Refunded ${loaded.order.amount}` : 'nothing' };
      },
      ended: ({ loaded, how }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Order | undefined>();
        expectTypeOf(how).toEqualTypeOf<'declined' | 'cancelled' | 'abandoned'>();
        return { text: 'nothing was refunded' };
      },
      stopped: ({ loaded, message, how, step }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Order | undefined>();
        expectTypeOf(message).toEqualTypeOf<string>();
        expectTypeOf(how).toEqualTypeOf<'stopped' | 'failed'>();
        expectTypeOf(step).toEqualTypeOf<'order' | 'why'>();
        return { text: message, isError: true };
      },
    });
    defineFlowPrompt({
      name: 'note',
      description: 'A note',
      arguments: input,
      loaders: { findOrder },
      steps,
      final: ({ loaded }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Order | undefined>();
        return [{ role: 'user', text: 'x' }];
      },
    });
  });

  it('refuses at compile time (and when defined) a step that runs a loader the flow does not give', () => {
    expect(() =>
      defineFlowTool({
        name: 'refund',
        description: 'Refunds',
        input,
        // @ts-expect-error: 'findOrder' is run by the step 'order' but missing here
        loaders: { findOrdr: findOrder },
        steps,
        final: () => ({ text: 'x' }),
      }),
    ).toThrow(RoundtripDefinitionError);
  });
});
