// How long the demo's writes wait for another connection's lock on its database file.

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const MAX_BUSY_TIMEOUT_MS = 600_000;

/**
 * `ROUNDTRIP_DB_BUSY_TIMEOUT_MS` (whole milliseconds, 0 to 600000), else 5000: how long a write (a
 * refund, a booking, an incident) waits for another connection's lock on the database file before it
 * fails saying the file is locked. The wait never blocks other requests.
 * Throws an Error naming the variable and what it takes when the value is not such a number.
 */
export function dbBusyTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ROUNDTRIP_DB_BUSY_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_BUSY_TIMEOUT_MS;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_BUSY_TIMEOUT_MS) {
    throw new Error(
      `ROUNDTRIP_DB_BUSY_TIMEOUT_MS is ${JSON.stringify(raw)}; set it to how long a write waits for another connection's lock on the database file, ` +
        `in whole milliseconds from 0 to ${MAX_BUSY_TIMEOUT_MS} (default ${DEFAULT_BUSY_TIMEOUT_MS}), or unset it.`,
    );
  }
  return Number(raw);
}
