import { resolve } from 'node:path';
import type { EffectLedger } from '@roundtrip/engine';
import { defaultLedgerPath } from './ledger-file-path.ts';

/** True for a ledger object, false for `{ path }` (a SqliteLedger has a path too, but it is a ledger). */
export function isEffectLedger(ledger: EffectLedger | { path: string }): ledger is EffectLedger {
  return typeof (ledger as Partial<EffectLedger>).claim === 'function';
}

const absolute = (path: string) => (path === ':memory:' ? path : resolve(path));

/**
 * The SQLite file the effect ledger is kept in: `ROUNDTRIP_LEDGER` when set, else the path the code
 * gives, else {@link defaultLedgerPath}; undefined when the code supplies a ledger object of its own
 * and the variable is not set. Relative paths are taken from the working directory.
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
      warn(`ROUNDTRIP_LEDGER overrides the effect ledger this server's code supplies; effects are recorded in ${path}.`);
    return path;
  }
  if (fromCode) return isEffectLedger(fromCode) ? undefined : absolute(fromCode.path);
  return defaultLedgerPath(serverName, env);
}
