// Phase 1 of a round: the requestState (or the continuation token of a round asked through the model)
// opened and checked before anything of the machine runs; a refusal ends the round here.
import { encodeBase64url } from './base64url.ts';
import { continuationRefusedText } from './fallback-text.ts';
import { openRoundState } from './open-round-state.ts';
import { note } from './round-note.ts';
import type { Round } from './round-types.ts';
import type { EnvelopeRejection, StateEnvelope } from './state-envelope.ts';
import { ErrorCode, INVALID_STATE_MESSAGE, invalidStateHint, type StepOutcome } from './step-outcome.ts';

/** The state a round continues from (none on a first round), or the outcome of a refused one. */
export type OpenedState<TResult> = { ok: true; envelope: StateEnvelope | undefined } | { ok: false; outcome: StepOutcome<TResult> };

const NO_STATE = { ok: true, envelope: undefined } as const;

/**
 * A refused state's outcome: the invalid-state error, or for a token that came through the model words
 * the model can act on. Logged as `state_rejected` with the check that refused it.
 */
export function refuseState<TResult>(round: Round<TResult>, rejection: EnvelopeRejection, error?: unknown): StepOutcome<TResult> {
  const fallback = round.target.modelFallback;
  const continued = fallback?.continued === true;
  note(round, {
    level: 'warn',
    event: 'state_rejected',
    code: rejection.why,
    reason: rejection.code,
    state: continued ? 'continuation token' : 'requestState',
    detail: rejection.detail,
    ...(error !== undefined && { error }),
  });
  if (continued) return round.target.fail(continuationRefusedText(fallback!.tool, rejection.code));
  return {
    type: 'error',
    error: {
      code: ErrorCode.InvalidParams,
      message: INVALID_STATE_MESSAGE,
      data: { reason: rejection.code, hint: invalidStateHint(rejection.code) },
    },
  };
}

/** Opens the round's state, if it carries one; sets the round's run and number from it. */
export function openPhase<TResult>(round: Round<TResult>): OpenedState<TResult> {
  const { request, target } = round;
  if (request.requestState === undefined) return NO_STATE;
  const fallback = target.modelFallback;
  // a continuation token is bound to its own target tag, so it never passes as a requestState, nor the reverse
  const binding = fallback?.continued ? { ...round.binding, target: fallback.continuationTag } : round.binding;
  const machine = target.definition.machine;
  const opened = openRoundState(round.ctx, request, binding, machine);
  if (!opened.ok) return { ok: false, outcome: refuseState(round, opened.rejection) };
  const envelope = opened.envelope;
  round.run = encodeBase64url(envelope.run);
  round.number = envelope.round + 1;
  if (opened.migratedThrough)
    note(round, { level: 'info', event: 'state_migrated', code: 'migrated', machine: machine.id, path: opened.migratedThrough });
  // the opened state as it came ({ ok, envelope }), not wrapped again
  return opened;
}
