// The PostgreSQL ledger's owner lock: a session-level advisory lock under a random key, held on one
// connection of its own for as long as the ledger is open. Each claim names the key; the lock ends with
// the session that holds it, so any server reads at once, in pg_locks, whether a claim's owner still has
// its connection: a process that died (killed, crashed) or lost its database drops it, on any host.
//
// One connection per ledger, not one per running effect: a burst of effects pins nothing of the pool.
// A lost lock connection is made again, with a new key, when the next claim finds it gone; claims made
// meanwhile name no key and rely on their lease alone. A claim names its key only if the lock is held
// when it is inserted (see CLAIM_LOCK), so a lock dropped unnoticed (behind a proxy, say) makes no claim
// read as abandoned at once.
import { randomBytes } from 'node:crypto';
import { Client, type ClientConfig } from 'pg';

/** SQL: whether the advisory lock under the bigint `key` (an expression) is held by a session on this database. */
export const lockHeld = (key: string) => `EXISTS (
  SELECT 1 FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = ((${key}) >> 32)::oid AND l.objid = ((${key}) & 4294967295)::oid)`;

/** SQL: the key a claim records from parameter `$n`, or NULL when no session holds that lock now. */
export const claimLock = (param: string) => `CASE WHEN ${lockHeld(`${param}::bigint`)} THEN ${param}::bigint END`;

export interface OwnerLock {
  /** The key of the lock held now, for a claim to name; undefined while none is (a new connection is then being made). */
  key(): string | undefined;
  /** Says that a claim found the lock under `key` not held: its connection is gone, and a new one is made. */
  lost(key: string): void;
  /** Ends the lock's connection (the lock with it). */
  close(): Promise<void>;
}

/** A random positive bigint key (62 bits), as text. */
function randomKey(): string {
  const key = randomBytes(8).readBigUInt64BE() & ((1n << 62n) - 1n);
  return String(key === 0n ? 1n : key);
}

/** How long after a failed attempt the next claim tries again to take the lock. */
const RETRY_AFTER_MS = 10_000;

/**
 * Opens the lock's connection and takes the lock. `warn` hears of a lost connection and a failed attempt
 * to take the lock again; `describe` turns an error into ` (code: message). What to do.`
 *
 * @throws the driver's error when the first connection or lock fails.
 */
export async function takeOwnerLock(
  config: ClientConfig,
  shown: string,
  warn: (message: string) => void,
  describe: (error: unknown) => string,
): Promise<OwnerLock> {
  let held: { client: Client; key: string } | undefined;
  let taking: Promise<void> | undefined;
  let lastTried = Number.NEGATIVE_INFINITY;
  let closed = false;

  const drop = (client: Client, why: string) => {
    if (held?.client !== client) return;
    held = undefined;
    client.end().catch(() => undefined);
    if (!closed)
      warn(
        `The effect ledger at ${shown} lost the connection that holds its owner lock (${why}): effects this server runs now read as abandoned (outcome unknown) on every server until they finish. Its next claim takes a new lock.`,
      );
  };

  const connect = async (): Promise<void> => {
    const client = new Client({ ...config, application_name: 'roundtrip-ledger-owner' });
    client.on('error', (error) => drop(client, error.message));
    client.on('end', () => drop(client, 'the server closed it'));
    try {
      await client.connect();
      // an idle session that a server ends (idle_session_timeout, PostgreSQL 14+) would drop the lock
      await client.query('SET idle_session_timeout = 0').catch(() => undefined);
      // a key another session holds (one in 2^62) is drawn again
      for (let draw = 0; held?.client !== client; draw++) {
        if (draw === 3) throw new Error('every key drawn for the owner lock was held by another session');
        const key = randomKey();
        const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS got', [key]);
        if (closed) throw new Error('the ledger was closed');
        if (rows[0]?.got) held = { client, key };
      }
      // the connection waits for nothing of its own: it must not keep the process alive (as the pool's idle ones do not)
      (client as unknown as { unref?: () => void }).unref?.();
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
  };

  await connect();
  return {
    key() {
      if (held || closed) return held?.key;
      if (!taking && Date.now() - lastTried >= RETRY_AFTER_MS) {
        lastTried = Date.now();
        taking = connect()
          .catch((error: unknown) =>
            warn(
              `The effect ledger at ${shown} could not take its owner lock again ${describe(error)} Until it can, a claim of a server that dies is found only when its lease passes.`,
            ),
          )
          .finally(() => {
            taking = undefined;
          });
      }
      return undefined;
    },
    lost(key) {
      if (held?.key === key) drop(held.client, 'its lock was no longer held');
    },
    async close() {
      closed = true;
      await taking;
      const client = held?.client;
      held = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
