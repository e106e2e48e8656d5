// A requestState that is not a string is an invalid state, not an absent one. The SDK refuses it itself,
// before any hook or handler of ours runs, with `data: { reason: 'invalid_request_state' }` and nothing
// else (and tells no one). Here it gets what every state the engine refuses gets: `reason: 'invalid'` and
// the start-over hint (step-outcome.ts), and the operator a line saying what came instead of a string.
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { ErrorCode, INVALID_STATE_HINT, INVALID_STATE_MESSAGE } from '@roundtrip/engine';

/** What the SDK puts in `data.reason` when it refuses a requestState before any hook runs. */
const SDK_REFUSAL_REASON = 'invalid_request_state';

/** A value as the log names its kind: `a number`, `an object`, `a list`, `null`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The error to answer instead of `error` when it is the SDK's refusal of a requestState that is not a
 * string (and logs it through `onError`); undefined for any other error, which passes as it is.
 * `what` names the request for the log: `the tool 'refund_order'`.
 */
export function nonTextStateRefusal(error: unknown, ctx: ServerContext, what: string, onError: (error: Error) => void): Error | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ErrorCode.InvalidParams) return undefined;
  if ((error.data as { reason?: unknown } | undefined)?.reason !== SDK_REFUSAL_REASON) return undefined;
  const state: unknown = ctx.mcpReq.requestState();
  // a string refused by a verify hook is not this case (Roundtrip installs none: the engine checks states)
  if (state === undefined || typeof state === 'string') return undefined;
  onError(new Error(`requestState refused for ${what}: it is ${kindOf(state)}, not a string; the client was told to start over`));
  return new ProtocolError(ErrorCode.InvalidParams, INVALID_STATE_MESSAGE, { reason: 'invalid', hint: INVALID_STATE_HINT });
}
