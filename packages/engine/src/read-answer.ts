import type { AnswerEvent, CompiledQuestion } from './questions.ts';

export type ReadAnswer = { kind: 'event'; event: AnswerEvent<string, Record<string, unknown>> } | { kind: 'invalid'; reason: string };

/**
 * Turns one `inputResponses[key]` (an ElicitResult from the client) into the event the machine
 * receives, or says in words a user can act on why it cannot be accepted.
 */
export function readAnswer(raw: unknown, ask: CompiledQuestion): ReadAnswer {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { kind: 'invalid', reason: 'the answer was not a form result' };
  }
  const { action, content } = raw as { action?: unknown; content?: unknown };
  const key = ask.key;
  switch (action) {
    case 'decline':
      return { kind: 'event', event: { type: `${key}.decline`, key } };
    case 'cancel':
      return { kind: 'event', event: { type: `${key}.cancel`, key } };
    case 'accept': {
      // URL mode: accept means the user agreed to open the page; it carries no content
      if (ask.mode === 'url') return { kind: 'event', event: { type: `${key}.accept`, key, content: {} } };
      const parsed = ask.schema.safeParse(content ?? {});
      if (!parsed.success) {
        const reason = parsed.error.issues
          .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
          .join('; ');
        return { kind: 'invalid', reason };
      }
      return { kind: 'event', event: { type: `${key}.accept`, key, content: parsed.data as Record<string, unknown> } };
    }
    default:
      return { kind: 'invalid', reason: `the answer's action was ${JSON.stringify(action)}, expected accept, decline or cancel` };
  }
}
