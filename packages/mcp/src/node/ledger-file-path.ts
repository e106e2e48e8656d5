import { homedir } from 'node:os';
import { join } from 'node:path';
import { serverFileStem } from './key-file-path.ts';

/**
 * Where a server's effect ledger (a SQLite file) lives when neither ROUNDTRIP_LEDGER nor the
 * server's code names one: one file per server name in the user's state folder, beside the key
 * files' convention.
 *
 * - Linux and others: `$XDG_STATE_HOME/roundtrip/ledgers/<server>.db` (default `~/.local/state/…`)
 * - macOS: `~/Library/Application Support/Roundtrip/ledgers/<server>.db`
 * - Windows: `%LOCALAPPDATA%\Roundtrip\ledgers\<server>.db`
 */
export function defaultLedgerPath(
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const file = `${serverFileStem(serverName)}.db`;
  const home = env.HOME || homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Roundtrip', 'ledgers', file);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Roundtrip', 'ledgers', file);
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'roundtrip', 'ledgers', file);
}
