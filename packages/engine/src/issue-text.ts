// What a client sent, as a message back to it (or a log line) may repeat it: bounded, however large the input.
import { safeText } from './safe-text.ts';

/** What a client sent, as an error may repeat it: safe text (see safeText), at most `max` characters, the rest counted. */
export const clip = (text: unknown, max = 120): string => {
  const value = String(text);
  const shown = safeText(value.slice(0, max), { maxChars: Math.max(max, 1) });
  return value.length > max ? `${shown}… (${value.length - max} more characters)` : shown;
};

/** How many of a validation's problems a message lists; the rest are counted. */
const MAX_ISSUES = 5;

/**
 * A zod validation's problems in words: `path: message`, at most five, each path and message clipped
 * (a path may hold a client's keys, a message the keys it should not have sent). An answer or argument
 * with thousands of bad items makes one short sentence, not thousands.
 */
export function issuesText(issues: readonly { path: readonly PropertyKey[]; message: string }[], root?: string): string {
  const listed = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = clip(issue.path.map(String).join('.'), 80);
    const message = clip(issue.message, 200);
    return path ? `${path}: ${message}` : root ? `${root}: ${message}` : message;
  });
  const more = issues.length - listed.length;
  return more > 0 ? `${listed.join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}` : listed.join('; ');
}
