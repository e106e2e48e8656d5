import type { JWTPayload } from 'jose';
import type { AuthenticationFailure } from './authentication.ts';
import { invalid, isoTime } from './jwt-failure.ts';

/**
 * What a verified token must still hold that `jwtVerify` does not check: a `sub` with something in it (the
 * principal every conversation is bound to: the server never guesses one, and a blank one would be shared
 * by every token that has it), and an `iat` that is not in the future beyond the clock tolerance the
 * `exp` and `nbf` checks allow (a token minted ahead of time, or by a server whose clock is wrong).
 * The token's subject when it passes; else the refusal, its log reason saying what was wrong.
 */
export function checkedSubject(
  payload: JWTPayload,
  clock: { now: Date; clockToleranceSeconds: number },
): { ok: true; sub: string } | AuthenticationFailure {
  const { sub, iat } = payload;
  if (typeof sub !== 'string' || sub === '') {
    return invalid(
      'token refused: it has no sub claim; each conversation is bound to the token’s subject, and the server will not guess one. ' +
        'Configure the authorization server to issue user tokens with sub',
    );
  }
  if (sub.trim() === '') {
    return invalid(
      `token refused: its sub claim is blank (${sub.length} white-space character${sub.length === 1 ? '' : 's'}); each conversation is ` +
        'bound to the token’s subject, and a blank one names no one. Configure the authorization server to issue user tokens with a real sub',
    );
  }
  const now = clock.now.getTime() / 1000;
  if (typeof iat === 'number' && iat > now + clock.clockToleranceSeconds) {
    return invalid(
      `token refused: issued in the future, iat ${isoTime(iat)} (now ${clock.now.toISOString()}, ${clock.clockToleranceSeconds} s tolerance); ` +
        'the authorization server’s clock or this machine’s is wrong',
    );
  }
  return { ok: true, sub };
}
