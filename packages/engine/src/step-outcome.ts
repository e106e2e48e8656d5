import type { LogEventName } from './log-events.ts';
import type { TaskHandle } from './task-shapes.ts';
import type { CallToolResult, InputRequest, JsonObject } from './wire-shapes.ts';

/** A JSON-RPC error for the client, as data. The transport puts it on the wire unchanged. */
export interface StepError {
  code: number;
  message: string;
  data?: JsonObject;
}

/** What one round of a request ends with; `TResult` is the method's final result. */
export type StepOutcome<TResult = CallToolResult> =
  | { type: 'complete'; result: TResult }
  | { type: 'input_required'; inputRequests: Record<string, InputRequest>; requestState: string }
  | { type: 'error'; error: StepError }
  /** The work goes on as a task (SEP-2663): the client polls it with tasks/get. */
  | { type: 'task'; task: TaskHandle };

/** JSON-RPC error codes the engine answers with. */
export const ErrorCode = {
  InvalidParams: -32602,
  InternalError: -32603,
  MissingRequiredClientCapability: -32021,
} as const;

/** The one message every refused requestState gets; the precise reason goes to the log. */
export const INVALID_STATE_MESSAGE = 'Invalid or expired requestState';

/** What the client (and the model reading the error) can do about a refused requestState. */
export const INVALID_STATE_HINT = 'Start over: send the request again without requestState or inputResponses.';

/** The hint for a state the server can no longer continue: its tool, prompt or resource was updated since. */
export const OUTDATED_STATE_HINT = `The server was updated since this conversation started. ${INVALID_STATE_HINT}`;

/** The hint sent with a refused requestState, by the reason sent beside it (`data.reason`). */
export function invalidStateHint(reason: 'invalid' | 'expired' | 'mismatch' | 'outdated'): string {
  return reason === 'outdated' ? OUTDATED_STATE_HINT : INVALID_STATE_HINT;
}

/** One line for the operator's log (stderr in a stdio server). */
export interface EngineLogEntry {
  level: 'info' | 'warn' | 'error';
  /** A stable name for the kind of entry, e.g. `state_rejected`: one of {@link LogEventName}. */
  event: LogEventName;
  /** Why, as a stable code within the kind (the engine's entries: see EngineEvent), e.g. `other_principal`. */
  code?: string;
  message: string;
  /** What the request was for: `tool refund_order`, `prompt refund_email`, `resource statement://…`. */
  target?: string;
  run?: string;
  error?: unknown;
}
