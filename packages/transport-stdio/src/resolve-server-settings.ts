import { userInfo } from 'node:os';
import { createKeyring, type Keyring } from '@roundtrip/engine';
import { RoundtripConfigError } from './config-error.ts';
import { defaultKeyFilePath } from './key-file-path.ts';
import { isReadableByOthers, loadOrCreateKeyFile, readKeyFile } from './load-key-file.ts';

/** What a stdio server reads from its environment before it serves anything. */
export interface ServerSettings {
  keyring: Keyring;
  /** Where the keys came from, for the startup line (never the keys themselves). */
  keySource: string;
  principal: string;
  stateTtlSeconds: number;
  /** Warnings for the operator (e.g. a key file others can read). */
  warnings: string[];
}

function keyringFrom(keys: string[], setting: string): Keyring {
  try {
    return createKeyring(keys);
  } catch (error) {
    throw new RoundtripConfigError(setting, `${setting}: ${(error as Error).message}`);
  }
}

/**
 * Reads the settings of a stdio server from environment variables:
 *
 * - `ROUNDTRIP_KEY`: base64url 32-byte key(s), comma-separated, the first seals; or
 * - `ROUNDTRIP_KEY_FILE`: a file with one key a line; or neither: a key file generated once at
 *   {@link defaultKeyFilePath} and reused, so a restart does not break conversations in flight.
 * - `ROUNDTRIP_PRINCIPAL`: who the states are bound to (default: the OS user name).
 * - `ROUNDTRIP_STATE_TTL`: lifetime of a state in seconds, renewed each round (default 600).
 *
 * Throws RoundtripConfigError naming the variable and the fix.
 */
export function resolveServerSettings(serverName: string, env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const warnings: string[] = [];
  let keyring: Keyring;
  let keySource: string;
  if (env.ROUNDTRIP_KEY !== undefined && env.ROUNDTRIP_KEY.trim() !== '') {
    keyring = keyringFrom(env.ROUNDTRIP_KEY.split(',').map((k) => k.trim()).filter(Boolean), 'ROUNDTRIP_KEY');
    keySource = `ROUNDTRIP_KEY (${keyring.kids.length} key${keyring.kids.length > 1 ? 's' : ''})`;
  } else if (env.ROUNDTRIP_KEY_FILE !== undefined && env.ROUNDTRIP_KEY_FILE.trim() !== '') {
    const path = env.ROUNDTRIP_KEY_FILE.trim();
    keyring = keyringFrom(readKeyFile(path, 'ROUNDTRIP_KEY_FILE'), 'ROUNDTRIP_KEY_FILE');
    keySource = `key file ${path}`;
    if (isReadableByOthers(path)) warnings.push(`The key file ${path} can be read by other users; run \`chmod 600 ${path}\`.`);
  } else {
    const path = defaultKeyFilePath(serverName, env);
    const { keys, created } = loadOrCreateKeyFile(path);
    keyring = keyringFrom(keys, 'the default key file');
    keySource = `key file ${path}${created ? ' (generated now)' : ''}`;
    if (isReadableByOthers(path)) warnings.push(`The key file ${path} can be read by other users; run \`chmod 600 ${path}\`.`);
  }

  let principal = env.ROUNDTRIP_PRINCIPAL?.trim();
  if (!principal) {
    try {
      principal = userInfo().username;
    } catch {
      throw new RoundtripConfigError('ROUNDTRIP_PRINCIPAL', 'Cannot tell which OS user runs this server; set ROUNDTRIP_PRINCIPAL to the identity its states should be bound to.');
    }
  }

  let stateTtlSeconds = 600;
  const ttlText = env.ROUNDTRIP_STATE_TTL?.trim();
  if (ttlText) {
    if (!/^\d+$/.test(ttlText) || Number(ttlText) < 1 || Number(ttlText) > 86_400) {
      throw new RoundtripConfigError('ROUNDTRIP_STATE_TTL', `ROUNDTRIP_STATE_TTL is ${JSON.stringify(ttlText)}; give the state lifetime in whole seconds from 1 to 86400 (default 600).`);
    }
    stateTtlSeconds = Number(ttlText);
  }
  return { keyring, keySource, principal, stateTtlSeconds, warnings };
}
