// The arguments of a tools/call, prompts/get or resources/read as the definition gets them, or the
// problems that refuse them, in words for the caller.
import type { z } from 'zod';
import { issuesText } from './issue-text.ts';
import { nulIssue } from './nul-character.ts';

export type ReadArguments = { ok: true; data: Record<string, unknown> } | { ok: false; problems: string };

const argumentProblems = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) => issuesText(issues, '(arguments)');

/**
 * Checks a request's arguments: a NUL character in any string is refused first (nul-character.ts),
 * before the definition's schema (whose refinements may read a store) sees them; then the schema.
 */
export function readArguments(schema: z.ZodObject, raw: unknown): ReadArguments {
  const nul = nulIssue(raw);
  if (nul) return { ok: false, problems: argumentProblems([nul]) };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: argumentProblems(parsed.error.issues) };
  return { ok: true, data: parsed.data as Record<string, unknown> };
}
