// The `bookings://rooms/{room}` resource, declared as a flow: asks which week, then lists the room's
// bookings of that week from the meetings table, as plain text.
import { type ResourceDefinition, safeText } from '@roundtrip/engine';
import { ask, defineFlowResource, field } from '@roundtrip/tools';
import { z } from 'zod';
import { type Meeting, type MeetingsStore, ROOMS, type RoomId } from './meetings-store.ts';

const DAY_MS = 86_400_000;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The Monday and Sunday (`YYYY-MM-DD`) of the week holding `date`. */
export function weekOf(date: string): { monday: string; sunday: string } {
  const day = new Date(`${date}T00:00:00Z`);
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return { monday: iso(monday), sunday: iso(new Date(monday.getTime() + 6 * DAY_MS)) };
}

/** A room's bookings of one week as text, one line a meeting. */
export function formatRoomWeek(room: RoomId, week: { monday: string; sunday: string }, meetings: readonly Meeting[]): string {
  const { title, capacity } = ROOMS[room];
  const lines = [`Bookings of ${title} (up to ${capacity} people), week of ${week.monday} to ${week.sunday}`, ''];
  for (const m of meetings) {
    const day = DAYS[new Date(`${m.date}T00:00:00Z`).getUTCDay()];
    // a topic is a client's words: one line of safe text
    lines.push(`  ${day} ${m.date}  ${m.time}  "${safeText(m.topic)}", ${m.attendees} people (booking ${m.id})`);
  }
  if (meetings.length === 0) lines.push('No bookings this week.');
  else lines.push('', `${meetings.length} booking${meetings.length === 1 ? '' : 's'}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Builds the `room_bookings` resource over the meetings store.
 *
 * @example
 * const resource = createRoomBookingsResource((await openDemoStores(dbLocation())).meetings);
 * // resources/read bookings://rooms/orion → asks the week → the bookings text
 */
export function createRoomBookingsResource(store: Pick<MeetingsStore, 'meetingsIn'>): ResourceDefinition {
  return defineFlowResource({
    uri: 'bookings://rooms/{room}',
    name: 'room_bookings',
    title: 'Room bookings',
    description: `A meeting room's bookings of one week, as plain text; asks which week. Rooms: ${Object.keys(ROOMS).join(', ')}.`,
    mimeType: 'text/plain',
    // an unknown room is not found before anything is asked
    variables: z.object({ room: z.enum(Object.keys(ROOMS) as [RoomId, ...RoomId[]]) }),
    steps: {
      week: ask({
        message: 'Which week of the bookings of room {{input.room}}? Give any day of it.',
        fields: { day: field.text({ title: 'A day of the week', description: 'YYYY-MM-DD', format: 'date' }) },
      }),
    },
    final: async ({ input, answers }) => {
      const week = weekOf(answers.week!.day);
      return formatRoomWeek(input.room, week, await store.meetingsIn(input.room, week.monday, week.sunday));
    },
    ended: () => 'No bookings listed: no week was chosen.\n',
  });
}
