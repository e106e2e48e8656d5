import { userInfo } from 'node:os';
import { createKeyring, type EffectLedger, type EngineLimits, type Keyring } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';
import { defaultKeyFilePath } from './key-file-path.ts';
import { isReadableByOthers, loadOrCreateKeyFile, readKeyFile } from './load-key-file.ts';
import { type InspectSettings, resolveInspect } from './resolve-inspect.ts';
import { resolveLedgerPath } from './resolve-ledger-path.ts';
import { resolveAnswerTimeout, resolveLimits, resolveMaxRequestBytes, resolveTaskLease } from './resolve-limits.ts';
import { checkSettingNames, SERVER_VARIABLES } from './setting-names.ts';

/** What the server's code sets; the environment overrides it. */
export interface ServerSettingsFromCode {
  /** Limits of every round; each of ROUNDTRIP_STATE_TTL, ROUNDTRIP_SETTLE_TIMEOUT_MS, ROUNDTRIP_MAX_ROUNDS and ROUNDTRIP_MAX_STATE_BYTES overrides its own. */
  limits?: EngineLimits;
  /**
   * Where effects declared `once` are recorded: a ledger of the application's own (a store shared by
   * several servers), or the SQLite file to keep it in. ROUNDTRIP_LEDGER overrides either.
   * @defaultValue a SQLite file at `defaultLedgerPath(name)`
   */
  ledger?: EffectLedger | { path: string };
  /**
   * How long a 2025-era host may take to answer one question before it is withdrawn and the request
   * ends with an error saying so (on those revisions the server holds the request open while the user
   * answers). Keep it under the host's own request timeout (60 s in the official clients); raise it for
   * a host that waits longer or restarts its timeout on progress. ROUNDTRIP_ANSWER_TIMEOUT_MS overrides it.
   * @defaultValue 50000 (50 seconds)
   */
  legacyAnswerTimeoutMs?: number;
  /**
   * The size of the largest request line read from stdin, in bytes (64 KiB to 8 MiB); a longer one is
   * answered with -32600 "Request too large" and skipped. ROUNDTRIP_MAX_REQUEST_BYTES overrides it.
   * @defaultValue 4194304 (4 MiB)
   */
  maxRequestBytes?: number;
  /**
   * The application's own `ROUNDTRIP_*` environment variables, which its code reads (e.g.
   * `['ROUNDTRIP_DB']`). At start every other `ROUNDTRIP_*` variable that no setting reads is named in a
   * warning, with the setting it was probably meant for; naming the application's here keeps them out of it.
   */
  ownVariables?: readonly string[];
}

/** What a Node server (stdio, HTTP) reads from its environment (and its code) before it serves anything. */
export interface ServerSettings {
  keyring: Keyring;
  /** Where the keys came from, for the startup line (never the keys themselves). */
  keySource: string;
  principal: string;
  /** Every limit the engine runs with: from the environment, else from code, else the default. */
  limits: Required<EngineLimits>;
  /** How long a 2025-era host may take to answer one question, in milliseconds. */
  legacyAnswerTimeoutMs: number;
  /** The size of the largest request line read from stdin, in bytes. */
  maxRequestBytes: number;
  /**
   * The SQLite file to keep the effect ledger in (absolute, or `:memory:`); undefined when the code
   * supplies its own ledger and ROUNDTRIP_LEDGER is not set.
   */
  ledgerPath: string | undefined;
  /** The lease on a running task's work when the ledger is in PostgreSQL (tasks across servers). */
  taskLeaseSeconds: number;
  /** Where round reports go (ROUNDTRIP_INSPECT), and whether they carry answer values (ROUNDTRIP_INSPECT_ANSWERS). */
  inspect: InspectSettings;
  /** Warnings for the operator (e.g. a key file others can read). */
  warnings: string[];
}

/** Whether a ROUNDTRIP_KEY entry is a file's path rather than a key: `/`, `\`, `.` and `~` are never in base64url. */
const looksLikePath = (entry: string) => /[\\/]/.test(entry) || /\.[A-Za-z0-9]{1,8}$/.test(entry) || entry.startsWith('~');

/** The keys of ROUNDTRIP_KEY; a file's path given there instead is refused, pointing at ROUNDTRIP_KEY_FILE. */
function keysOfVariable(value: string): string[] {
  const keys = value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const path = keys.find(looksLikePath);
  if (path !== undefined) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_KEY',
      `ROUNDTRIP_KEY holds the key itself, but ${JSON.stringify(path)} looks like a file's path. To read the key from that file, ` +
        `set ROUNDTRIP_KEY_FILE=${path} instead and leave ROUNDTRIP_KEY unset.`,
    );
  }
  return keys;
}

function keyringFrom(keys: string[], setting: string): Keyring {
  try {
    return createKeyring(keys);
  } catch (error) {
    throw new RoundtripConfigError(setting, `${setting}: ${(error as Error).message}`);
  }
}

/**
 * Reads the settings of a Node server (stdio, HTTP) from environment variables:
 *
 * - `ROUNDTRIP_KEY`: base64url 32-byte key(s), comma-separated, the first seals; or
 * - `ROUNDTRIP_KEY_FILE`: a file with one key a line; or neither: a key file generated once at
 *   {@link defaultKeyFilePath} and reused, so a restart does not break conversations in flight.
 * - `ROUNDTRIP_PRINCIPAL`: who the states are bound to (default: the OS user name).
 * - `ROUNDTRIP_STATE_TTL`: lifetime of a state in seconds, renewed each round (default 600, at most 604800).
 * - `ROUNDTRIP_SETTLE_TIMEOUT_MS`: how long invoked work may run within one round (default 10000, at most 600000).
 * - `ROUNDTRIP_MAX_ROUNDS`: rounds one request may take (default 64, at most 1000).
 * - `ROUNDTRIP_MAX_STATE_BYTES`: largest requestState accepted (default 65536, at most 1048576).
 * - `ROUNDTRIP_ANSWER_TIMEOUT_MS`: how long a 2025-era host may take to answer one question while the
 *   server holds the request open, before the question is withdrawn (default 50000, under the official
 *   clients' 60 s request timeout; at most 86400000).
 * - `ROUNDTRIP_MAX_REQUEST_BYTES`: largest request line read from stdin; a longer one is answered with
 *   an error and skipped (default 4194304, from 65536 to 8388608).
 * - `ROUNDTRIP_INSPECT`: the address of an inspector page to report every round to (never blocks a round);
 *   `ROUNDTRIP_INSPECT_ANSWERS=shown` includes answer values (default: field names only).
 * - `ROUNDTRIP_TASK_LEASE_SECONDS`: with the ledger in PostgreSQL, how long the lease on a running task's work
 *   lasts unless renewed: a task whose server died goes to another after about this long (default 30, 10 to 3600).
 * - `ROUNDTRIP_LEDGER`: the SQLite file of the effect ledger (default: the code's ledger, else
 *   `defaultLedgerPath(name)`).
 *
 * A variable that is set overrides what the code sets (`fromCode`): the operator has the last word.
 * Any other `ROUNDTRIP_*` variable, unless the transport reads it (`transportVariables`) or the code
 * declares it (`fromCode.ownVariables`), is named in a warning with the setting it was probably meant for;
 * one meant for ROUNDTRIP_KEY or ROUNDTRIP_KEY_FILE, while neither is set, is refused (the server would run
 * on a generated key). Throws RoundtripConfigError naming the variable and the fix.
 */
export function resolveServerSettings(
  serverName: string,
  env: NodeJS.ProcessEnv = process.env,
  fromCode: ServerSettingsFromCode = {},
  transportVariables: readonly string[] = [],
): ServerSettings {
  // variables checked before anything is written (a key file generated)
  const warnings = checkSettingNames(env, [...SERVER_VARIABLES, ...transportVariables, ...(fromCode.ownVariables ?? [])]);
  const limits = resolveLimits(env, fromCode.limits);
  const legacyAnswerTimeoutMs = resolveAnswerTimeout(env, fromCode.legacyAnswerTimeoutMs);
  const maxRequestBytes = resolveMaxRequestBytes(env, fromCode.maxRequestBytes);
  let keyring: Keyring;
  let keySource: string;
  if (env.ROUNDTRIP_KEY !== undefined && env.ROUNDTRIP_KEY.trim() !== '') {
    keyring = keyringFrom(keysOfVariable(env.ROUNDTRIP_KEY), 'ROUNDTRIP_KEY');
    keySource = `ROUNDTRIP_KEY (${keyring.kids.length} key${keyring.kids.length > 1 ? 's' : ''})`;
  } else if (env.ROUNDTRIP_KEY_FILE !== undefined && env.ROUNDTRIP_KEY_FILE.trim() !== '') {
    const path = env.ROUNDTRIP_KEY_FILE.trim();
    keyring = keyringFrom(readKeyFile(path, 'ROUNDTRIP_KEY_FILE', warnings), 'ROUNDTRIP_KEY_FILE');
    keySource = `key file ${path}`;
    if (isReadableByOthers(path)) warnings.push(`The key file ${path} can be read by other users; run \`chmod 600 ${path}\`.`);
  } else {
    const path = defaultKeyFilePath(serverName, env);
    const { keys, created } = loadOrCreateKeyFile(path, warnings);
    keyring = keyringFrom(keys, 'the default key file');
    keySource = `key file ${path}${created ? ' (generated now)' : ''}`;
    if (isReadableByOthers(path)) warnings.push(`The key file ${path} can be read by other users; run \`chmod 600 ${path}\`.`);
  }

  let principal = env.ROUNDTRIP_PRINCIPAL?.trim();
  if (!principal) {
    try {
      principal = userInfo().username;
    } catch {
      throw new RoundtripConfigError(
        'ROUNDTRIP_PRINCIPAL',
        'Cannot tell which OS user runs this server; set ROUNDTRIP_PRINCIPAL to the identity its states should be bound to.',
        { code: 'missing' },
      );
    }
  }

  const ledgerPath = resolveLedgerPath(serverName, env, fromCode.ledger, (message) => warnings.push(message));
  const taskLeaseSeconds = resolveTaskLease(env);
  const inspect = resolveInspect(env);
  return { keyring, keySource, principal, limits, legacyAnswerTimeoutMs, maxRequestBytes, ledgerPath, taskLeaseSeconds, inspect, warnings };
}
