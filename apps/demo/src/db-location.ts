// Where the demo keeps its database: a SQLite file, or a PostgreSQL database named by URL.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactUrl } from './postgres-errors.ts';

/** `apps/demo/.data/orders.db`, found from this file's location so it does not depend on the working directory. */
const DEFAULT_DB_PATH = fileURLToPath(new URL('../.data/orders.db', import.meta.url));

/** True for a PostgreSQL URL (`postgres://…` or `postgresql://…`): the demo's tables are kept in that database, not in a file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The demo's database: `ROUNDTRIP_DB` when set, a `postgres://` URL as it is and a path resolved from the
 * working directory (as with any path typed in a shell), else {@link DEFAULT_DB_PATH}.
 */
export function dbLocation(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ROUNDTRIP_DB?.trim();
  if (!fromEnv) return DEFAULT_DB_PATH;
  return isPostgresUrl(fromEnv) ? fromEnv : resolve(fromEnv);
}

/** How the demo names its database in logs and errors: a path as it is, a URL without its password. */
export function shownDbLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    return redactUrl(new URL(location));
  } catch {
    return 'a PostgreSQL URL that does not parse';
  }
}

/**
 * Whether the effect ledger is kept in the demo's own database (`location`): it is unless ROUNDTRIP_LEDGER
 * names another place (another file, another URL, or `:memory:`). Then refund_order's refund commits
 * with its ledger record in one transaction (the final action runs in the ledger's transaction).
 */
export function ledgerInDatabase(location: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const ledger = env.ROUNDTRIP_LEDGER?.trim();
  if (!ledger) return true;
  return isPostgresUrl(ledger) ? ledger === location : ledger !== ':memory:' && resolve(ledger) === location;
}
