// Type tests of load steps in a flow declared in order (`steps: (flow) => flow.load('order', { run: 'findOrder' })…`):
// checked by `npx tsc -p tsconfig.json --noEmit` at the repository root. The loaders are given by name at the
// config's level; each later step reads `loaded.order` typed as its loader returns it. Every `@ts-expect-error`
// sits on the line that must fail.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineFlowTool, field } from '../src/index.ts';

const input = z.object({ orderId: z.string() });
type Order = { id: string; amountCents: number; customer: { name: string }; refunded: boolean };
const orders: Record<string, Order> = { ord_1: { id: 'ord_1', amountCents: 4900, customer: { name: 'Ada' }, refunded: false } };

describe('a load step declared in order types its value for the steps after it', () => {
  it('in rules, messages, checks, show, confirmed and the final action, from the loader named at the config level', () => {
    defineFlowTool({
      name: 'refund',
      description: 'Refunds',
      input,
      loaders: {
        // the loader's parameters are typed by the config (input here); its result types `loaded.order`
        findOrder: async ({ input, answers, previous }) => {
          expectTypeOf(input).toEqualTypeOf<{ orderId: string }>();
          // the steps are typed from the loaders, so the loaders see the answers untyped: JSON by form name
          expectTypeOf(answers).toEqualTypeOf<{ [form: string]: { [field: string]: unknown } | undefined }>();
          // TypeScript cannot type a parameter from the same function's inferred result: read it as unknown
          expectTypeOf(previous).toEqualTypeOf<unknown>();
          return orders[input.orderId] ?? null;
        },
      },
      steps: (flow) =>
        flow
          .load('order', {
            run: 'findOrder',
            next: [
              // a null result has the paths of what it holds otherwise; `answered: false` tests for nothing
              { if: { 'order.id': { answered: false } }, end: 'There is no order {{input.orderId}}.' },
              { if: { 'order.refunded': { eq: true } }, end: 'Order {{order.id}} was refunded.' },
              { goto: 'confirm' },
            ],
          })
          .ask('confirm', {
            // deeper into an object the loader returned
            message: 'Refund {{order.amountCents}} cents to {{order.customer.name}}?',
            fields: { ok: field.boolean() },
            check: ({ loaded }) => {
              expectTypeOf(loaded).toEqualTypeOf<{ readonly order?: Order | null }>();
              return loaded.order?.refunded ? 'It was refunded meanwhile.' : undefined;
            },
            confirmed: {
              shown: ({ loaded }) => loaded.order?.amountCents ?? null,
              current: ({ input }) => orders[input.orderId]?.amountCents ?? null,
              onChange: 'order',
            },
          })
          .review('sure', {
            message: 'Sure about {{order.id}}?',
            show: ({ loaded }) => ({ Customer: loaded.order?.customer.name ?? 'nobody' }),
          }),
      final: ({ input, answers, loaded }) => {
        expectTypeOf(loaded).toEqualTypeOf<{ order?: Order | null }>();
        // context-sensitive loaders do not hide the steps from the final action
        expectTypeOf(answers).toEqualTypeOf<{ confirm: { ok: boolean } }>();
        return { text: `${input.orderId}: ${loaded.order?.amountCents}` };
      },
    });
  });

  it('a literal the loader returns keeps its type only with `as const` (or a declared result type)', () => {
    defineFlowTool({
      name: 'find',
      description: 'Finds',
      input,
      loaders: {
        wide: async () => ({ found: true }),
        narrow: async () => ({ found: true as const }),
      },
      steps: (flow) =>
        flow
          .load('a', { run: 'wide' })
          .load('b', { run: 'narrow' })
          .ask('ok', {
            message: 'OK?',
            fields: { ok: field.boolean() },
            check: ({ loaded }) => {
              expectTypeOf(loaded.a).toEqualTypeOf<{ found: boolean } | undefined>();
              expectTypeOf(loaded.b).toEqualTypeOf<{ found: true } | undefined>();
              return undefined;
            },
          }),
      final: () => ({ text: 'ok' }),
    });
  });

  it('refuses a path or placeholder the loaded value does not have, and a loader the flow does not give', () => {
    const refused = () =>
      defineFlowTool({
        name: 'refund',
        description: 'Refunds',
        input,
        loaders: { findOrder: async ({ input }) => orders[input.orderId] ?? null },
        steps: (flow) =>
          flow
            .load('order', {
              run: 'findOrder',
              // @ts-expect-error: the order has no `amount` (it is `amountCents`)
              next: [{ if: { 'order.amount': { gt: 0 } }, goto: 'confirm' }],
            })
            // @ts-expect-error: `eq` with text does not fit a yes/no value
            .load('again', { run: 'findOrder', next: [{ if: { 'order.refunded': { eq: 'yes' } }, goto: 'confirm' }] })
            // @ts-expect-error: no loader 'findOrdr' in the flow's loaders
            .load('typo', { run: 'findOrdr' })
            // @ts-expect-error: `{{order.amount}}` names nothing the step can read
            .ask('confirm', { message: 'Refund {{order.amount}}?', fields: { ok: field.boolean() } }),
        final: () => ({ text: 'ok' }),
      });
    expect(refused).toThrow(/findOrdr/);
  });
});
