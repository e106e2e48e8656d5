// Type tests: checked by `npx tsc -p tsconfig.json --noEmit` at the repository root. A loader's `previous` (what
// it loaded before, when the flow comes back to its step) is `unknown` unless the loader says what it loads by
// annotating its argument with LoaderArgsFor<Input, Loaded>: then `previous` is that, the input is typed as the
// annotation says, and the loaded value is typed from the loader's result as for any loader. TypeScript cannot
// type a parameter from the result it infers for the same function, hence the annotation.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, type LoaderArgsFor, load } from '../src/index.ts';

type Input = { orderId: string };
type Loaded = { amountCents: number; note: string } | null;
const input = z.object({ orderId: z.string() });

describe("a loader's previous", () => {
  it('is unknown in a loader that does not say what it loads', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        findOrder: async ({ input, previous }) => {
          expectTypeOf(previous).toEqualTypeOf<unknown>();
          return { amountCents: 10, note: input.orderId };
        },
      },
      steps: (flow) => flow.load('order', { run: 'findOrder' }),
      final: ({ loaded }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<{ amountCents: number; note: string } | undefined>();
        return { text: 'done' };
      },
    });
  });

  it('is what the loader loads when it annotates its argument (steps declared in order)', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        findOrder: async ({ input, previous }: LoaderArgsFor<Input, Loaded>): Promise<Loaded> => {
          expectTypeOf(previous).toEqualTypeOf<Loaded | undefined>();
          const changed = previous !== undefined && previous !== null && previous.amountCents !== 12;
          return { amountCents: 12, note: `${input.orderId}${changed ? ' changed' : ''}` };
        },
      },
      steps: (flow) => flow.load('order', { run: 'findOrder' }),
      final: ({ loaded }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Loaded | undefined>();
        return { text: 'done' };
      },
    });
  });

  it('is typed the same with steps as a record, whose answers are typed', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        findOrder: async ({ previous }: LoaderArgsFor<Input, Loaded>): Promise<Loaded> => previous ?? null,
      },
      steps: {
        order: load({ run: 'findOrder', next: 'why' }),
        why: ask({ message: 'Why?', fields: { reason: field.text() } }),
      },
      final: ({ loaded, answers }) => {
        expectTypeOf(loaded.order).toEqualTypeOf<Loaded | undefined>();
        return { text: answers.why?.reason ?? '' };
      },
    });
  });

  it('refuses an annotation whose input is not the tool’s', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        // @ts-expect-error: the tool's input has orderId, not customerId
        findOrder: async ({ previous }: LoaderArgsFor<{ customerId: string }, Loaded>): Promise<Loaded> => previous ?? null,
      },
      steps: (flow) => flow.load('order', { run: 'findOrder' }),
      final: () => ({ text: 'done' }),
    });
  });
});
