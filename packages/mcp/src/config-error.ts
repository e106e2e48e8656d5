// The one error a Roundtrip server throws for a setting it cannot start with, on every runtime: the Node
// transports' settings (variables, flags, key files, the ledger) and the web-standard HTTP handler's options
// alike. Kept at the package's root, free of Node, so that an edge runtime catches the same class.

/**
 * What is wrong with the setting, for a caller that acts on it (a supervisor that retries only what may
 * pass later, a tool that points at the line to fix):
 * - `invalid_value`: the value is not one the setting takes (not a number, out of range, malformed);
 * - `missing`: a setting that must be given (alone, or beside another that is) is not;
 * - `unknown_setting`: a variable is named like a setting, but no setting has that name;
 * - `unsafe`: the value would open the server to others (a key file others can write, keys fetched over
 *   plain http, listening beyond this machine without authentication);
 * - `unavailable`: what the setting names cannot be reached, read, opened or created now (a file, a
 *   database, a port): the value may be right, and a start may pass once that is fixed;
 * - `missing_dependency`: what the setting asks for needs a package that is not installed.
 */
export type ConfigErrorCode = 'invalid_value' | 'missing' | 'unknown_setting' | 'unsafe' | 'unavailable' | 'missing_dependency';

export interface ConfigErrorOptions {
  /** @defaultValue 'invalid_value' */
  code?: ConfigErrorCode;
  /** The error that made the setting fail (a driver's, the file system's), for the stack of a log. */
  cause?: unknown;
}

/**
 * A setting the server cannot start with (a bad key, an unreadable key file, a TTL that is not a number, a
 * JWKS that cannot be read, a port in use). The message names the setting (flag and variable where there
 * are), what is wrong and how to fix it; `setting` names the variable or option, for a caller that points
 * at it, and `code` says what kind of problem it is.
 *
 * @example
 * try {
 *   await runHttpServer(options);
 * } catch (error) {
 *   if (error instanceof RoundtripConfigError && error.code === 'unavailable') scheduleRetry();
 *   else throw error;
 * }
 */
export class RoundtripConfigError extends Error {
  override readonly name = 'RoundtripConfigError';
  /** The environment variable or option the problem is about, e.g. `ROUNDTRIP_LEDGER`, `--http`, `allowedHosts`. */
  readonly setting: string;
  /** What kind of problem it is. */
  readonly code: ConfigErrorCode;

  constructor(setting: string, message: string, options: ConfigErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.setting = setting;
    this.code = options.code ?? 'invalid_value';
  }
}
