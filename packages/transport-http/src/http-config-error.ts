/**
 * A setting the HTTP server cannot start with: a JWKS that cannot be read or is not one, a JWKS URL
 * over plain http to another machine, an issuer or audience missing beside a JWKS, an allow-list entry
 * that is not a host name. The message names the setting (flag and variable where there are), what is
 * wrong and what to do; `setting` names the variable or option, for a caller that points at it.
 */
export class HttpConfigError extends Error {
  override readonly name = 'HttpConfigError';
  /** The environment variable or option the problem is about, e.g. `ROUNDTRIP_JWKS`, `allowedHosts`. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
  }
}
