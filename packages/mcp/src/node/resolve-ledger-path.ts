import { resolve } from 'node:path';
import type { EffectLedger } from '@roundtrip/engine';
import { defaultLedgerPath } from './ledger-file-path.ts';

/** True for a ledger object, false for `{ path }` (a SqliteLedger has a path too, but it is a ledger). */
export function isEffectLedger(ledger: EffectLedger | { path: string }): ledger is EffectLedger {
  return typeof (ledger as Partial<EffectLedger>).claim === 'function';
}

/** True for a PostgreSQL URL (`postgres://…` or `postgresql://…`): the ledger is kept in that database, not in a file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** How logs name a ledger's location: a URL without its password (in the user part or a `password` parameter). */
export function shownLedgerLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    url.password = '';
    url.searchParams.delete('password');
    return url.href;
  } catch {
    return 'a PostgreSQL URL that does not parse';
  }
}

const absolute = (location: string) => (location === ':memory:' || isPostgresUrl(location) ? location : resolve(location));

/**
 * Where the effect ledger is kept: `ROUNDTRIP_LEDGER` when set, else the path the code gives, else
 * {@link defaultLedgerPath}; undefined when the code supplies a ledger object of its own and the
 * variable is not set. A `postgres://` URL names a PostgreSQL database and is kept as it is; anything
 * else is a SQLite file, relative paths taken from the working directory.
 */
export function resolveLedgerPath(
  serverName: string,
  env: NodeJS.ProcessEnv,
  fromCode: EffectLedger | { path: string } | undefined,
  warn: (message: string) => void,
): string | undefined {
  const fromEnv = env.ROUNDTRIP_LEDGER?.trim();
  if (fromEnv) {
    const path = absolute(fromEnv);
    if (fromCode && isEffectLedger(fromCode))
      warn(
        `ROUNDTRIP_LEDGER overrides the effect ledger this server's code supplies; effects are recorded in ${shownLedgerLocation(path)}.`,
      );
    return path;
  }
  if (fromCode) return isEffectLedger(fromCode) ? undefined : absolute(fromCode.path);
  return defaultLedgerPath(serverName, env);
}
