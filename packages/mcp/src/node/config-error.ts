/**
 * A setting the server cannot start with (a bad key, an unreadable key file, a TTL that is not a
 * number). The message names the setting, what is wrong, and how to fix it.
 */
export class RoundtripConfigError extends Error {
  override readonly name = 'RoundtripConfigError';
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
  }
}
