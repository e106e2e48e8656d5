import type { AnswerSchema } from './elicitation-schema.ts';
import { issuesText } from './issue-text.ts';
import { nulIssue } from './nul-character.ts';
import type { AnswerEvent, CompiledQuestion } from './questions.ts';

type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Checks a value against an answer schema through its Standard Schema interface (`~standard.validate`):
 * the same value and issues as safeParse, without building a ZodError (an Error, whose stack capture is
 * most of what a refused answer costs). A schema whose checks are async, or throw, is parsed by
 * safeParse, as before. A NUL character anywhere in the value is refused first, naming its field.
 */
function check(schema: AnswerSchema, value: unknown): Checked {
  // before the schema, whose refinements may read a store (nul-character.ts)
  const nul = nulIssue(value);
  if (nul) return { ok: false, reason: issuesText([nul]) };
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) {
    result.catch(() => {}); // settled by safeParse below
    const parsed = schema.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: issuesText(parsed.error.issues) };
  }
  if (result.issues === undefined) return { ok: true, value: result.value as Record<string, unknown> };
  const issues = result.issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
  }));
  return { ok: false, reason: issuesText(issues) };
}

export type ReadAnswer = { kind: 'event'; event: AnswerEvent<string, Record<string, unknown>> } | { kind: 'invalid'; reason: string };

/**
 * Turns one `inputResponses[key]` (an ElicitResult from the client, or the result of a sampling or roots
 * request) into the event the machine receives, or says in words a user can act on why it cannot be accepted.
 */
export function readAnswer(raw: unknown, ask: CompiledQuestion): ReadAnswer {
  const key = ask.key;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const what = ask.mode === 'sampling' ? 'a sampling result' : ask.mode === 'roots' ? 'a list of roots' : 'a form result';
    return { kind: 'invalid', reason: `the answer was not ${what}` };
  }
  // the client answers these with the request's own result: there is no decline or cancel
  if (ask.mode === 'sampling' || ask.mode === 'roots') {
    const parsed = check(ask.schema, raw);
    if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
    return { kind: 'event', event: { type: `${key}.accept`, key, content: parsed.value } };
  }
  const { action, content } = raw as { action?: unknown; content?: unknown };
  switch (action) {
    case 'decline':
      return { kind: 'event', event: { type: `${key}.decline`, key } };
    case 'cancel':
      return { kind: 'event', event: { type: `${key}.cancel`, key } };
    case 'accept': {
      // URL mode: accept means the user agreed to open the page; it carries no content
      if (ask.mode === 'url') return { kind: 'event', event: { type: `${key}.accept`, key, content: {} } };
      const parsed = check(ask.schema, content ?? {});
      if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
      return { kind: 'event', event: { type: `${key}.accept`, key, content: parsed.value } };
    }
    default:
      return { kind: 'invalid', reason: `the answer's action was ${quoteAction(action)}, expected accept, decline or cancel` };
  }
}

/** The action a client sent, as a re-ask note may repeat it: a short string quoted, anything else by kind. */
function quoteAction(action: unknown): string {
  if (action === undefined) return 'missing';
  if (typeof action !== 'string') return `a ${action === null ? 'null' : Array.isArray(action) ? 'list' : typeof action}, not a word`;
  return action.length > 24 ? `${JSON.stringify(action.slice(0, 24))}… (${action.length} characters)` : JSON.stringify(action);
}
