// The meeting_agenda prompt (prompts/get) and the room_bookings resource (resources/read), both declared
// as flows, each asking the user before it answers, through the engine in this process.
import { afterEach, describe, expect, it } from 'vitest';
import { agendaInstructions } from '../src/meeting-agenda-prompt.ts';
import { formatRoomWeek, weekOf } from '../src/room-bookings-resource.ts';
import { accept, closeDemoEngines, decline, demoEngine, done, question, refused } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

describe('meeting_agenda prompt', () => {
  it('is listed with its topic argument', async () => {
    expect((await demoEngine()).engine.listPrompts().find((p) => p.name === 'meeting_agenda')).toEqual({
      name: 'meeting_agenda',
      title: 'Meeting agenda',
      description: "Writes a meeting's agenda; asks how long the meeting is and what kind of agenda it needs.",
      arguments: [{ name: 'topic', description: 'What the meeting is about', required: true }],
    });
  });

  it('asks the length and the style, then gives the model the instructions', async () => {
    const demo = await demoEngine();
    const first = question(await demo.prompt('meeting_agenda', { topic: 'Roadmap review' }), 'shape');
    expect(first.message).toBe('How long is the meeting about "Roadmap review", and what kind of agenda should it follow?');
    expect(first.schema).toMatchObject({
      properties: {
        minutes: { type: 'integer', title: 'Length in minutes', minimum: 10, maximum: 240, default: 30 },
        style: { type: 'string', oneOf: [{ const: 'standup' }, { const: 'workshop' }, { const: 'decision' }] },
        notes: { type: 'string', maxLength: 300 },
      },
      required: ['style'],
    });
    const result = done(
      await demo.prompt(
        'meeting_agenda',
        { topic: 'Roadmap review' },
        {
          requestState: first.requestState,
          inputResponses: { shape: accept({ minutes: 45, style: 'decision', notes: 'Two options only' }) },
        },
      ),
    );
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'Write the agenda of a 45-minute meeting about "Roadmap review". Style: decision (the question, the options with their costs, ' +
            'the decision and who acts on it). Give each item a time box; the time boxes add up to the length of the meeting. ' +
            'Take this into account: "Two options only". Reply with the agenda only, as a numbered list.',
        },
      },
    ]);
  });

  it('takes the default length when none is given, and ends with an assistant message when the user declines', async () => {
    const demo = await demoEngine();
    const args = { topic: 'Stand-up' };
    const first = question(await demo.prompt('meeting_agenda', args), 'shape');
    const result = done(
      await demo.prompt('meeting_agenda', args, {
        requestState: first.requestState,
        inputResponses: { shape: accept({ style: 'standup' }) },
      }),
    );
    expect(result.messages[0]!.content).toEqual({ type: 'text', text: agendaInstructions('Stand-up', 30, 'standup', undefined) });
    const declined = done(
      await demo.prompt('meeting_agenda', args, { requestState: first.requestState, inputResponses: { shape: decline } }),
    );
    expect(declined.messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'No agenda was written: the questions about the meeting were not answered.' } },
    ]);
  });
});

describe('room_bookings resource', () => {
  const uri = 'bookings://rooms/orion';

  it('is listed as a URI template', async () => {
    expect((await demoEngine()).engine.listResourceTemplates()).toContainEqual(
      expect.objectContaining({ uriTemplate: 'bookings://rooms/{room}', name: 'room_bookings', mimeType: 'text/plain' }),
    );
  });

  it("asks which week, then lists that week's bookings of the room, by date and time", async () => {
    const demo = await demoEngine();
    await demo.meetings.book({ topic: 'Planning', date: '2030-03-14', time: '14:00', attendees: 12, room: 'orion' });
    await demo.meetings.book({ topic: 'Kick-off', date: '2030-03-11', time: '09:00', attendees: 18, room: 'orion' });
    await demo.meetings.book({ topic: 'Next week', date: '2030-03-18', time: '09:00', attendees: 8, room: 'orion' });
    await demo.meetings.book({ topic: 'Elsewhere', date: '2030-03-12', time: '09:00', attendees: 8, room: 'atlas' });
    const first = question(await demo.read(uri), 'week');
    expect(first.message).toBe('Which week of the bookings of room orion? Give any day of it.');
    expect(first.schema).toEqual({
      type: 'object',
      properties: { day: { type: 'string', title: 'A day of the week', description: 'YYYY-MM-DD', format: 'date' } },
      required: ['day'],
    });
    const result = done(
      await demo.read(uri, { requestState: first.requestState, inputResponses: { week: accept({ day: '2030-03-17' }) } }),
    );
    expect(result.contents).toEqual([
      {
        uri,
        mimeType: 'text/plain',
        text:
          'Bookings of Orion (up to 20 people), week of 2030-03-11 to 2030-03-17\n\n' +
          '  Mon 2030-03-11  09:00  "Kick-off", 18 people (booking 2)\n' +
          '  Thu 2030-03-14  14:00  "Planning", 12 people (booking 1)\n\n' +
          '2 bookings.\n',
      },
    ]);
  });

  it('says when a week has no bookings, and answers an unknown room as not found before asking anything', async () => {
    const demo = await demoEngine();
    const week = accept({ day: '2030-03-11' });
    const first = question(await demo.read(uri), 'week');
    const empty = done(await demo.read(uri, { requestState: first.requestState, inputResponses: { week } }));
    const text = formatRoomWeek('orion', weekOf('2030-03-11'), []);
    expect(text).toMatch(/No bookings this week\.\n$/);
    expect(empty.contents).toEqual([{ uri, mimeType: 'text/plain', text }]);
    const nowhere = 'bookings://rooms/basement';
    expect(await demo.read(nowhere)).toMatchObject({
      type: 'error',
      error: { code: -32602, message: expect.stringMatching(/^Resource not found: bookings:\/\/rooms\/basement \(room: Invalid option/) },
    });
  });

  it('binds the state to the room it was asked for', async () => {
    const demo = await demoEngine();
    const first = question(await demo.read(uri), 'week');
    const error = refused(
      await demo.read('bookings://rooms/atlas', {
        requestState: first.requestState,
        inputResponses: { week: accept({ day: '2030-03-11' }) },
      }),
    );
    expect(error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });

  it('finds the Monday and the Sunday of a week from any of its days', () => {
    expect(weekOf('2030-03-11')).toEqual({ monday: '2030-03-11', sunday: '2030-03-17' });
    expect(weekOf('2030-03-17')).toEqual({ monday: '2030-03-11', sunday: '2030-03-17' });
    expect(weekOf('2030-01-01')).toEqual({ monday: '2029-12-31', sunday: '2030-01-06' });
  });
});
