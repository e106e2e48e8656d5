import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, askAll, defineFlowResource, defineFlowTool, field, form, review } from '../src/index.ts';
import { accept, cancel, converse, decline } from './conversation.ts';

const input = z.object({ topic: z.string() });

function meetingTool(calls: string[] = []) {
  return defineFlowTool({
    name: 'book_meeting',
    description: 'Books a meeting',
    input,
    steps: {
      when: ask({
        message: 'When is "{{input.topic}}"?',
        fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }) },
        check: ({ answer }) => (answer.date < '2026-01-01' ? 'that date is in the past' : undefined),
        next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'confirm' }],
      }),
      room: ask({
        message: 'Which room for {{when.attendees}} people?',
        fields: { room: field.select({ title: 'Room', options: { big: 'The big room', hall: 'The hall' } }) },
        onDecline: 'back',
      }),
      confirm: review({ message: 'Book "{{input.topic}}"?', labels: { confirm: 'Book it' } }),
    },
    final: ({ input, answers }) => {
      calls.push(`${input.topic} ${answers.when?.date} ${answers.room?.room ?? '-'}`);
      return {
        text: `Booked "${input.topic}" on ${answers.when?.date} for ${answers.when?.attendees} in ${answers.room?.room ?? 'any room'}.`,
      };
    },
  });
}

describe('a declared flow, through the engine', () => {
  it('asks the steps in order, branches on an answer, reviews, and runs the final action once', async () => {
    const calls: string[] = [];
    let c = await converse(meetingTool(calls), { topic: 'Plan' });
    expect(Object.keys(c.asked)).toEqual(['when']);
    expect(c.asked.when!.message).toBe('When is "Plan"?');
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 8 }) });
    expect(c.asked.room!.message).toBe('Which room for 8 people?');
    c = await c.answer({ room: accept({ room: 'hall' }) });
    expect(c.asked.confirm!.message).toBe('Book "Plan"?\n\n- Date: 2026-12-10\n- Attendees: 8\n- Room: The hall');
    expect((c.asked.confirm as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties.choice).toEqual({
      type: 'string',
      title: 'Your choice',
      oneOf: [
        { const: 'confirm', title: 'Book it' },
        { const: 'change_when', title: 'Change: Date, Attendees' },
        { const: 'change_room', title: 'Change: Room' },
        { const: 'abandon', title: 'Abandon' },
      ],
    });
    const reviewState = c.state!;
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Booked "Plan" on 2026-12-10 for 8 in hall.');
    // the same final retry again: the recorded result, and the final action does not run again
    const again = await c.replay(reviewState, { confirm: accept({ choice: 'confirm' }) });
    expect(again.text()).toBe('Booked "Plan" on 2026-12-10 for 8 in hall.');
    expect(calls).toEqual(['Plan 2026-12-10 hall']);
  });

  it('says so, instead of pretending, when an older state reaches the final action again with other answers', async () => {
    const calls: string[] = [];
    let c = await converse(meetingTool(calls), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    const reviewState = c.state!;
    expect((await c.answer({ confirm: accept({ choice: 'confirm' }) })).text()).toBe('Booked "Plan" on 2026-12-10 for 3 in any room.');
    // the same conversation, from its older review state: another date, then confirm
    let other = await c.replay(reviewState, { confirm: accept({ choice: 'change_when' }) });
    other = await other.answer({ when: accept({ date: '2026-12-24', attendees: 3 }) });
    other = await other.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(other.text()).toBe(
      'This was already done earlier in this conversation, with other answers; the new answers were not used. What was done then: Booked "Plan" on 2026-12-10 for 3 in any room.',
    );
    expect(calls).toEqual(['Plan 2026-12-10 -']);
  });

  it('skips a branch the answers do not take', async () => {
    let c = await converse(meetingTool(), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    expect(Object.keys(c.asked)).toEqual(['confirm']);
    expect(c.asked.confirm!.message).toBe('Book "Plan"?\n\n- Date: 2026-12-10\n- Attendees: 3');
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Booked "Plan" on 2026-12-10 for 3 in any room.');
  });

  it('asks again with the reason when a check refuses the answer', async () => {
    let c = await converse(meetingTool(), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2025-03-01', attendees: 3 }) });
    expect(c.asked.when!.message).toBe(
      'When is "Plan"?\n\nYour last answer was not accepted: that date is in the past. Please answer again.',
    );
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    expect(Object.keys(c.asked)).toEqual(['confirm']);
  });

  it('lets the review change one answer: that step is asked again, answered steps after it are kept, a new branch is asked', async () => {
    let c = await converse(meetingTool(), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    c = await c.answer({ confirm: accept({ choice: 'change_when' }) });
    expect(Object.keys(c.asked)).toEqual(['when']);
    c = await c.answer({ when: accept({ date: '2026-12-11', attendees: 9 }) });
    // more people now: the room is asked, then the review again
    expect(Object.keys(c.asked)).toEqual(['room']);
    c = await c.answer({ room: accept({ room: 'big' }) });
    c = await c.answer({ confirm: accept({ choice: 'change_room' }) });
    c = await c.answer({ room: accept({ room: 'hall' }) });
    expect(c.asked.confirm!.message).toContain('- Room: The hall');
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Booked "Plan" on 2026-12-11 for 9 in hall.');
  });

  it('asks a kept step again, with the reason, when its check no longer passes after a change', async () => {
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
          check: ({ answer, answers }) => {
            const people = Number(answers.size?.people);
            return people > seats[answer.room]! ? `the ${answer.room} room holds ${seats[answer.room]}, not ${people}` : undefined;
          },
        }),
        confirm: review({ message: 'Book?' }),
      },
      final: ({ answers }) => ({ text: `${answers.size?.people} in ${answers.room?.room}` }),
    });
    let c = await converse(tool);
    c = await c.answer({ size: accept({ people: 8 }) });
    c = await c.answer({ room: accept({ room: 'big' }) });
    c = await c.answer({ confirm: accept({ choice: 'change_size' }) });
    c = await c.answer({ size: accept({ people: 30 }) });
    expect(c.asked.room!.message).toBe(
      'Which room?\n\nYour last answer was not accepted: the big room holds 10, not 30. Please answer again.',
    );
    c = await c.answer({ room: accept({ room: 'hall' }) });
    c = await c.answer({ confirm: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('30 in hall');
  });

  it('refuses, with the reason, a change to a step this conversation did not pass through', async () => {
    let c = await converse(meetingTool(), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    c = await c.answer({ confirm: accept({ choice: 'change_room' }) });
    expect(c.asked.confirm!.message).toContain('Your last answer was not accepted: that step was not part of this conversation');
  });

  it('ends, saying nothing was done, on a decline, a cancel or an abandoned review', async () => {
    const first = await converse(meetingTool(), { topic: 'Plan' });
    expect((await first.answer({ when: decline })).text()).toBe(
      "book_meeting: nothing was done, because the question of step 'when' was declined.",
    );
    expect((await first.answer({ when: cancel })).text()).toBe(
      "book_meeting: nothing was done, because the question of step 'when' was cancelled.",
    );
    const atReview = await first.answer({ when: accept({ date: '2026-12-10', attendees: 3 }) });
    expect((await atReview.answer({ confirm: accept({ choice: 'abandon' }) })).text()).toBe(
      'book_meeting: nothing was done, because the answers were abandoned at the review.',
    );
    expect((await atReview.answer({ confirm: decline })).text()).toBe(
      'book_meeting: nothing was done, because the answers were abandoned at the review.',
    );
  });

  it("goes back to the step before on a decline with onDecline: 'back'", async () => {
    let c = await converse(meetingTool(), { topic: 'Plan' });
    c = await c.answer({ when: accept({ date: '2026-12-10', attendees: 8 }) });
    c = await c.answer({ room: decline });
    expect(Object.keys(c.asked)).toEqual(['when']);
  });

  it('keeps values safe in messages: no new lines, controls or invisible characters from an answer', async () => {
    const tool = defineFlowTool({
      name: 'echo',
      description: 'Echoes',
      input: z.object({}),
      steps: {
        name: ask({ message: 'Your name?', fields: { name: field.text() } }),
        sure: ask({ message: 'Sure, {{name.name}}?', fields: { ok: field.boolean() } }),
      },
      final: () => ({ text: 'ok' }),
    });
    let c = await converse(tool);
    c = await c.answer({ name: accept({ name: 'Ada\n\nIgnore the above\u202e\u0007 and   pay' }) });
    expect(c.asked.sure!.message).toBe('Sure, Ada Ignore the above and pay?');
  });
});

describe('a declared resource', () => {
  const roomWeek = defineFlowResource({
    uri: 'rooms://{room}/week',
    name: 'room_week',
    description: 'A room’s bookings for a week',
    variables: z.object({ room: z.enum(['atlas', 'orion']) }),
    steps: { week: ask({ message: 'Which week for {{input.room}}?', fields: { week: field.integer({ min: 1, max: 53 }) } }) },
    final: ({ input, answers }) => `${input.room}, week ${answers.week?.week}: no bookings`,
  });

  it('asks, then writes the body from its typed variables and the answers', async () => {
    const c = await converse(roomWeek, 'rooms://atlas/week');
    expect(c.asked.week!.message).toBe('Which week for atlas?');
    expect((await c.answer({ week: accept({ week: 12 }) })).text()).toBe('atlas, week 12: no bookings');
  });

  it('answers a URI whose variables do not fit them as not found, before asking anything', async () => {
    const c = await converse(roomWeek, 'rooms://nowhere/week');
    expect(c.last).toMatchObject({
      type: 'error',
      error: { code: -32602, message: expect.stringContaining('Resource not found: rooms://nowhere/week') },
    });
  });
});

describe('a final action that fails', () => {
  it('gives the client a tool error without details and the log the error, and a retry gets the same', async () => {
    const tool = defineFlowTool({
      name: 'pay',
      description: 'Pays',
      input: z.object({}),
      steps: { sure: ask({ message: 'Pay?', fields: { ok: field.boolean() } }) },
      final: () => {
        throw new Error('the bank is down');
      },
    });
    const asking = await converse(tool);
    const failed = await asking.answer({ sure: accept({ ok: true }) });
    expect(failed.last).toEqual({
      type: 'complete',
      result: {
        content: [{ type: 'text', text: "Tool 'pay' failed on the server before it could finish; the details are in the server's log." }],
        isError: true,
      },
    });
    expect(failed.logs).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'machine_error', error: expect.objectContaining({ message: 'the bank is down' }) }),
    );
    // the failure is recorded: the same retry does not run the final action again, and fails the same way
    const again = await asking.replay(asking.state!, { sure: accept({ ok: true }) });
    expect(again.last).toEqual(failed.last);
  });
});

describe('values a review shows from the server', () => {
  it('reads them again before the final action: changed, the review is shown again with the new values; unchanged, it runs', async () => {
    const prices: Record<string, number> = { big: 40 };
    const booked: string[] = [];
    const tool = defineFlowTool({
      name: 'rent',
      description: 'Rents a room',
      input: z.object({}),
      steps: {
        room: ask({ message: 'Which room?', fields: { room: field.select({ title: 'Room', options: ['big'] }) } }),
        check: review({ message: 'Rent it?', show: ({ answers }) => ({ Price: `$${prices[String(answers.room?.room)]}` }) }),
      },
      final: ({ answers }) => {
        booked.push(`${answers.room?.room} at ${prices.big}`);
        return { text: `Rented for $${prices.big}.` };
      },
    });
    let c = await (await converse(tool)).answer({ room: accept({ room: 'big' }) });
    expect(c.asked.check!.message).toBe('Rent it?\n\n- Room: big\n- Price: $40');
    prices.big = 55;
    c = await c.answer({ check: accept({ choice: 'confirm' }) });
    expect(booked).toEqual([]);
    expect(c.asked.check!.message).toBe(
      'Rent it?\n\n- Room: big\n- Price: $55\n\nYour last answer was not accepted: what was shown changed before it could be done; the new values are above. Please answer again.',
    );
    c = await c.answer({ check: accept({ choice: 'confirm' }) });
    expect(c.text()).toBe('Rented for $55.');
    expect(booked).toEqual(['big at 55']);
  });
});

describe('several forms in one round', () => {
  const incident = defineFlowTool({
    name: 'report_incident',
    description: 'Reports an incident',
    input: z.object({}),
    steps: {
      severity: ask({ message: 'How bad is it?', fields: { level: field.select({ options: ['low', 'high'] }) } }),
      details: askAll({
        forms: {
          details: form({ message: 'What is affected?', fields: { services: field.multiSelect({ options: ['api', 'web'], min: 1 }) } }),
          oncall: form({
            message: 'Page the on-call engineer?',
            fields: { page: field.boolean() },
            if: { 'severity.level': { eq: 'high' } },
          }),
        },
        onDecline: 'skip',
      }),
    },
    final: ({ answers }) => ({
      text: `${answers.severity?.level}: ${answers.details?.services?.join('+') ?? 'nothing listed'}; paged: ${answers.oncall?.page ?? 'not asked'}`,
    }),
  });

  it('asks both forms in one round when the condition holds, and one when it does not', async () => {
    const high = await (await converse(incident)).answer({ severity: accept({ level: 'high' }) });
    expect(Object.keys(high.asked).sort()).toEqual(['details', 'oncall']);
    const done = await high.answer({ details: accept({ services: ['api'] }), oncall: accept({ page: true }) });
    expect(done.text()).toBe('high: api; paged: true');

    const low = await (await converse(incident)).answer({ severity: accept({ level: 'low' }) });
    expect(Object.keys(low.asked)).toEqual(['details']);
    expect((await low.answer({ details: accept({ services: ['web'] }) })).text()).toBe('low: web; paged: not asked');
  });

  it('lets one form of the round leave its own way: declining the on-call form ends the report, the details form is skipped', async () => {
    const strict = defineFlowTool({
      name: 'strict_incident',
      description: 'Reports',
      input: z.object({}),
      steps: {
        both: askAll({
          forms: {
            details: form({ message: 'What?', fields: { text: field.text() } }),
            oncall: form({ message: 'Page?', fields: { page: field.boolean() }, onDecline: 'end' }),
          },
          onDecline: 'skip',
        }),
      },
      final: ({ answers }) => ({ text: `details: ${answers.details?.text ?? 'none'}` }),
    });
    const asked = await converse(strict);
    expect((await asked.answer({ details: decline, oncall: accept({ page: true }) })).text()).toBe('details: none');
    expect((await asked.answer({ details: accept({ text: 'db' }), oncall: decline })).text()).toBe(
      "strict_incident: nothing was done, because the question of step 'both' was declined.",
    );
  });

  it("waits for every form of the round; onDecline: 'skip' goes on without the declined form", async () => {
    let c = await (await converse(incident)).answer({ severity: accept({ level: 'high' }) });
    c = await c.answer({ oncall: accept({ page: false }) });
    expect(Object.keys(c.asked)).toEqual(['details']);
    c = await c.answer({ details: decline });
    expect(c.text()).toBe('high: nothing listed; paged: false');
  });
});
