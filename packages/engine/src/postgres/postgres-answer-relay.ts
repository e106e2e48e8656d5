// The answer relay between instances sharing one PostgreSQL database (see answer-relay.ts): each instance
// LISTENs on one channel on a connection of its own; an answer that reaches an instance other than the one
// holding the call is NOTIFYed to its holder (the key its id starts with), which hands it to the call and
// acknowledges; no acknowledgement in time means no call waits for it any more (it ended, or its instance is
// gone). No table, no new service: the instances already share the database.
import pg from 'pg';
import { type AnswerRelay, createLocalAnswerRelay, holderOf, newRelayKey, type RelayedAnswer } from '../answer-relay.ts';
import { redactUrl } from './ledger-errors.ts';
import { parsePostgresUrl } from './postgres-url.ts';

export interface PostgresAnswerRelayOptions {
  /** The database the instances share: `postgres://user:password@host:5432/database`. */
  url: string;
  /** How long an answer waits for its holder's acknowledgement before it is taken as gone. @defaultValue 3000 */
  ackTimeoutMs?: number;
  /** Where the relay reports a lost connection (it connects again). @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/** The channel every instance listens on. */
const CHANNEL = 'roundtrip_answers';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;

type Note =
  | { kind: 'answer'; to: string; from: string; id: string; answer: RelayedAnswer }
  | { kind: 'ack'; to: string; id: string; delivered: boolean };

/**
 * Opens the relay: a connection LISTENing on `roundtrip_answers`. An answer of 7900 bytes or more cannot be
 * relayed (PostgreSQL's NOTIFY limit) and is refused with an error saying so.
 *
 * @throws Error naming the server (never its password) when it cannot connect.
 */
export async function createPostgresAnswerRelay(options: PostgresAnswerRelayOptions): Promise<AnswerRelay> {
  const url = parsePostgresUrl(options.url, 'createPostgresAnswerRelay');
  const shown = redactUrl(url);
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message));
  const key = newRelayKey();
  const local = createLocalAnswerRelay(key);
  const acks = new Map<string, (delivered: boolean) => void>();
  let closed = false;
  let client: pg.Client | undefined;

  const send = async (note: Note) => {
    const payload = JSON.stringify(note);
    if (Buffer.byteLength(payload) >= MAX_PAYLOAD)
      throw new Error(`An answer of ${Buffer.byteLength(payload)} bytes cannot be relayed to another instance (at most ${MAX_PAYLOAD}).`);
    if (!client) throw new Error(`The answer relay has no connection to ${shown} right now; try again.`);
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  };

  const heard = (payload: string | undefined) => {
    let note: Note;
    try {
      note = JSON.parse(payload ?? '') as Note;
    } catch {
      return;
    }
    if (note.to !== key) return;
    if (note.kind === 'ack') {
      acks.get(note.id)?.(note.delivered);
      return;
    }
    void local
      .deliver(note.id, note.answer)
      .then((outcome) =>
        send({ kind: 'ack', to: note.from, id: note.id, delivered: outcome === 'delivered' }).catch((error: unknown) =>
          warn(`roundtrip: could not acknowledge an answer relayed through ${shown}: ${(error as Error).message}`),
        ),
      );
  };

  const connect = async (): Promise<void> => {
    const made = new pg.Client({ connectionString: options.url, application_name: 'roundtrip-answers' });
    made.on('notification', (message) => heard(message.payload));
    made.on('error', (error) => {
      if (closed) return;
      warn(`roundtrip: the answer relay lost its connection to ${shown} (${error.message}); connecting again.`);
      client = undefined;
      void made.end().catch(() => {});
      const retry = () => {
        if (!closed) connect().catch(() => setTimeout(retry, 1000).unref());
      };
      setTimeout(retry, 1000).unref();
    });
    await made.connect();
    await made.query(`LISTEN ${CHANNEL}`);
    client = made;
  };
  try {
    await connect();
  } catch (error) {
    throw new Error(`Could not open the answer relay on the PostgreSQL database at ${shown}: ${(error as Error).message}.`);
  }

  return {
    key,
    hold: local.hold,
    release: local.release,
    async deliver(id, answer) {
      const holder = holderOf(id);
      if (holder === key || holder === undefined) return local.deliver(id, answer);
      const acknowledged = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ackTimeoutMs);
        timer.unref();
        acks.set(id, (delivered) => {
          clearTimeout(timer);
          resolve(delivered);
        });
      });
      try {
        await send({ kind: 'answer', to: holder, from: key, id, answer });
        return (await acknowledged) ? 'delivered' : 'gone';
      } finally {
        acks.delete(id);
      }
    },
    async close() {
      closed = true;
      await local.close();
      await client?.end().catch(() => {});
    },
  };
}
