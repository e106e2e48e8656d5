// Step 5 of a round: the answers of the request, each to a question the opened state proves was asked,
// read and sent to the machine as events; what cannot be accepted becomes a note for the re-asked question.
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { type ActiveQuestion, activeQuestions } from './active-questions.ts';
import type { CompiledMachine } from './compile-machine.ts';
import { nestedDeeperThan } from './json-depth.ts';
import { jsonWithin } from './json-length-bound.ts';
import type { CompiledQuestion } from './questions.ts';
import { type ReadAnswer, readAnswer } from './read-answer.ts';
import { note } from './round-note.ts';
import type { Round } from './round-types.ts';
import { sameBytes } from './state-envelope.ts';

export interface FedAnswers {
  /** Key → why the last answer to that question did not count, to stand under it when it is asked again. */
  notes: Map<string, string>;
}

interface FeedInput {
  round: Round<unknown>;
  actor: AnyActorRef;
  machine: CompiledMachine;
  rendered: Map<CompiledQuestion, ActiveQuestion>;
  /** Key → digest of the question as asked; only these keys are read. */
  pinned: Map<string, Uint8Array>;
  /** The request carried a state: a missing answer is worth a note. */
  continuing: boolean;
}

/** How deeply an answer may nest: a form's content is one object of plain values and lists of them. */
const MAX_ANSWER_DEPTH = 64;

/** Why an answer as sent is too large to read, if it is: larger than a whole state, nested too deeply, or not JSON. */
function rawSizeProblem(answer: unknown, maxStateBytes: number): string | undefined {
  if (jsonWithin(answer, maxStateBytes)) return undefined;
  // refused at a fixed depth, before JSON.stringify, which runs out of stack some thousands of levels down
  // (where depends on the thread's stack size)
  if (nestedDeeperThan(answer, MAX_ANSWER_DEPTH)) return `it is nested more than ${MAX_ANSWER_DEPTH} levels deep`;
  let size: number;
  try {
    size = JSON.stringify(answer ?? null).length;
  } catch {
    // a getter that throws, a cycle or a BigInt (from a caller in this process; parsed JSON has none)
    return 'it cannot be read as JSON';
  }
  return size > maxStateBytes
    ? `it is ${size} characters long, more than the ${maxStateBytes} this server keeps between rounds`
    : undefined;
}

/**
 * Why accepted content is too large to carry to the next round, if it is: base64url makes a sealed state
 * a third larger than its JSON, so content is measured as it would stand in the state.
 */
function sealedSizeProblem(content: unknown, maxStateBytes: number): string | undefined {
  if (jsonWithin(content, Math.floor((maxStateBytes * 3) / 4))) return undefined;
  const sealed = Math.ceil((JSON.stringify(content ?? null).length * 4) / 3);
  return sealed > maxStateBytes
    ? `it would take about ${sealed} bytes of the ${maxStateBytes} this server keeps between rounds`
    : undefined;
}

/** Feeds the request's answers to the machine; see the file comment. */
export function feedAnswers(input: FeedInput): FedAnswers {
  const { round, actor, machine, rendered } = input;
  const maxStateBytes = round.ctx.maxStateBytes;
  const notes = new Map<string, string>();
  const responses = round.request.inputResponses;
  const answers =
    typeof responses === 'object' && responses !== null && !Array.isArray(responses) ? (responses as Record<string, unknown>) : undefined;
  if (!answers && responses !== undefined && responses !== null) {
    const what = Array.isArray(responses) ? 'list' : typeof responses;
    note(round, { level: 'info', event: 'answer_invalid', code: 'not_an_object', what });
  }
  for (const [key, hash] of input.pinned) {
    if (actor.getSnapshot().status !== 'active') break;
    if (!answers || !Object.hasOwn(answers, key)) {
      if (input.continuing) notes.set(key, 'No answer to this question arrived; please answer it.');
      continue;
    }
    const current = activeQuestions(machine, actor.getSnapshot() as AnyMachineSnapshot, rendered).find((a) => a.question.key === key);
    if (!current || !sameBytes(hash, current.hash)) {
      note(round, { level: 'info', event: 'answer_ignored', code: 'question_changed', key });
      continue;
    }
    // an answer larger than any state this server keeps could never be carried to the next round
    const tooLarge = rawSizeProblem(answers[key], maxStateBytes);
    let answer: ReadAnswer = tooLarge ? { kind: 'invalid', reason: tooLarge } : readAnswer(answers[key], current.question);
    let code: 'not_accepted' | 'too_large' | 'too_large_to_keep' = tooLarge ? 'too_large' : 'not_accepted';
    const content = answer.kind === 'event' && 'content' in answer.event ? answer.event.content : undefined;
    const tooLargeToKeep = content === undefined ? undefined : sealedSizeProblem(content, maxStateBytes);
    if (tooLargeToKeep) {
      answer = { kind: 'invalid', reason: tooLargeToKeep };
      code = 'too_large_to_keep';
    }
    if (answer.kind === 'invalid') {
      notes.set(key, `Your last answer was not accepted: ${answer.reason}. Please answer again.`);
      note(round, { level: 'info', event: 'answer_invalid', code, key, reason: answer.reason });
      continue;
    }
    actor.send(answer.event);
    round.trace?.events.push(answer.event.type);
  }
  return { notes };
}
