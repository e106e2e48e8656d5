// One round of a tool, prompt or resource sent to an engine itself, not through a protocol server: its
// outcome in the shape the server puts on the wire (an input_required result with its inputRequests and
// requestState, or the final result), which is what playConversation reads. Cheaper per round than the
// SDK's server and client in between, for the tests that play every way through a flow; the protocol
// server's own translation is packages/mcp's tests', and each of these files keeps a conversation through it.
import type { ClientCapabilities, Engine, StepOutcome } from '@roundtrip/engine';
import type { ConversationRetry } from '@roundtrip/tools/testing';

const FORM: ClientCapabilities = { elicitation: { form: {} } };

/** What a round asks for: a tool or a prompt by name with its arguments, or a resource by URI. */
export type RoundTarget = { kind: 'tool' | 'prompt'; name: string; arguments: Record<string, unknown> } | { kind: 'resource'; uri: string };

/** The outcome as the protocol server answers it; a refused round throws with the engine's error. */
function onTheWire<R>(outcome: StepOutcome<R>): unknown {
  if (outcome.type === 'complete') return outcome.result;
  if (outcome.type === 'input_required')
    return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState };
  if (outcome.type === 'task') return { resultType: 'task', ...outcome.task };
  throw new Error(`the engine refused the round: ${JSON.stringify(outcome.error)}`);
}

/**
 * Sends one round of `target` to `engine` as principal 'ada' with form elicitation declared: the first
 * without `retry`, then with a round's state and answers.
 *
 * @example
 * const { result } = await playConversation(conversation, (retry) => engineRound(engine, { kind: 'tool', name: 'plan_trip', arguments: { city: 'Lyon' } }, retry));
 */
export async function engineRound(engine: Engine, target: RoundTarget, retry?: ConversationRetry): Promise<unknown> {
  const round = {
    principal: 'ada',
    capabilities: FORM,
    ...(retry && { requestState: retry.requestState, inputResponses: retry.inputResponses }),
  };
  if (target.kind === 'resource') return onTheWire(await engine.readResource({ uri: target.uri, ...round }));
  const request = { name: target.name, arguments: target.arguments, ...round };
  if (target.kind === 'tool') return onTheWire(await engine.callTool(request));
  return onTheWire(await engine.getPrompt(request));
}
