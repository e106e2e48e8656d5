// What a definition looks like from outside, for diagrams and exports: its machine and its questions.
import type { AnyStateMachine } from 'xstate';
import { encodeBase64url } from './base64url.ts';
import { internalsOf } from './definition-internals.ts';
import type { CompiledQuestion } from './questions.ts';

/** One question a definition's states ask, as an export shows it. */
export interface QuestionView {
  readonly key: string;
  /** Who answers: the user (`form`, `url`) or the client (`sampling`, `roots`). */
  readonly mode: CompiledQuestion['mode'];
  /** The message template, or undefined when the message is a function of context. */
  readonly message: string | undefined;
  /** The states (by id) that ask it. */
  readonly askedIn: readonly string[];
}

/** A definition's machine (as served, effects wrapped) and the questions its states ask. */
export interface DefinitionView {
  readonly machine: AnyStateMachine;
  /** Digest of the machine's structure, as sealed states are bound to it (base64url). */
  readonly structureHash: string;
  readonly questions: readonly QuestionView[];
}

/**
 * The machine and questions behind a tool, prompt or resource, for tools that draw or export machines
 * (`@roundtrip/visualize`). Throws for objects not made by a define function.
 */
export function describeDefinition(definition: object): DefinitionView {
  const { machine } = internalsOf(definition);
  const questions = new Map<string, { key: string; mode: CompiledQuestion['mode']; message: string | undefined; askedIn: string[] }>();
  for (const [stateId, asks] of machine.asksByState) {
    for (const q of asks) {
      const view = questions.get(q.key) ?? {
        key: q.key,
        mode: q.mode,
        message: typeof q.message === 'string' ? q.message : undefined,
        askedIn: [],
      };
      view.askedIn.push(stateId);
      questions.set(q.key, view);
    }
  }
  return { machine: machine.machine, structureHash: encodeBase64url(machine.hash), questions: [...questions.values()] };
}
