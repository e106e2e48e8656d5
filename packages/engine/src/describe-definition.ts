// What a definition looks like from outside, for diagrams, exports and test drivers: its machine, its
// questions with their forms, and what checks its arguments.
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import { encodeBase64url } from './base64url.ts';
import { internalsOf } from './definition-internals.ts';
import type { AnswerSchema } from './elicitation-schema.ts';
import type { CompiledQuestion } from './questions.ts';
import type { ElicitationSchema } from './wire-shapes.ts';

/** One question a definition's states ask, as an export shows it. */
export interface QuestionView {
  readonly key: string;
  /** Who answers: the user (`form`, `url`) or the client (`sampling`, `roots`). */
  readonly mode: CompiledQuestion['mode'];
  /** The message template, or undefined when the message is a function of context. */
  readonly message: string | undefined;
  /** The states (by id) that ask it. */
  readonly askedIn: readonly string[];
  /** The form sent to the client (empty for a question that is not a form). */
  readonly requestedSchema: ElicitationSchema;
  /** What an accepted answer must satisfy: the engine checks every answer against it. */
  readonly schema: AnswerSchema;
}

/** A definition's machine (as served, effects wrapped), the questions its states ask and its arguments. */
export interface DefinitionView {
  /** `Tool 'refund_order'`, `Prompt 'refund_email'`, `Resource 'statement'`: how messages name it. */
  readonly owner: string;
  /**
   * What checks the arguments (a tool's or prompt's arguments, a resource's URI variables); parsing
   * gives them as the machine receives them, defaults applied.
   */
  readonly arguments: z.ZodObject;
  readonly machine: AnyStateMachine;
  /** Digest of the machine's structure, as sealed states are bound to it (base64url). */
  readonly structureHash: string;
  readonly questions: readonly QuestionView[];
}

/**
 * The machine, questions and arguments behind a tool, prompt or resource, for tools that draw or export
 * machines (`@roundtrip/visualize`) or drive them in tests (`@roundtrip/tools/testing`). Throws for
 * objects not made by a define function.
 */
export function describeDefinition(definition: object): DefinitionView {
  const { owner, args, machine } = internalsOf(definition);
  const questions = new Map<string, QuestionView & { askedIn: string[] }>();
  for (const [stateId, asks] of machine.asksByState) {
    for (const q of asks) {
      const view = questions.get(q.key) ?? {
        key: q.key,
        mode: q.mode,
        message: typeof q.message === 'string' ? q.message : undefined,
        askedIn: [],
        requestedSchema: q.requestedSchema,
        schema: q.schema,
      };
      view.askedIn.push(stateId);
      questions.set(q.key, view);
    }
  }
  return {
    owner,
    arguments: args,
    machine: machine.machine,
    structureHash: encodeBase64url(machine.hash),
    questions: [...questions.values()],
  };
}
