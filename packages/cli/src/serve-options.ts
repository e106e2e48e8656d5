// The options of `roundtrip serve` (which `roundtrip config` writes into a host's entry; the flags
// themselves are in serve-flags.ts), and the environment and checks they make for a server.
import { generateKey } from '@roundtrip/engine';
import { didYouMean } from '@roundtrip/mcp/internal';
import { RoundtripConfigError, resolveServerSettings } from '@roundtrip/mcp/node';
import { LOCK_TIMEOUT_VARIABLE } from './key-file-store.ts';
import { type FlagSetting, flagOf, readServeFlag, SERVE_FLAGS } from './serve-flags.ts';

/**
 * The command's own variables, which a server does not read (`roundtrip keys`'s lock wait): declared to the
 * server `serve` starts, so that its check of the ROUNDTRIP_* names at start does not call them unknown.
 */
export const CLI_VARIABLES: readonly string[] = [LOCK_TIMEOUT_VARIABLE];

export interface ServeOptions {
  readonly module: string;
  readonly name?: string;
  readonly version?: string;
  /** In the order given; a flag given twice keeps its last value. */
  readonly settings: readonly FlagSetting[];
}

/**
 * Reads serve's arguments: one module and any flags (`--flag value` or `--flag=value`). Returns the
 * problem as text for a usage error; a misspelt flag is matched against serve's and `otherFlags`.
 */
export function parseServeOptions(args: readonly string[], cwd: string, otherFlags: readonly string[] = []): ServeOptions | string {
  const positional: string[] = [];
  const settings = new Map<string, FlagSetting>();
  let name: string | undefined;
  let version: string | undefined;
  for (let i = 0; i < args.length; ) {
    const arg = args[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      i++;
      continue;
    }
    const read = readServeFlag(args, i, cwd);
    if (!read) return `unknown option ${flagOf(arg)}.${didYouMean(flagOf(arg), [...SERVE_FLAGS, ...otherFlags])}`;
    if (!read.ok) return read.problem;
    i = read.next;
    if (!('setting' in read)) {
      if (read.flag === '--name') name = read.value;
      else version = read.value;
      continue;
    }
    settings.delete(read.flag);
    settings.set(read.flag, read.setting);
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
