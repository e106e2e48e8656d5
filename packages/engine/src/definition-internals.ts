import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import type { DefinitionCompletion } from './argument-completion.ts';
import { type CompiledMachine, compileMachine } from './compile-machine.ts';
import type { ProblemList } from './definition-error.ts';
import { planMigrations } from './machine-migrations.ts';
import { type EffectSpec, guardEffect } from './once-effect.ts';
import { type AnyQuestions, compiledQuestions, noQuestions } from './questions.ts';
import type { CacheHint } from './wire-shapes.ts';

/** What the engine needs of a definition; never reachable from the public definition object. */
export interface DefinitionInternals {
  /** `Tool 'refund_order'`, `Prompt 'refund_email'`, `Resource 'statement'`: how messages name it. */
  readonly owner: string;
  /** Validates the arguments (tool arguments, prompt arguments, resource URI variables). */
  readonly args: z.ZodObject;
  readonly machine: CompiledMachine;
  readonly acceptAnswersWithoutState: boolean;
  /** How long a resource's contents may be kept, when it says (resources only). */
  readonly cache?: CacheHint | undefined;
  /** The completions of a prompt's arguments or a resource template's variables (none for a tool). */
  readonly completion?: DefinitionCompletion;
  /** Turns the machine's output into the method's result; throws when the output cannot be served. */
  readonly finish: (output: unknown, request: { uri?: string }) => unknown;
}

const internals = new WeakMap<object, DefinitionInternals>();

/** @internal */
export function setInternals(definition: object, value: DefinitionInternals): void {
  internals.set(definition, value);
}

/** @internal The engine's view of a definition; throws for objects not made by a define function. */
export function internalsOf(definition: object): DefinitionInternals {
  const found = internals.get(definition);
  if (!found) throw new TypeError('Not a Roundtrip definition: create it with defineTool, definePrompt or defineResource.');
  return found;
}

/**
 * Checks a machine with its questions, effect specs and migrations, and wraps the effect actors
 * (once-only, confirmed values). Problems go to `problems`; the caller throws them together.
 */
export function compileDefinition(
  owner: string,
  machine: AnyStateMachine,
  questions: AnyQuestions | undefined,
  effects: Readonly<Record<string, EffectSpec<never> | undefined>> | undefined,
  problems: ProblemList,
  migrations?: unknown,
): CompiledMachine {
  let served = machine;
  const actors = (machine.implementations.actors ?? {}) as Record<string, AnyActorLogic>;
  const wrapped: Record<string, AnyActorLogic> = {};
  for (const [src, spec] of Object.entries(effects ?? {})) {
    if (!spec) continue;
    const logic = actors[src];
    if (!logic) {
      const known = Object.keys(actors);
      problems.add(
        [owner, 'effects', `'${src}'`],
        'unknown_effect',
        `the machine has no actor named '${src}' (it has ${known.length ? known.map((k) => `'${k}'`).join(', ') : 'none'}).`,
        'Name the effect after an actor in setup({ actors }).',
      );
      continue;
    }
    if (spec.inLedgerTransaction && !spec.once)
      problems.add(
        [owner, 'effects', `'${src}'`, 'inLedgerTransaction'],
        'invalid_option',
        "it asks for the ledger's transaction, which only an effect declared once runs in.",
        'Add once: true, or remove inLedgerTransaction.',
      );
    wrapped[src] = guardEffect(logic, spec as EffectSpec);
  }
  if (Object.keys(wrapped).length > 0) served = machine.provide({ actors: wrapped } as never) as AnyStateMachine;
  const compiled = compileMachine(served, owner, compiledQuestions(questions ?? noQuestions), problems);
  if (migrations !== undefined && machine.version === undefined) {
    problems.add(
      [owner, 'migrations'],
      'invalid_migration',
      `it migrates states of earlier versions, but machine '${machine.id}' has no version.`,
      "Give the machine its current version: createMachine({ version: '2', … }).",
    );
    return compiled;
  }
  const plan = planMigrations(owner, compiled.version, migrations, problems);
  return plan ? { ...compiled, migrations: plan } : compiled;
}
