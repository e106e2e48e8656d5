// The questions of a task parked on input (SEP-2663): each asked under a key minted for it, `<question>.<n>`,
// never used twice in the task's life; and the answers of tasks/update, read back to the questions they answer.
import type { ActiveQuestion } from './active-questions.ts';
import { sameBytes } from './state-envelope.ts';
import type { PendingQuestion } from './task-store.ts';
import type { InputRequest } from './wire-shapes.ts';

/**
 * The pending questions of a task that asks `asks` now. A question still asked as it was, whose last answer
 * was not refused, keeps its key; any other gets a new one, numbered from `nextKey`.
 */
export function mintPending(
  asks: readonly ActiveQuestion[],
  requests: Readonly<Record<string, InputRequest>>,
  notes: ReadonlyMap<string, string>,
  previous: readonly PendingQuestion[],
  nextKey: number,
): { pending: PendingQuestion[]; nextKey: number } {
  let next = nextKey;
  const pending = asks.map((a): PendingQuestion => {
    const question = a.question.key;
    const kept = notes.has(question) ? undefined : previous.find((p) => p.question === question && sameBytes(p.hash, a.hash));
    return { key: kept?.key ?? `${question}.${next++}`, question, hash: a.hash, request: requests[question]! };
  });
  return { pending, nextKey: next };
}

/** The answers of tasks/update, by question key, that answer pending questions; the minted keys they consume. */
export interface TaskAnswers {
  /** Question key → the answer as sent. */
  responses: Record<string, unknown>;
  /** Question key → the digest of the question as asked: the answer counts only if it is still asked so. */
  pinned: Map<string, Uint8Array>;
  /** The minted keys answered: retired, never asked under again. */
  consumed: Set<string>;
}

/** Reads `inputResponses` against the pending questions; other keys (unknown, retired) are ignored. */
export function answersFor(pending: readonly PendingQuestion[], inputResponses: unknown): TaskAnswers {
  const out: TaskAnswers = { responses: {}, pinned: new Map(), consumed: new Set() };
  if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) return out;
  const sent = inputResponses as Record<string, unknown>;
  for (const p of pending) {
    if (!Object.hasOwn(sent, p.key)) continue;
    out.responses[p.question] = sent[p.key];
    out.pinned.set(p.question, p.hash);
    out.consumed.add(p.key);
  }
  return out;
}
