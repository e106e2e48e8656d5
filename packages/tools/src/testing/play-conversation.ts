// Plays a generated conversation against a server, whatever the transport: each round checks that the
// server asks what the conversation expects, then retries with its answers and the echoed requestState.
import type { Conversation, InputResponse } from './conversation-types.ts';

/** What a retry adds to the original request. */
export interface ConversationRetry {
  readonly requestState: string;
  readonly inputResponses: Readonly<Record<string, InputResponse>>;
}

/**
 * Sends the request once: without `retry` the first time, then with the state and answers of a round.
 * Returns the raw result (an `input_required` result, or the final one).
 */
export type SendRequest = (retry?: ConversationRetry) => Promise<unknown>;

export interface PlayedConversation {
  /** The final result the server answered with. */
  readonly result: unknown;
  /** How many input_required results were answered. */
  readonly rounds: number;
}

interface InputRequiredResult {
  resultType?: unknown;
  inputRequests?: Record<string, unknown>;
  requestState?: unknown;
}

const brief = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/**
 * Drives `conversation` through `send` and resolves with the final result. Throws, saying at which round
 * and what came instead, when the server asks other questions than expected, answers before the
 * conversation's last round, or still asks after it.
 *
 * @example
 * const { result } = await playConversation(conversation, (retry) =>
 *   client.callTool({ name: 'book_meeting', arguments: { topic: 'Plan' }, ...retry }, { allowInputRequired: true }));
 */
export async function playConversation(conversation: Conversation, send: SendRequest): Promise<PlayedConversation> {
  let reply = (await send()) as InputRequiredResult;
  for (const [index, round] of conversation.rounds.entries()) {
    const where = `round ${index + 1} of ${conversation.rounds.length} of "${conversation.name}"`;
    if (reply?.resultType !== 'input_required' || typeof reply.requestState !== 'string') {
      throw new Error(`${where}: expected input_required asking ${round.asked.join(', ')}, got ${brief(reply)}`);
    }
    const asked = Object.keys(reply.inputRequests ?? {});
    if ([...asked].sort().join() !== [...round.asked].sort().join()) {
      throw new Error(
        `${where}: expected the server to ask ${round.asked.join(', ')}, it asked ${asked.join(', ') || 'nothing'}: ${brief(reply.inputRequests)}`,
      );
    }
    reply = (await send({ requestState: reply.requestState, inputResponses: round.responses })) as InputRequiredResult;
  }
  if (reply?.resultType === 'input_required') {
    throw new Error(
      `after the ${conversation.rounds.length} rounds of "${conversation.name}", the server still asks: ${brief(reply.inputRequests)}`,
    );
  }
  return { result: reply, rounds: conversation.rounds.length };
}
