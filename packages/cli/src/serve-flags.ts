// The flags of `roundtrip serve`: the server's name and version, and one flag per ROUNDTRIP_* setting of a
// stdio server, which wins over the variable. Read here for serve and config, and for call and chat,
// which pass them on to the `roundtrip serve` they start. Nothing here loads the server.
import { isAbsolute, resolve } from 'node:path';

/** One setting given by a flag: the flag, the environment variable it stands for, and its value. */
export interface FlagSetting {
  readonly flag: string;
  readonly variable: string;
  readonly value: string;
}

interface FlagSpec {
  readonly variable: string;
  /** What the value is, for "--x needs …". */
  readonly what: string;
  /** A path, made absolute from the working folder. */
  readonly path?: boolean;
}

const SETTING_FLAGS: { readonly [flag: string]: FlagSpec } = {
  '--key-file': { variable: 'ROUNDTRIP_KEY_FILE', what: 'the path of a key file', path: true },
  '--principal': { variable: 'ROUNDTRIP_PRINCIPAL', what: 'the identity states are bound to' },
  '--ttl': { variable: 'ROUNDTRIP_STATE_TTL', what: 'the state lifetime in seconds' },
  '--max-rounds': { variable: 'ROUNDTRIP_MAX_ROUNDS', what: 'the number of rounds one request may take' },
  '--max-state-bytes': { variable: 'ROUNDTRIP_MAX_STATE_BYTES', what: 'the size of the largest requestState, in bytes' },
  '--settle-timeout-ms': { variable: 'ROUNDTRIP_SETTLE_TIMEOUT_MS', what: 'the time invoked work may take in one round, in milliseconds' },
  '--answer-timeout-ms': {
    variable: 'ROUNDTRIP_ANSWER_TIMEOUT_MS',
    what: 'the time a 2025-era host may take to answer one question, in milliseconds',
  },
  '--max-request-bytes': {
    variable: 'ROUNDTRIP_MAX_REQUEST_BYTES',
    what: 'the size of the largest request (a line read from stdin, an HTTP body), in bytes',
  },
  '--ledger': {
    variable: 'ROUNDTRIP_LEDGER',
    what: 'the SQLite file of the effect ledger (or :memory:, or a postgres:// URL)',
    path: true,
  },
  '--inspect': { variable: 'ROUNDTRIP_INSPECT', what: 'the address of an inspector page, or stately' },
};

/** Every flag of serve, for "did you mean". */
export const SERVE_FLAGS: readonly string[] = ['--name', '--version', ...Object.keys(SETTING_FLAGS)];

/** The flags' help lines, shared by serve's and config's usage. */
export const SERVE_FLAGS_HELP = `  --name <name>              the server's name (default: serverInfo.name, else the package's name, else the file's)
  --version <version>        the server's version (default: serverInfo.version, else 0.0.0)
  --key-file <file>          the key file (ROUNDTRIP_KEY_FILE; default: a generated per-server file)
  --principal <id>           whom states are bound to (ROUNDTRIP_PRINCIPAL; default: the OS user)
  --ttl <seconds>            state lifetime, renewed each round (ROUNDTRIP_STATE_TTL; default 600)
  --max-rounds <n>           rounds one request may take (ROUNDTRIP_MAX_ROUNDS; default 64)
  --max-state-bytes <n>      largest requestState accepted (ROUNDTRIP_MAX_STATE_BYTES; default 65536)
  --settle-timeout-ms <ms>   time invoked work may take in a round (ROUNDTRIP_SETTLE_TIMEOUT_MS; default 10000)
  --answer-timeout-ms <ms>   time a 2025-era host may take to answer a question (ROUNDTRIP_ANSWER_TIMEOUT_MS; default 50000)
  --max-request-bytes <n>    largest request: stdin line or HTTP body (ROUNDTRIP_MAX_REQUEST_BYTES; default 4194304)
  --ledger <file|url>        SQLite file of the effect ledger, or a postgres:// URL (ROUNDTRIP_LEDGER; :memory: keeps none)
  --inspect <address>        report rounds to an inspector page, or 'stately' (ROUNDTRIP_INSPECT)`;

function checkInspect(value: string): string | undefined {
  if (value === 'stately') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {}
  return `--inspect is '${value}'; give the address of an inspector page, such as http://127.0.0.1:4343, or stately.`;
}

/** A serve flag read: its value (a path made absolute), and where the next argument is. */
export type ServeFlag =
  | { ok: true; flag: '--name' | '--version'; value: string; next: number }
  | { ok: true; flag: string; value: string; next: number; setting: FlagSetting }
  | { ok: false; problem: string };

/** The option `arg` names: `--flag` of `--flag=value` too. */
export const flagOf = (arg: string) => (arg.indexOf('=') > 0 ? arg.slice(0, arg.indexOf('=')) : arg);

/**
 * Reads the serve flag at `args[i]` (`--flag value` or `--flag=value`); undefined when it is no flag of
 * serve. The problem as text when its value is missing or wrong.
 */
export function readServeFlag(args: readonly string[], i: number, cwd: string): ServeFlag | undefined {
  const arg = args[i]!;
  const equals = arg.indexOf('=');
  const flag = flagOf(arg);
  const spec = SETTING_FLAGS[flag];
  if (!spec && flag !== '--name' && flag !== '--version') return undefined;
  const value = equals > 0 ? arg.slice(equals + 1) : args[i + 1];
  const next = equals > 0 ? i + 1 : i + 2;
  if (value === undefined || value.trim() === '' || (equals < 0 && value.startsWith('--'))) {
    return { ok: false, problem: `${flag} needs ${spec ? spec.what : `the server's ${flag.slice(2)}`}.` };
  }
  if (!spec) return { ok: true, flag: flag as '--name' | '--version', value, next };
  if (flag === '--inspect') {
    const problem = checkInspect(value);
    if (problem) return { ok: false, problem };
  }
  // :memory: and a PostgreSQL URL (the ledger's) are no paths
  const notPath = value === ':memory:' || /^postgres(ql)?:\/\//i.test(value);
  const absolute = spec.path && !notPath && !isAbsolute(value) ? resolve(cwd, value) : value;
  return { ok: true, flag, value: absolute, next, setting: { flag, variable: spec.variable, value: absolute } };
}
