// What an author writes for one question: a form question (its message and answer schema, what its form shows in a
// context, its fallback) or a URL-mode one. A leaf: questions.ts checks and compiles these.
import type { AnswerSchema } from './elicitation-schema.ts';

/**
 * A form question's view for one context (see QuestionSpec.form): `defaults`, by field, the values the
 * form starts with (each used only when it is a valid answer for its field, else the field's own default
 * stays); `offer`, by select or multi-select field, the only options shown (the answer is still checked
 * against all of them).
 */
export interface FormView {
  readonly defaults?: Readonly<Record<string, unknown>>;
  readonly offer?: Readonly<Record<string, readonly string[]>>;
  /**
   * By text field, the options it offers in this context instead (options computed from data, e.g. a
   * flow's loaded rooms): the field is shown as a titled single select of exactly these. The answer is
   * still checked against the schema; refusing a value outside them is the asker's part.
   */
  readonly choices?: Readonly<Record<string, readonly { readonly const: string; readonly title: string }[]>>;
}

/**
 * One question: the message shown to the user (a template over context such as
 * `'Refund {{amount}}?'`, or a function of context) and the zod schema of the answer (becomes the form).
 */
export interface QuestionSpec<TContext = unknown, TSchema extends AnswerSchema = AnswerSchema> {
  message: string | ((args: { context: TContext }) => string);
  schema: TSchema;
  /**
   * What the form shows in this context: values it starts with (`defaults`, e.g. the last answer when it
   * is asked again) and the only options a select offers (`offer`). Defaults that are no valid answer for
   * their field are left out; the answer is still checked against the whole schema.
   */
  form?: (args: { context: TContext }) => FormView | undefined;
  /** How to ask when the host cannot show this form (it declared no elicitation); see {@link QuestionFallback}. */
  fallback?: QuestionFallback;
}

/**
 * What a tool does when it must ask this question of a host that cannot show it: a host that declared
 * no elicitation at all (LM Studio and other desktop hosts), or a URL-mode question for a host without
 * `elicitation.url`. Without a fallback the request fails with -32021 (a tool error naming the missing
 * capability on 2025-era connections).
 *
 * `'model'`: the model asks instead. The tool's result tells the model what to ask the user (message,
 * fields, allowed values; for a URL-mode question, the page to show) and to call the tool again with
 * the same arguments plus the user's answers under `answers` and the sealed `continuation` token it was
 * given, which is checked like any request state. The tool's input schema then advertises those two
 * optional arguments. The answers pass through the model: use it only for questions whose answer the
 * model may relay, never for a confirmation that must come from the user's own hand.
 *
 * On a tool that may be destructive (MCP's default unless its annotations say `readOnlyHint: true` or
 * `destructiveHint: false`) a plain `'model'` is a definition problem: opt in per question with
 * `{ via: 'model', onDestructiveTool: true }`.
 *
 * Only `tools/call` falls back: prompts and resources have no model in the loop of `prompts/get` and
 * `resources/read`, so they ignore it and answer -32021.
 */
export type QuestionFallback = 'model' | { readonly via: 'model'; readonly onDestructiveTool?: boolean };

/**
 * A URL-mode question: the client opens `url` (to sign in, or pay) and answers accept (the user agreed to
 * go there, not that they finished), decline or cancel. Only for clients that declared `elicitation.url`;
 * a machine learns that from the {@link ClientEvent}. `url` is a template over context or a function,
 * and must be an https URL (http only for localhost). Never put secrets or credentials in it.
 */
export interface UrlQuestionSpec<TContext = unknown> {
  message: string | ((args: { context: TContext }) => string);
  url: string | ((args: { context: TContext }) => string);
  /** For hosts without `elicitation.url`: the model shows the user the page instead; see {@link QuestionFallback}. */
  fallback?: QuestionFallback;
}
