// The `statement://customers/{customer}` resource: asks which month, then returns a plain-text
// statement of the customer's orders and refunds in that month.
import { type AnswerEvents, type AskMeta, defineQuestions, defineResource, type ResourceDefinition, safeText } from '@roundtrip/engine';
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { formatCents } from './money.ts';
import type { MonthActivity, OrdersStore } from './orders-store.ts';

type StatementContext = {
  customer: string;
  /** Months with activity, oldest first: `2026-05, 2026-06`; shown in the question. */
  months: string;
  month: string | null;
  text: string | null;
};

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const questions = defineQuestions<StatementContext>()({
  month: {
    message: "Which month of {{customer}}'s statement? Months with orders or refunds: {{months}}.",
    schema: z.object({ month: z.string().regex(MONTH, 'write the month as YYYY-MM, e.g. 2026-05').describe('The month, as YYYY-MM') }),
  },
});

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const sum = (items: Array<{ amountCents: number }>) => items.reduce((total, item) => total + item.amountCents, 0);

/** The statement as text: orders placed and refunds made in the month, with totals. */
export function formatStatement({ customer, month, orders, refunds }: MonthActivity): string {
  const [year, mm] = month.split('-');
  const lines = [`Statement for ${safeText(customer)}, ${MONTH_NAMES[Number(mm) - 1]} ${year} (${month})`, ''];
  if (orders.length === 0 && refunds.length === 0) {
    lines.push('No orders or refunds in this month.');
    return `${lines.join('\n')}\n`;
  }
  lines.push('Orders placed');
  for (const o of orders) lines.push(`  ${o.createdAt.slice(0, 10)}  ${o.id}  ${formatCents(o.amountCents).padStart(10)}`);
  if (orders.length === 0) lines.push('  (none)');
  lines.push('', 'Refunds made');
  for (const r of refunds) lines.push(`  ${r.refundedAt.slice(0, 10)}  ${r.orderId}  ${formatCents(r.amountCents).padStart(10)}`);
  if (refunds.length === 0) lines.push('  (none)');
  lines.push(
    '',
    `Total ordered:  ${formatCents(sum(orders)).padStart(10)}`,
    `Total refunded: ${formatCents(sum(refunds)).padStart(10)}`,
    `Net:            ${formatCents(sum(orders) - sum(refunds)).padStart(10)}`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Builds the `customer_statement` resource over an orders store. A customer with no orders gets a
 * one-line text saying so, without a question.
 *
 * @example
 * const statement = createCustomerStatementResource((await openDemoStores(dbLocation())).orders);
 * // resources/read statement://customers/ada → asks the month → the statement text
 */
export function createCustomerStatementResource(store: Pick<OrdersStore, 'activeMonths' | 'monthActivity'>): ResourceDefinition {
  const machine = setup({
    types: {
      input: {} as { customer: string },
      context: {} as StatementContext,
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as { text: string },
    },
    actors: {
      findMonths: fromPromise<string[], { customer: string }>(async ({ input }) => store.activeMonths(input.customer)),
      writeStatement: fromPromise<string, { customer: string; month: string }>(async ({ input }) =>
        formatStatement(await store.monthActivity(input.customer, input.month)),
      ),
    },
    actions: {
      rememberMonths: assign((_, params: { months: string[] }) => ({ months: params.months.join(', ') })),
      rememberMonth: assign((_, params: { month: string }) => ({ month: params.month })),
      rememberText: assign((_, params: { text: string }) => ({ text: params.text })),
    },
    guards: {
      noActivity: ({ context }) => context.months === '',
    },
  }).createMachine({
    id: 'customer_statement',
    version: '1',
    context: ({ input }) => ({ customer: input.customer, months: '', month: null, text: null }),
    initial: 'findingMonths',
    states: {
      findingMonths: {
        meta: { progress: 'Finding the months with orders…' },
        invoke: {
          id: 'months',
          src: 'findMonths',
          input: ({ context }) => ({ customer: context.customer }),
          onDone: { target: 'checkingCustomer', actions: { type: 'rememberMonths', params: ({ event }) => ({ months: event.output }) } },
        },
      },
      checkingCustomer: { always: [{ guard: 'noActivity', target: 'unknownCustomer' }, { target: 'askingMonth' }] },
      askingMonth: {
        meta: { ask: ['month'] },
        on: {
          'month.accept': {
            target: 'writing',
            actions: { type: 'rememberMonth', params: ({ event }) => ({ month: event.content.month }) },
          },
          'month.decline': 'noMonth',
          'month.cancel': 'noMonth',
        },
      },
      writing: {
        meta: { progress: 'Writing the statement…' },
        invoke: {
          id: 'statement',
          src: 'writeStatement',
          input: ({ context }) => ({ customer: context.customer, month: context.month ?? '' }),
          onDone: { target: 'written', actions: { type: 'rememberText', params: ({ event }) => ({ text: event.output }) } },
        },
      },
      written: { type: 'final', output: ({ context }) => ({ text: context.text ?? '' }) },
      unknownCustomer: {
        type: 'final',
        output: ({ context }) => ({ text: `No orders for customer '${safeText(context.customer)}', so there is no statement.\n` }),
      },
      noMonth: {
        type: 'final',
        output: ({ context }) => ({ text: `No statement for ${safeText(context.customer)}: no month was chosen.\n` }),
      },
    },
    output: ({ event }) => event.output as { text: string },
  });

  return defineResource({
    uri: 'statement://customers/{customer}',
    name: 'customer_statement',
    title: 'Customer statement',
    description: "A customer's monthly statement of orders and refunds, as plain text; asks which month.",
    mimeType: 'text/plain',
    variables: z.object({ customer: z.string().min(1).max(64).describe("The customer's name, e.g. 'ada'") }),
    questions,
    machine,
    contents: (output) => output.text,
  });
}
