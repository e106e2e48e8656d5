import type { ElicitationSchema } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, review } from '../src/index.ts';
import { accept, type Conversation, converse, decline } from './conversation.ts';

function tripTool() {
  return defineFlowTool({
    name: 'plan_trip',
    description: 'Plans a trip',
    input: z.object({}),
    steps: {
      where: ask({
        message: 'Where and when?',
        fields: {
          destination: field.text({ title: 'Destination' }),
          from: field.text({ title: 'From', format: 'date' }),
          nights: field.integer({ title: 'Nights', min: 1, default: 2 }),
        },
        check: ({ answer }) => (answer.from < '2026-01-01' ? 'that date is in the past' : undefined),
      }),
      travellers: ask({
        message: 'How many travel?',
        fields: { count: field.integer({ title: 'Travellers', min: 1 }) },
        next: [{ if: { 'travellers.count': { gt: 4 } }, goto: 'group' }, { goto: 'confirm' }],
        onDecline: 'back',
      }),
      group: ask({ message: 'Group name?', fields: { name: field.text({ title: 'Group name' }) } }),
      confirm: review({ message: 'Book it?' }),
    },
    final: ({ answers }) => ({ text: `${answers.where?.destination} for ${answers.travellers?.count}` }),
  });
}

const defaultsOf = (c: Conversation, key: string) =>
  Object.fromEntries(
    Object.entries((c.asked[key] as { requestedSchema: ElicitationSchema }).requestedSchema.properties).map(([name, p]) => [
      name,
      (p as { default?: unknown }).default,
    ]),
  );
const choicesOf = (c: Conversation) =>
  (
    (c.asked.confirm as { requestedSchema: ElicitationSchema }).requestedSchema.properties.choice as { oneOf: { const: string }[] }
  ).oneOf.map((o) => o.const);
const trip = { destination: 'Lisbon', from: '2026-12-10', nights: 4 };

describe('a form asked again starts with the last answers', () => {
  it('the first time, only the fields’ own defaults', async () => {
    const c = await converse(tripTool());
    expect(defaultsOf(c, 'where')).toEqual({ destination: undefined, from: undefined, nights: 2 });
  });

  it('after a check refused the answer', async () => {
    let c = await converse(tripTool());
    c = await c.answer({ where: accept({ ...trip, from: '2025-12-10' }) });
    expect(c.asked.where!.message).toContain('that date is in the past');
    expect(defaultsOf(c, 'where')).toEqual({ ...trip, from: '2025-12-10' });
  });

  it("after going back to it with onDecline: 'back'", async () => {
    let c = await converse(tripTool());
    c = await c.answer({ where: accept(trip) });
    c = await c.answer({ travellers: decline });
    expect(Object.keys(c.asked)).toEqual(['where']);
    expect(defaultsOf(c, 'where')).toEqual(trip);
  });

  it('after "change" from the review; and the review offers a change only of steps this conversation went through', async () => {
    let c = await converse(tripTool());
    c = await c.answer({ where: accept(trip) });
    c = await c.answer({ travellers: accept({ count: 6 }) });
    c = await c.answer({ group: accept({ name: 'Choir' }) });
    expect(choicesOf(c)).toEqual(['confirm', 'change_where', 'change_travellers', 'change_group', 'abandon']);
    c = await c.answer({ confirm: accept({ choice: 'change_travellers' }) });
    expect(defaultsOf(c, 'travellers')).toEqual({ count: 6 });
    c = await c.answer({ travellers: accept({ count: 3 }) });
    // three travellers: no group step on the way now, so no change of it is offered
    expect(choicesOf(c)).toEqual(['confirm', 'change_where', 'change_travellers', 'abandon']);
    expect(c.asked.confirm!.message).not.toContain('Group name');
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Lisbon for 3');
  });
});
