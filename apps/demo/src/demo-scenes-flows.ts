// Scenes 10–13 of the scripted demo: the tools, prompt and resource declared as flows (@roundtrip/tools):
// book_meeting with a refused date, a branch and a review; report_incident asking two forms in one round;
// the meeting_agenda prompt; the room_bookings resource reading what scene 10 booked.
import { expectFinal, expectQuestion, expectThat } from './demo-checks.ts';
import { round, tool } from './demo-rounds.ts';
import type { DemoStage } from './demo-stage.ts';
import { printAnswer, printVerified, type RoundResult, say, scene, textOf } from './demo-transcript.ts';
import { agendaInstructions } from './meeting-agenda-prompt.ts';
import type { MeetingsStore } from './meetings-store.ts';
import { formatRoomWeek, weekOf } from './room-bookings-resource.ts';

const TOPIC = 'Roadmap review';
/** Two weeks from today (UTC): a date the tool takes whenever the demo runs. */
const DATE = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

async function expectMeetings(meetings: MeetingsStore, count: number, note = '') {
  const rows = await meetings.meetingsAbout(TOPIC);
  expectThat(rows.length === count, `expected ${count} meeting${count === 1 ? '' : 's'} about "${TOPIC}" in the database`, rows);
  printVerified(`database: ${count} meeting${count === 1 ? '' : 's'} about "${TOPIC}"${note}`);
}

/** Scene 10: a past date refused by the check, a room because 8 people come, a change at the review, the booking once. */
export async function bookMeetingThroughTheReview({ a, meetings }: DemoStage) {
  scene(10, `book_meeting "${TOPIC}": a past date, a room for 8, a change at the review`);
  const target = tool('book_meeting', { topic: TOPIC });
  const whenMessage = `When should "${TOPIC}" take place, and for how many people?`;
  const send = async (key: string, response: { action: string; content?: unknown }, state: string) => {
    printAnswer(key, response);
    return round(a.client, target, { inputResponses: { [key]: response }, requestState: state });
  };
  let state = expectQuestion(await round(a.client, target), 'when', whenMessage);
  state = expectQuestion(
    await send('when', accept({ date: '2020-01-06', time: '14:00', attendees: 8 }), state),
    'when',
    `${whenMessage}\n\nYour last answer was not accepted: 2020-01-06 is in the past. Please answer again.`,
  );
  printVerified("the step's check refused the date and the question came back with the reason");
  state = expectQuestion(
    await send('when', accept({ date: DATE, time: '14:00', attendees: 8 }), state),
    'room',
    `Which room for 8 people on ${DATE} at 14:00?`,
  );
  printVerified('more than 5 attendees: the room step is asked');
  const review = (time: string) => `Book "${TOPIC}"?\n\n- Date: ${DATE}\n- Time: ${time}\n- Attendees: 8\n- Room: Orion (up to 20)`;
  state = expectQuestion(await send('room', accept({ room: 'orion' }), state), 'confirm', review('14:00'));
  state = expectQuestion(await send('confirm', accept({ choice: 'change_when' }), state), 'when', whenMessage);
  state = expectQuestion(await send('when', accept({ date: DATE, time: '16:00', attendees: 8 }), state), 'confirm', review('16:00'));
  printVerified('the changed step was asked again; the room, answered before, was kept; the review shows 16:00');
  await expectMeetings(meetings, 0, ' (nothing is booked until the user confirms)');

  const confirm = { action: 'accept', content: { choice: 'confirm' } };
  const booked = await send('confirm', confirm, state);
  expectFinal(booked, { text: `Booked "${TOPIC}" in Orion on ${DATE} at 16:00 for 8 people (booking 1).`, status: 'booked' });
  say('✎ the client is unsure the answer arrived and sends the same confirmation again', 1);
  const again = await round(a.client, target, { inputResponses: { confirm }, requestState: state });
  const same = (r: RoundResult) =>
    textOf(r) === textOf(booked) && JSON.stringify(r.structuredContent) === JSON.stringify(booked.structuredContent);
  expectThat(same(again), 'expected the repeated confirmation to get the same result', textOf(again));
  printVerified('the same result: the effect ledger replays the recorded booking instead of booking again');
  await expectMeetings(meetings, 1);
}

/** Scene 11: report_incident with high severity asks the details and the on-call confirmation in one round. */
export async function reportHighIncident({ a, incidents }: DemoStage) {
  const summary = 'Checkout times out';
  scene(11, `report_incident "${summary}" of high severity: two forms in one round`);
  const target = tool('report_incident', { summary });
  const state = expectQuestion(await round(a.client, target), 'severity', `How severe is "${summary}"?`);
  const high = accept({ level: 'high' });
  printAnswer('severity', high);
  const both = await round(a.client, target, { inputResponses: { severity: high }, requestState: state });
  const next = expectQuestion(both, 'details', `Which services does "${summary}" affect, and what happened?`);
  expectQuestion(both, 'oncall', 'A high-severity incident: page the on-call engineer now?');
  const keys = Object.keys(both.inputRequests ?? {});
  expectThat(keys.join() === 'details,oncall', 'expected exactly the details and oncall forms in this round', keys);
  printVerified('severity high: the on-call form is asked beside the details, in the same round');
  const answers = {
    details: accept({ services: ['checkout', 'payments'], description: 'Card payments time out after 30 s since the 10:05 deploy.' }),
    oncall: accept({ page: true }),
  };
  for (const [key, response] of Object.entries(answers)) printAnswer(key, response);
  expectFinal(await round(a.client, target, { inputResponses: answers, requestState: next }), {
    text: `Recorded incident 1 (high): "${summary}" affecting Checkout, Payments; the on-call engineer was paged.`,
    status: 'recorded',
  });
  const rows = await incidents.incidentsAbout(summary);
  expectThat(rows.length === 1 && rows[0]?.paged === true, 'expected one incident, with the on-call engineer paged', rows);
  printVerified('database: 1 incident, severity high, paged');
}

/** Scene 12: the meeting_agenda prompt asks the length and style before it answers. */
export async function meetingAgendaPrompt({ a }: DemoStage) {
  scene(12, `the meeting_agenda prompt for "${TOPIC}", over prompts/get`);
  const target = { method: 'prompts/get' as const, name: 'meeting_agenda', args: { topic: TOPIC } };
  const state = expectQuestion(
    await round(a.client, target),
    'shape',
    `How long is the meeting about "${TOPIC}", and what kind of agenda should it follow?`,
  );
  const answer = accept({ minutes: 45, style: 'decision' });
  printAnswer('shape', answer);
  const result = await round(a.client, target, { inputResponses: { shape: answer }, requestState: state });
  const expected = agendaInstructions(TOPIC, 45, 'decision', undefined);
  const message = result.messages?.[0];
  expectThat(
    result.messages?.length === 1 && message?.role === 'user' && message.content.text === expected,
    `expected one user message: "${expected}"`,
    result.messages,
  );
  printVerified('the instructions a host hands to the model, with the length and style the user chose');
}

/** Scene 13: the room_bookings resource asks which week, then lists the booking of scene 10. */
export async function roomBookingsResource({ a, meetings }: DemoStage) {
  scene(13, 'the bookings of Orion, over resources/read of bookings://rooms/orion');
  const target = { method: 'resources/read' as const, name: 'bookings://rooms/orion' };
  const state = expectQuestion(await round(a.client, target), 'week', 'Which week of the bookings of room orion? Give any day of it.');
  const answer = accept({ day: DATE });
  printAnswer('week', answer);
  const result = await round(a.client, target, { inputResponses: { week: answer }, requestState: state });
  const week = weekOf(DATE);
  const expected = formatRoomWeek('orion', week, await meetings.meetingsIn('orion', week.monday, week.sunday));
  const content = result.contents?.[0];
  expectThat(
    result.contents?.length === 1 && content?.mimeType === 'text/plain' && content.text === expected,
    `expected the bookings text:\n${expected}`,
    result.contents,
  );
  expectThat(expected.includes(`"${TOPIC}", 8 people (booking 1)`), `expected the week to hold the booking of scene 10`, expected);
  printVerified('the booking made in scene 10, read back from the meetings table');
}
