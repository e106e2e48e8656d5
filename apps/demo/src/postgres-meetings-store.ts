// The demo's meetings in PostgreSQL. The table holds one meeting per room, date and time; a booking
// inserts only if the slot is free (ON CONFLICT DO NOTHING), so two servers can never book one slot twice.
import type { Meeting, MeetingRequest, MeetingsStore, MeetingsStoreOptions, RoomId } from './meetings-store.ts';
import type { PostgresDatabase } from './postgres-database.ts';

interface MeetingRow {
  id: number;
  topic: string;
  date: string;
  time: string;
  attendees: number;
  room: RoomId;
  booked_at: string;
}

const toMeeting = ({ booked_at, ...row }: MeetingRow): Meeting => ({ ...row, bookedAt: booked_at });
const COLUMNS = 'id, topic, date, time, attendees, room, booked_at';

/**
 * The meetings store in the demo's PostgreSQL database (opened and migrated by openPostgresDatabase).
 *
 * @example
 * const meetings = openPostgresMeetingsStore(await openPostgresDatabase(url));
 * await meetings.book({ topic: 'Roadmap', date: '2026-12-10', time: '14:00', attendees: 8, room: 'atlas' }); // { status: 'booked', … }
 */
export function openPostgresMeetingsStore(database: PostgresDatabase, options: MeetingsStoreOptions = {}): MeetingsStore {
  const now = options.now ?? (() => new Date());
  const db = database.forStore('meetings database');
  const holderOf = async (room: RoomId, date: string, time: string, doing = `read who holds ${room} on ${date} at ${time}`) => {
    const [row] = await db.query<MeetingRow>(doing, `SELECT ${COLUMNS} FROM meetings WHERE room = $1 AND date = $2 AND time = $3`, [
      room,
      date,
      time,
    ]);
    return row ? toMeeting(row) : undefined;
  };
  const rows = async (doing: string, where: string, values: unknown[]) =>
    (await db.query<MeetingRow>(doing, `SELECT ${COLUMNS} FROM meetings WHERE ${where}`, values)).map(toMeeting);

  return {
    book: async (request: MeetingRequest) => {
      const doing = `book ${request.room} on ${request.date} at ${request.time}`;
      // a taken slot is found before the insert, so that it does not use up an id
      const before = await holderOf(request.room, request.date, request.time, doing);
      if (before) return { status: 'taken', holder: before };
      const [row] = await db.query<MeetingRow>(
        doing,
        `INSERT INTO meetings (topic, date, time, attendees, room, booked_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (room, date, time) DO NOTHING RETURNING ${COLUMNS}`,
        [request.topic, request.date, request.time, request.attendees, request.room, now().toISOString()],
      );
      if (row) return { status: 'booked', meeting: toMeeting(row) };
      // another server booked the slot between the read and the insert
      const holder = await holderOf(request.room, request.date, request.time, doing);
      if (!holder)
        throw new Error(`The meetings database at ${database.shown} could not ${doing}: the slot was taken, then freed again. Call again.`);
      return { status: 'taken', holder };
    },
    holderOf: (room, date, time) => holderOf(room, date, time),
    meetingsIn: (room, from, to) =>
      rows(`read the meetings of ${room} from ${from} to ${to}`, 'room = $1 AND date BETWEEN $2 AND $3 ORDER BY date, time', [
        room,
        from,
        to,
      ]),
    meetingsAbout: (topic) => rows('read the meetings on a topic', 'topic = $1 ORDER BY id', [topic]),
    close: () => db.close(),
  };
}
