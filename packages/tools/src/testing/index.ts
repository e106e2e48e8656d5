// @roundtrip/tools/testing: every way through a declared flow, generated from its machine's graph, and a
// driver that plays one against a server over any transport. For tests; not needed to serve flows.

export type {
  Conversation,
  ConversationEnd,
  ConversationLoad,
  ConversationOptions,
  ConversationRound,
  InputResponse,
} from './conversation-types.ts';
export { conversationsOf, maxRounds } from './conversations-of.ts';
export type { ConversationRetry, PlayedConversation, SendRequest } from './play-conversation.ts';
export { playConversation } from './play-conversation.ts';
