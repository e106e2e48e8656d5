// Async checks and shows through a real engine: each runs as an invoked actor the round waits for, so a
// check may read a store whose reads are async, and the state is sealed only once it answered.
import { createEngine, createKeyring, createMemoryLedger, generateKey } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, askAll, defineFlowTool, field, form, openPage, review } from '../src/index.ts';
import { accept, converse } from './conversation.ts';
import { orderStore, orders, refundTool } from './refund-flow.ts';

/** Reads that are async, like a database's. */
const later = <T>(value: T) => Promise.resolve().then(() => value);

describe('an async check', () => {
  it('refuses an answer with its reason (asked again), and accepts the next', async () => {
    const store = orderStore(orders);
    let c = await converse(refundTool(store), { orderId: 'ord_1' });
    c = await c.answer({ why: accept({ reason: 'Test run' }) });
    expect(c.asked.why!.message).toBe(
      'Why refund 40 to Ada?\n\nYour last answer was not accepted: a test is not a reason to refund. Please answer again.',
    );
    c = await c.answer({ why: accept({ reason: 'Damaged' }) });
    expect(Object.keys(c.asked)).toEqual(['confirm']);
  });

  it('checks a kept answer again after a review changed an earlier one, and asks it again when it no longer passes', async () => {
    const seats: Record<string, number> = { big: 10, hall: 100 };
    const tool = defineFlowTool({
      name: 'book',
      description: 'Books',
      input: z.object({}),
      steps: {
        size: ask({ message: 'How many?', fields: { people: field.integer({ min: 1 }) } }),
        room: ask({
          message: 'Which room?',
          fields: { room: field.select({ options: ['big', 'hall'] }) },
          check: async ({ answer, answers }) => {
            const people = Number(answers.size?.people);
            const holds = await later(seats[answer.room]!);
            return people > holds ? `the ${answer.room} room holds ${holds}, not ${people}` : undefined;
          },
        }),
        confirm: review({ message: 'Book?' }),
      },
      final: ({ answers }) => ({ text: `${answers.size?.people} in ${answers.room?.room}` }),
    });
    let c = await converse(tool);
    c = await c.answer({ size: accept({ people: 8 }) });
    c = await c.answer({ room: accept({ room: 'big' }) });
    // a change that keeps the room fitting passes it through
    c = await c.answer({ confirm: accept({ choice: 'change_size' }) });
    c = await c.answer({ size: accept({ people: 9 }) });
    expect(Object.keys(c.asked)).toEqual(['confirm']);
    c = await c.answer({ confirm: accept({ choice: 'change_size' }) });
    c = await c.answer({ size: accept({ people: 30 }) });
    expect(c.asked.room!.message).toBe(
      'Which room?\n\nYour last answer was not accepted: the big room holds 10, not 30. Please answer again.',
    );
    c = await c.answer({ room: accept({ room: 'hall' }) });
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('30 in hall');
  });

  it('checks a form of an askAll step in its own region while the other form is answered in the same round', async () => {
    const tool = defineFlowTool({
      name: 'signup',
      description: 'Signs up',
      input: z.object({}),
      steps: {
        details: askAll({
          forms: {
            handle: form({
              message: 'Your handle?',
              fields: { name: field.text({ minLength: 2 }) },
              check: async ({ answer }) => later(answer.name === 'admin' ? 'that handle is taken' : undefined),
            }),
            plan: form({ message: 'Which plan?', fields: { plan: field.select({ options: ['free', 'pro'] }) } }),
          },
        }),
      },
      final: ({ answers }) => ({ text: `${answers.handle?.name} on ${answers.plan?.plan}` }),
    });
    let c = await converse(tool);
    c = await c.answer({ handle: accept({ name: 'admin' }), plan: accept({ plan: 'pro' }) });
    expect(Object.keys(c.asked)).toEqual(['handle']);
    expect(c.asked.handle!.message).toContain('Your last answer was not accepted: that handle is taken.');
    c = await c.answer({ handle: accept({ name: 'ada' }) });
    expect(c.text()).toBe('ada on pro');
  });

  it('checks a page step asynchronously: the page is offered again until the records say it was finished', async () => {
    const paid = new Set<string>();
    const tool = defineFlowTool({
      name: 'pay',
      description: 'Pays',
      input: z.object({ order: z.string() }),
      steps: {
        pay: openPage({
          message: 'Pay for {{input.order}}.',
          url: 'https://pay.example.com/{{input.order}}',
          alternative: 'finish',
          check: async ({ input }) => later(paid.has(String(input.order)) ? undefined : 'the payment has not arrived yet'),
        }),
      },
      final: () => ({ text: 'paid' }),
    });
    const engine = createEngine({ tools: [tool], keyring: createKeyring([generateKey()]), audience: 'test', ledger: createMemoryLedger() });
    const call = (extra: { requestState?: string; inputResponses?: Record<string, unknown> } = {}) =>
      engine.callTool({
        name: 'pay',
        arguments: { order: 'o1' },
        principal: 'ada',
        capabilities: { elicitation: { form: {}, url: {} } },
        ...extra,
      });
    const first = await call();
    if (first.type !== 'input_required') throw new Error(JSON.stringify(first));
    const early = await call({ requestState: first.requestState, inputResponses: { pay: { action: 'accept' } } });
    if (early.type !== 'input_required') throw new Error(JSON.stringify(early));
    expect(early.inputRequests.pay).toMatchObject({ params: { message: expect.stringContaining('the payment has not arrived yet') } });
    paid.add('o1');
    const done = await call({ requestState: early.requestState, inputResponses: { pay: { action: 'accept' } } });
    expect(done).toEqual({ type: 'complete', result: { content: [{ type: 'text', text: 'paid' }] } });
  });

  it('fails the round, saying how to fix it in the log, when a check that is not declared async returns a Promise', async () => {
    const tool = defineFlowTool({
      name: 'hidden',
      description: 'Hides a promise',
      input: z.object({}),
      steps: {
        name: ask({
          message: 'Name?',
          fields: { name: field.text() },
          check: ({ answer }) => later(answer.name === 'x' ? 'no' : undefined),
        }),
      },
      final: () => ({ text: 'ok' }),
    });
    let c = await converse(tool);
    c = await c.answer({ name: accept({ name: 'ada' }) });
    expect(c.text()).toBe("Tool 'hidden' failed on the server before it could finish; the details are in the server's log.");
    expect(c.logs.find((entry) => entry.event === 'machine_error')?.message).toContain(
      "the check of 'name' returned a Promise, but it is not declared async, so it ran where nothing can wait for it. Write it as an async function",
    );
  });
});

describe('an async show', () => {
  it('is read before the review is asked, and again right before the final action: a change shows the review again', async () => {
    let price = 40;
    const booked: number[] = [];
    const tool = defineFlowTool({
      name: 'buy',
      description: 'Buys',
      input: z.object({}),
      steps: {
        seat: ask({ message: 'Which seat?', fields: { seat: field.select({ options: ['aisle', 'window'] }) } }),
        confirm: review({ message: 'Buy it?', show: async () => ({ Price: `$${await later(price)}` }) }),
      },
      final: () => {
        booked.push(price);
        return { text: `Bought for $${price}` };
      },
    });
    let c = await converse(tool);
    c = await c.answer({ seat: accept({ seat: 'aisle' }) });
    expect(c.asked.confirm!.message).toBe('Buy it?\n\n- seat: aisle\n- Price: $40');
    price = 45;
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.asked.confirm!.message).toBe(
      'Buy it?\n\n- seat: aisle\n- Price: $45\n\nYour last answer was not accepted: what was shown changed before it could be done; the new values are above. Please answer again.',
    );
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Bought for $45');
    expect(booked).toEqual([45]);
  });
});
