// The options of `roundtrip serve` (which `roundtrip config` writes into a host's entry): the server's
// name and version, and one flag per ROUNDTRIP_* setting of a stdio server, which wins over the variable.
import { isAbsolute, resolve } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { RoundtripConfigError, resolveServerSettings } from '@roundtrip/transport-stdio';

/** One setting given by a flag: the flag, the environment variable it stands for, and its value. */
export interface FlagSetting {
  readonly flag: string;
  readonly variable: string;
  readonly value: string;
}

export interface ServeOptions {
  readonly module: string;
  readonly name?: string;
  readonly version?: string;
  /** In the order given; a flag given twice keeps its last value. */
  readonly settings: readonly FlagSetting[];
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
    what: 'the size of the largest request line read from stdin, in bytes',
  },
  '--ledger': { variable: 'ROUNDTRIP_LEDGER', what: 'the SQLite file of the effect ledger (or :memory:)', path: true },
  '--inspect': { variable: 'ROUNDTRIP_INSPECT', what: 'the address of an inspector page, or stately' },
};

/** The flags' help lines, shared by serve's and config's usage. */
export const SERVE_FLAGS_HELP = `  --name <name>              the server's name (default: the module's serverInfo.name, else its file name)
  --version <version>        the server's version (default: serverInfo.version, else 0.0.0)
  --key-file <file>          the key file (ROUNDTRIP_KEY_FILE; default: a generated per-server file)
  --principal <id>           whom states are bound to (ROUNDTRIP_PRINCIPAL; default: the OS user)
  --ttl <seconds>            state lifetime, renewed each round (ROUNDTRIP_STATE_TTL; default 600)
  --max-rounds <n>           rounds one request may take (ROUNDTRIP_MAX_ROUNDS; default 64)
  --max-state-bytes <n>      largest requestState accepted (ROUNDTRIP_MAX_STATE_BYTES; default 65536)
  --settle-timeout-ms <ms>   time invoked work may take in a round (ROUNDTRIP_SETTLE_TIMEOUT_MS; default 10000)
  --answer-timeout-ms <ms>   time a 2025-era host may take to answer a question (ROUNDTRIP_ANSWER_TIMEOUT_MS; default 600000)
  --max-request-bytes <n>    largest request line read from stdin (ROUNDTRIP_MAX_REQUEST_BYTES; default 4194304)
  --ledger <file>            SQLite file of the effect ledger (ROUNDTRIP_LEDGER; :memory: keeps none)
  --inspect <address>        report rounds to an inspector page, or 'stately' (ROUNDTRIP_INSPECT)`;

function checkInspect(value: string): string | undefined {
  if (value === 'stately') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {}
  return `--inspect is '${value}'; give the address of an inspector page, such as http://127.0.0.1:4343, or stately.`;
}

/**
 * Reads serve's arguments: one module and any flags (`--flag value` or `--flag=value`). Returns the
 * problem as text for a usage error.
 */
export function parseServeOptions(args: readonly string[], cwd: string): ServeOptions | string {
  const positional: string[] = [];
  const settings = new Map<string, FlagSetting>();
  let name: string | undefined;
  let version: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    const spec = SETTING_FLAGS[flag];
    if (!spec && flag !== '--name' && flag !== '--version') return `unknown option ${flag}.`;
    const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
    if (value === undefined || value.trim() === '' || (equals < 0 && value.startsWith('--'))) {
      return `${flag} needs ${spec ? spec.what : `the server's ${flag.slice(2)}`}.`;
    }
    if (flag === '--name') name = value;
    else if (flag === '--version') version = value;
    else if (spec) {
      if (flag === '--inspect') {
        const problem = checkInspect(value);
        if (problem) return problem;
      }
      const absolute = spec.path && value !== ':memory:' && !isAbsolute(value) ? resolve(cwd, value) : value;
      settings.delete(flag);
      settings.set(flag, { flag, variable: spec.variable, value: absolute });
    }
  }
  if (positional.length !== 1)
    return positional.length === 0 ? 'give the module to serve.' : `give exactly one module (got ${positional.join(', ')}).`;
  return {
    module: positional[0]!,
    ...(name !== undefined && { name }),
    ...(version !== undefined && { version }),
    settings: [...settings.values()],
  };
}

/** The environment a server runs with: `env` with each flag's variable set (a key file given by flag also wins over ROUNDTRIP_KEY). */
export function environmentWith(env: NodeJS.ProcessEnv, settings: readonly FlagSetting[]): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env };
  for (const { flag, variable, value } of settings) {
    if (flag === '--key-file') delete result.ROUNDTRIP_KEY;
    result[variable] = value;
  }
  return result;
}

/** The settings whose value alone can be wrong (a number out of range): checked before anything starts. */
const VALUE_CHECKED = new Set([
  'ROUNDTRIP_STATE_TTL',
  'ROUNDTRIP_MAX_ROUNDS',
  'ROUNDTRIP_MAX_STATE_BYTES',
  'ROUNDTRIP_SETTLE_TIMEOUT_MS',
  'ROUNDTRIP_ANSWER_TIMEOUT_MS',
  'ROUNDTRIP_MAX_REQUEST_BYTES',
]);

/**
 * Why a server would refuse a value given by flag (a limit out of range), said with the flag's name;
 * undefined when every value fits. Checked as the server checks them, touching no file: `roundtrip
 * config` must not write an entry whose server cannot start, and `serve` says it as a usage error.
 */
export function checkSettingValues(settings: readonly FlagSetting[]): string | undefined {
  const given = settings.filter((s) => VALUE_CHECKED.has(s.variable));
  if (given.length === 0) return undefined;
  // a key, a principal and no ledger file: the check reads no key file and writes none
  const env: NodeJS.ProcessEnv = { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'check', ROUNDTRIP_LEDGER: ':memory:' };
  for (const { variable, value } of given) env[variable] = value;
  try {
    resolveServerSettings('check', env);
    return undefined;
  } catch (error) {
    if (!(error instanceof RoundtripConfigError)) throw error;
    const byFlag = given.find((s) => s.variable === error.setting);
    return byFlag ? error.message.replaceAll(byFlag.variable, byFlag.flag) : error.message;
  }
}
