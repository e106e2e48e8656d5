import type { EngineLogEntry } from '@roundtrip/engine';
import type { JwtAuthenticator } from '../jwt-authenticator.ts';

/** The first wait before the keys are fetched again, doubled after each failure up to {@link LONGEST_WAIT_MS}. */
const FIRST_WAIT_MS = 500;
/** The longest wait between two fetches: the least time between two fetches a token's unknown `kid` may cause. */
const LONGEST_WAIT_MS = 30_000;

/** The fetches still to come; `stop` ends them (at shutdown). */
export interface KeysWatch {
  stop(): void;
}

/**
 * Fetches the keys tokens are checked with as the server starts, so that a JWKS it cannot fetch is
 * known at once rather than from every client's 503: the log gets an error saying which URL failed,
 * why, and that every request with a token is answered 503 until it can be fetched. The server starts
 * anyway (the authorization server may be starting at the same time) and fetches the keys again, after
 * half a second and then twice as long each time, up to every 30 s, until they come: the log then says
 * that tokens are checked from now on.
 */
export async function loadKeysAtStart(authenticator: JwtAuthenticator, log: (entry: EngineLogEntry) => void): Promise<KeysWatch> {
  const first = await authenticator.loadKeys();
  if (first.ok) return { stop: () => {} };
  log({
    level: 'error',
    event: 'jwks_unavailable',
    message:
      `cannot check any token: ${first.reason}. Until it can be fetched, every request with a token is answered 503; ` +
      `fetching it again in ${FIRST_WAIT_MS} ms, then less often (up to every ${LONGEST_WAIT_MS / 1000} s)`,
  });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let attempts = 1;
  const again = (wait: number) => {
    timer = setTimeout(async () => {
      const loaded = await authenticator.loadKeys();
      attempts += 1;
      if (stopped) return;
      if (!loaded.ok) return again(Math.min(wait * 2, LONGEST_WAIT_MS));
      log({
        level: 'info',
        event: 'jwks_loaded',
        message: `${loaded.keySource} was fetched at attempt ${attempts} (${loaded.keys} key${loaded.keys === 1 ? '' : 's'}): tokens are checked from now on`,
      });
    }, wait);
    // the fetches never keep a process alive that has nothing else to do
    timer.unref();
  };
  again(FIRST_WAIT_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
