// Questions put to the client rather than to the user: `sampling/createMessage` (the client's model answers)
// and `roots/list` (the client names the folders it exposes). MCP 2026-07-28 deprecates both (SEP-2577); the
// engine asks them for compatibility with servers and clients that still use them, and the declarative layer
// of @roundtrip/tools does not offer them.
import { z } from 'zod';
import { issuesText } from './issue-text.ts';
import { renderTemplate } from './message-template.ts';
import type { SamplingRequest } from './wire-shapes.ts';

/**
 * A question the client's model answers (`sampling/createMessage`): the request is a literal, whose texts
 * and system prompt may hold `{{context}}` placeholders, or a function of context. Only for clients that
 * declared `sampling`. The answer arrives as the event `<key>.accept` with the client's CreateMessageResult
 * (`role`, `content`, `model`, `stopReason`); there is no decline or cancel.
 *
 * Deprecated by MCP 2026-07-28 (SEP-2577); prefer asking the user, or the model through a tool result.
 */
export interface SamplingQuestionSpec<TContext = unknown> {
  sampling: SamplingRequest | ((args: { context: TContext }) => SamplingRequest);
}

/**
 * A question the client answers with the roots (folders, as `file://` URIs) it exposes (`roots/list`).
 * Only for clients that declared `roots`. The answer arrives as `<key>.accept` with `{ roots: [{ uri, name? }] }`.
 *
 * Deprecated by MCP 2026-07-28 (SEP-2577).
 */
export interface RootsQuestionSpec {
  roots: true;
}

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const mediaBlock = z.object({ type: z.enum(['image', 'audio']), data: z.string().min(1), mimeType: z.string().min(1) });

/** What a client answers a sampling question with (its CreateMessageResult); content blocks of other kinds pass as they are. */
export const samplingAnswerSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([textBlock, mediaBlock, z.array(z.looseObject({ type: z.string() })).min(1)]),
  model: z.string(),
  stopReason: z.string().optional(),
});

/** What a client answers a roots question with (its ListRootsResult). */
export const rootsAnswerSchema = z.object({
  roots: z.array(z.object({ uri: z.string().min(1), name: z.string().optional() })),
});

export type SamplingAnswerSchema = typeof samplingAnswerSchema;
export type RootsAnswerSchema = typeof rootsAnswerSchema;

const samplingRequestSchema = z.object({
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.union([textBlock, mediaBlock]) })).min(1),
  maxTokens: z.number().int().positive(),
  systemPrompt: z.string().optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  modelPreferences: z.record(z.string(), z.json()).optional(),
  metadata: z.record(z.string(), z.json()).optional(),
});

/** Why a sampling request cannot be sent, or undefined when it can. */
export function samplingRequestProblem(request: unknown): string | undefined {
  const parsed = samplingRequestSchema.strict().safeParse(request);
  return parsed.success ? undefined : issuesText(parsed.error.issues, '(request)');
}

/** The text a sampling question is known by in logs and exports: its first text, or a description. */
export function samplingLabel(request: SamplingRequest): string {
  const first = request.messages.find((m) => m.content.type === 'text')?.content;
  return first?.type === 'text' && first.text.trim() !== '' ? first.text : 'a request to the client’s model';
}

/** The label of a roots question. */
export const ROOTS_LABEL = 'the roots (folders) the client exposes';

/**
 * The sampling request a question sends for this context: a literal with its placeholders filled, or what
 * the function returns, checked. Throws an Error saying what is wrong (the round fails and the log says why).
 */
export function renderSampling(key: string, spec: SamplingQuestionSpec['sampling'], context: unknown): SamplingRequest {
  if (typeof spec === 'function') {
    const request = spec({ context });
    const problem = samplingRequestProblem(request);
    if (problem) throw new Error(`the sampling request of question '${key}' is not one a client can take: ${problem}`);
    return request;
  }
  return {
    ...spec,
    ...(spec.systemPrompt !== undefined && { systemPrompt: renderTemplate(spec.systemPrompt, context) }),
    messages: spec.messages.map((m) =>
      m.content.type === 'text' ? { ...m, content: { ...m.content, text: renderTemplate(m.content.text, context) } } : m,
    ),
  };
}
