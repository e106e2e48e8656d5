// The demo's meeting rooms and their bookings, beside the orders (in the same SQLite file, or the same
// PostgreSQL database). A room holds one meeting per date and time: the table says so, so no two
// conversations can book the same slot. Every call is async, reads included.

/** The rooms that can be booked, with how many people each holds. Meetings of up to 5 take the huddle corner. */
export const ROOMS = {
  huddle: { title: 'Huddle corner', capacity: 5 },
  atlas: { title: 'Atlas', capacity: 10 },
  orion: { title: 'Orion', capacity: 20 },
  auditorium: { title: 'Auditorium', capacity: 40 },
} as const satisfies Record<string, { title: string; capacity: number }>;

export type RoomId = keyof typeof ROOMS;

/** One booked meeting. Plain JSON. */
export interface Meeting {
  id: number;
  topic: string;
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` */
  time: string;
  attendees: number;
  room: RoomId;
  /** ISO 8601 time of the booking. */
  bookedAt: string;
}

export type MeetingRequest = Pick<Meeting, 'topic' | 'date' | 'time' | 'attendees' | 'room'>;

export type BookingResult =
  | { status: 'booked'; meeting: Meeting }
  /** Another meeting holds the room at that date and time: nothing was booked. */
  | { status: 'taken'; holder: Meeting };

export interface MeetingsStore {
  /**
   * Books a meeting unless its room is taken at that date and time; the check and the write are one
   * transaction. While another connection holds the lock it needs, it waits (without blocking other
   * requests); after `busyTimeoutMs` it rejects with a DatabaseLockedError and nothing is booked.
   */
  book(request: MeetingRequest): Promise<BookingResult>;
  /** The meeting holding `room` at `date` and `time`, if any. */
  holderOf(room: RoomId, date: string, time: string): Promise<Meeting | undefined>;
  /** A room's meetings from `from` to `to` (`YYYY-MM-DD`, both included), by date and time. */
  meetingsIn(room: RoomId, from: string, to: string): Promise<Meeting[]>;
  /** Every meeting on this topic, oldest booking first; for tests and the demo's checks. */
  meetingsAbout(topic: string): Promise<Meeting[]>;
  close(): Promise<void>;
}

export interface MeetingsStoreOptions {
  /** How long a write waits for another connection's lock before failing with a DatabaseLockedError. @defaultValue 5000 */
  busyTimeoutMs?: number | undefined;
  /** Clock for booking times, for tests. @defaultValue () => new Date() */
  now?: () => Date;
}
