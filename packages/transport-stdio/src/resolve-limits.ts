import type { EngineLimits } from '@roundtrip/engine';
import { RoundtripConfigError } from './config-error.ts';

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
    const { variable, what, min, max, fallback } = LIMIT_VARIABLES[key];
    const text = env[variable]?.trim();
    if (!text) {
      limits[key] = fromCode[key] ?? fallback;
      continue;
    }
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw new RoundtripConfigError(
        variable,
        `${variable} is ${JSON.stringify(text)}; give ${what} from ${min} to ${max} (default ${fallback}).`,
      );
    }
    limits[key] = value;
  }
  return limits;
}
