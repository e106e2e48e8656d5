// Where the demo keeps its orders database.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `apps/demo/.data/orders.db`, found from this file's location so it does not depend on the working directory. */
const DEFAULT_DB_PATH = fileURLToPath(new URL('../.data/orders.db', import.meta.url));

/**
 * The orders database path: `ROUNDTRIP_DB` when set (a relative value is taken from the working directory,
 * as with any path typed in a shell), else {@link DEFAULT_DB_PATH}.
 */
export function dbPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ROUNDTRIP_DB?.trim();
  return fromEnv ? resolve(fromEnv) : DEFAULT_DB_PATH;
}
