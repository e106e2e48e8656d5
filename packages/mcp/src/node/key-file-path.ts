import { homedir } from 'node:os';
import { join } from 'node:path';

/** A server name as a file name: anything but letters, digits, `_`, `.` and `-` becomes `_`. */
export function serverFileStem(serverName: string): string {
  return serverName.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * Where a server's state key lives when neither ROUNDTRIP_KEY nor ROUNDTRIP_KEY_FILE is set: one file
 * per server name in the user's configuration folder.
 *
 * - Linux and others: `$XDG_CONFIG_HOME/roundtrip/keys/<server>.key` (default `~/.config/…`)
 * - macOS: `~/Library/Application Support/Roundtrip/keys/<server>.key`
 * - Windows: `%APPDATA%\Roundtrip\keys\<server>.key`
 */
export function defaultKeyFilePath(
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const file = `${serverFileStem(serverName)}.key`;
  const home = env.HOME || homedir();
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Roundtrip', 'keys', file);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Roundtrip', 'keys', file);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'roundtrip', 'keys', file);
}
