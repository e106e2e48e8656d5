// The shape of a generated conversation: the rounds a client goes through and where the flow ends.

/** One answer in `inputResponses`, as a client sends it. */
export type InputResponse = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/** One round: the question keys the server asks (its `inputRequests`) and the `inputResponses` to send back. */
export interface ConversationRound {
  readonly asked: readonly string[];
  /** One response per asked key; a key the flow no longer asks once an earlier answer moved it on is answered but ignored. */
  readonly responses: Readonly<Record<string, InputResponse>>;
}

/**
 * Where a conversation ends: the final action ran with these answers, or the flow ended at a step (the
 * user left it, a rule ended the flow there, or its load failed; `message`: the flow's words for the last two).
 */
export type ConversationEnd =
  | { readonly status: 'done'; readonly answers: Readonly<Record<string, Readonly<Record<string, unknown>>>> }
  | {
      readonly status: 'ended';
      readonly step: string;
      readonly how: 'declined' | 'cancelled' | 'abandoned' | 'stopped' | 'failed';
      readonly message?: string;
    };

/**
 * What a load step gave on the way: one of the sample results (`options.loaded`), or a failure after its
 * retries. To play the conversation, make the loader do that (its store holds that record, or fails).
 */
export type ConversationLoad =
  | { readonly step: string; readonly loader: string; readonly outcome: 'loaded'; readonly value: unknown }
  | { readonly step: string; readonly loader: string; readonly outcome: 'failed' };

/** One way through a flow, from the first request to its result. */
export interface Conversation {
  /** The answers in order, for a test's title: `when: accept {"attendees":6} › check: accept {"choice":"confirm"} → done`. */
  readonly name: string;
  /**
   * `simple`: a simple path of the flow's graph (no state twice). `loop`: a transition only a cycle
   * takes (going back, changing an answer at a review): the shortest simple path to it, the transition,
   * then the shortest way on to the final action (or, when there is none, to an end). `variant`: the
   * same, for a sample answer that leads where another one does (the other option of a field no
   * condition reads), so that every sample answer is sent once.
   */
  readonly kind: 'simple' | 'loop' | 'variant';
  readonly rounds: readonly ConversationRound[];
  /** What each load step on the way gave, in order (empty for a flow that loads nothing). */
  readonly loads: readonly ConversationLoad[];
  readonly end: ConversationEnd;
}

export interface ConversationOptions {
  /** The arguments of the tool or prompt, or the URI variables of the resource. @defaultValue `{}` */
  readonly input?: Record<string, unknown>;
  /** Fail when a flow has more conversations than this. @defaultValue 200 */
  readonly maxPaths?: number;
  /** Also cover transitions only cycles take ('back', a review's changes). @defaultValue true */
  readonly loops?: boolean;
  /** Also send each sample answer that leads where another one does, once. @defaultValue true */
  readonly everyAnswer?: boolean;
  /** "Now" for dates: texts of format date or date-time are a month later. @defaultValue the current time */
  readonly now?: Date;
  /**
   * Sample results of each load step, by step name: each is a way on, and a failure one more. Needed for
   * a step whose value a condition reads; otherwise it loads `null`.
   */
  readonly loaded?: Readonly<Record<string, readonly unknown[]>>;
}
