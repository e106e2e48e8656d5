import type { EngineLimits } from '@roundtrip/engine';
import { DEFAULT_ANSWER_TIMEOUT_MS } from '../answer-timeout.ts';
import { RoundtripConfigError } from '../config-error.ts';

/** Every limit of the engine, with the value it will run with. */
export type ResolvedLimits = Required<EngineLimits>;

interface LimitVariable {
  variable: string;
  /** What the value is and its unit, completing "give …". */
  what: string;
  min: number;
  // ranges and defaults as createEngine checks and applies them
  max: number;
  fallback: number;
}

/** The environment variable of each limit. */
const LIMIT_VARIABLES: { readonly [K in keyof ResolvedLimits]: LimitVariable } = {
  stateTtlSeconds: { variable: 'ROUNDTRIP_STATE_TTL', what: 'the state lifetime in whole seconds', min: 1, max: 7 * 86_400, fallback: 600 },
  settleTimeoutMs: {
    variable: 'ROUNDTRIP_SETTLE_TIMEOUT_MS',
    what: 'the time invoked work may take within one round, in whole milliseconds',
    min: 1,
    max: 600_000,
    fallback: 10_000,
  },
  maxRounds: {
    variable: 'ROUNDTRIP_MAX_ROUNDS',
    what: 'the number of rounds one request may take, a whole number',
    min: 1,
    max: 1000,
    fallback: 64,
  },
  maxStateBytes: {
    variable: 'ROUNDTRIP_MAX_STATE_BYTES',
    what: 'the size of the largest requestState accepted, in whole bytes',
    min: 1,
    max: 1024 * 1024,
    fallback: 64 * 1024,
  },
};

/** Reads one whole-number setting: the variable when set, else `fromCode`, else the default. */
function readSetting(env: NodeJS.ProcessEnv, spec: LimitVariable, fromCode: number | undefined): number {
  const { variable, what, min, max, fallback } = spec;
  const text = env[variable]?.trim();
  if (!text) return fromCode ?? fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new RoundtripConfigError(
      variable,
      `${variable} is ${JSON.stringify(text)}; give ${what} from ${min} to ${max} (default ${fallback}).`,
    );
  }
  return value;
}

/**
 * The limits a server runs with: each from its environment variable when set (the operator has the
 * last word), else from the server's code, else the engine's default. Values from code are checked
 * by createEngine.
 *
 * Throws RoundtripConfigError naming the variable, the allowed range and the default.
 */
export function resolveLimits(env: NodeJS.ProcessEnv, fromCode: EngineLimits = {}): ResolvedLimits {
  const limits = {} as ResolvedLimits;
  for (const key of Object.keys(LIMIT_VARIABLES) as (keyof ResolvedLimits)[]) {
    limits[key] = readSetting(env, LIMIT_VARIABLES[key], fromCode[key]);
  }
  return limits;
}

/** The longest answer timeout accepted: a day. */
const MAX_ANSWER_TIMEOUT_MS = 86_400_000;

const ANSWER_TIMEOUT: LimitVariable = {
  variable: 'ROUNDTRIP_ANSWER_TIMEOUT_MS',
  what: 'how long a 2025-era host may take to answer one question, in whole milliseconds',
  min: 1,
  max: MAX_ANSWER_TIMEOUT_MS,
  fallback: DEFAULT_ANSWER_TIMEOUT_MS,
};

/**
 * How long the server holds a 2025-era request open waiting for the host's answer to one
 * `elicitation/create` (ROUNDTRIP_ANSWER_TIMEOUT_MS, else the code's value, else 50 seconds).
 * Throws RoundtripConfigError for a bad variable or value from code.
 */
export function resolveAnswerTimeout(env: NodeJS.ProcessEnv, fromCode?: number): number {
  if (fromCode !== undefined && (!Number.isInteger(fromCode) || fromCode < 1 || fromCode > MAX_ANSWER_TIMEOUT_MS)) {
    throw new RoundtripConfigError(
      'legacyAnswerTimeoutMs',
      `legacyAnswerTimeoutMs is ${fromCode}; give ${ANSWER_TIMEOUT.what} from 1 to ${MAX_ANSWER_TIMEOUT_MS} (default ${DEFAULT_ANSWER_TIMEOUT_MS}).`,
    );
  }
  return readSetting(env, ANSWER_TIMEOUT, fromCode);
}

/** The longest request line read by default: 4 MiB (a line past the limit is answered with an error, not read). */
const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

const MAX_REQUEST: LimitVariable = {
  variable: 'ROUNDTRIP_MAX_REQUEST_BYTES',
  what: 'the size of the largest request line read from stdin, in whole bytes',
  min: 64 * 1024,
  max: 8 * 1024 * 1024,
  fallback: DEFAULT_MAX_REQUEST_BYTES,
};

/**
 * The size of the largest JSON-RPC line the stdio server reads (ROUNDTRIP_MAX_REQUEST_BYTES, else the
 * code's value, else 4 MiB); a longer one is answered with -32600 "Request too large" and skipped.
 * Throws RoundtripConfigError for a bad variable or value from code.
 */
export function resolveMaxRequestBytes(env: NodeJS.ProcessEnv, fromCode?: number): number {
  if (fromCode !== undefined && (!Number.isInteger(fromCode) || fromCode < MAX_REQUEST.min || fromCode > MAX_REQUEST.max)) {
    throw new RoundtripConfigError(
      'maxRequestBytes',
      `maxRequestBytes is ${fromCode}; give ${MAX_REQUEST.what} from ${MAX_REQUEST.min} to ${MAX_REQUEST.max} (default ${DEFAULT_MAX_REQUEST_BYTES}).`,
    );
  }
  return readSetting(env, MAX_REQUEST, fromCode);
}

const TASK_LEASE: LimitVariable = {
  variable: 'ROUNDTRIP_TASK_LEASE_SECONDS',
  what: "how long a running task's lease lasts unless renewed, in whole seconds",
  min: 10,
  max: 3_600,
  fallback: 30,
};

/**
 * How long the lease on a running task's work lasts unless renewed, for servers sharing a PostgreSQL task
 * queue (ROUNDTRIP_TASK_LEASE_SECONDS, else 30): the task of a server that died goes to another after about
 * this long. Throws RoundtripConfigError for a bad value.
 */
export function resolveTaskLease(env: NodeJS.ProcessEnv): number {
  return readSetting(env, TASK_LEASE, undefined);
}
