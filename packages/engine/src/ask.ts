import type { z } from 'zod';
import type { AnswerSchema } from './elicitation-schema.ts';

/**
 * What an asking state declares under `meta.ask[key]`: the message shown to the user (text, or
 * computed from the machine's context) and the zod schema of the answer.
 */
export interface AskSpec<TContext = never, TSchema extends AnswerSchema = AnswerSchema> {
  message: string | ((args: { context: TContext }) => string);
  schema: TSchema;
}

/**
 * Declares one question of an asking state, typed against the machine's context.
 *
 * @example
 * confirming: {
 *   meta: { ask: { confirm: ask<RefundContext>({ message: ({ context }) => `Refund ${context.id}?`, schema: z.object({ confirm: z.boolean() }) }) } },
 *   on: { 'confirm.accept': 'refunding', 'confirm.decline': 'kept', 'confirm.cancel': 'kept' },
 * }
 */
export function ask<TContext, TSchema extends AnswerSchema = AnswerSchema>(spec: AskSpec<TContext, TSchema>): AskSpec<TContext, TSchema> {
  return spec;
}

/**
 * The events the engine sends a machine for one answered question. Branch on them with ordinary
 * transitions: `'confirm.accept'`, `'confirm.decline'`, `'confirm.cancel'`.
 */
export type AnswerEvent<TKey extends string = string, TContent = Record<string, unknown>> =
  | { type: `${TKey}.accept`; key: TKey; content: TContent }
  | { type: `${TKey}.decline`; key: TKey }
  | { type: `${TKey}.cancel`; key: TKey };

/** The accepted content type of an ask declared with `ask()`. */
export type AnswerOf<TAsk> = TAsk extends AskSpec<never, infer TSchema> ? z.output<TSchema> : never;
