import { RoundtripConfigError } from '@roundtrip/mcp';
import { DEFAULT_BIND_HOST } from '../bind-policy.ts';

/** Where a server listens: the address as the operator wrote it (IPv6 without brackets) and the port. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** The port of `roundtrip serve --http` and `pnpm serve:http` when none is given. */
export const DEFAULT_PORT = 3000;

function portOf(text: string, whole: string, setting: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new RoundtripConfigError(
      setting,
      `${setting} ${JSON.stringify(whole)}: ${JSON.stringify(text)} is not a port; give [host:]port, a port from 0 to 65535 ` +
        `(0 picks a free one), e.g. 3000 or ${DEFAULT_BIND_HOST}:3000`,
    );
  }
  return port;
}

/**
 * Reads `[host:]port` as `--http` takes it: `3000` (on 127.0.0.1), `127.0.0.1:3000`, `0.0.0.0:8080`,
 * `localhost:3000`, `[::1]:3000`. Throws RoundtripConfigError naming `setting` and what to give.
 */
export function parseListenAddress(value: string, setting = '--http'): ListenAddress {
  const text = value.trim();
  const bracketed = /^\[([^\]]*)\]:(.*)$/.exec(text);
  if (bracketed) {
    if (bracketed[1] === '') throw new RoundtripConfigError(setting, `${setting} ${JSON.stringify(value)}: no address inside the brackets`);
    return { host: bracketed[1]!, port: portOf(bracketed[2]!, value, setting) };
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0) return { host: DEFAULT_BIND_HOST, port: portOf(text, value, setting) };
  const host = text.slice(0, colon);
  if (host.includes(':')) {
    throw new RoundtripConfigError(setting, `${setting} ${JSON.stringify(value)}: put an IPv6 address in brackets, e.g. [::1]:3000`);
  }
  return { host: host === '' ? DEFAULT_BIND_HOST : host, port: portOf(text.slice(colon + 1), value, setting) };
}
