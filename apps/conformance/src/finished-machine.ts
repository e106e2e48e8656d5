// The machine of a definition that asks nothing: its arguments are its output, at once.
import { type AnyStateMachine, setup } from 'xstate';

/** A machine that finishes in its first round with its input (the validated arguments) as output. */
export function finishedMachine<TArgs extends Record<string, unknown> = Record<never, never>>(id: string) {
  return setup({ types: { input: {} as TArgs, context: {} as TArgs, output: {} as TArgs } }).createMachine({
    id,
    context: ({ input }) => ({ ...input }),
    initial: 'done',
    states: { done: { type: 'final' } },
    output: ({ context }) => context,
  }) satisfies AnyStateMachine;
}
