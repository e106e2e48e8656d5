// A flow tool's one outcome hook: every way a conversation ends other than the final action's result (the
// user left, an `end` rule held, a load failed, the final action failed) reaches one function, told apart by
// `how`; what it leaves undefined gets the default of that way. The one-way hooks (`ended`, `stopped`, `failed`)
// word one way each, for a tool that words only that one; mixing them with `outcome` is a definition error.
import { ProblemList } from '@roundtrip/engine';
import { endedResult, endedText } from './declare-flow.ts';
import { asDeclared } from './engine-door.ts';
import type { FlowOutcome } from './flow-context.ts';
import type { AnswersOf } from './flow-spec.ts';
import type { StepsOf } from './flow-steps.ts';

/** What every way of ending knows: the tool's input, the answers given and the values loaded on the way. */
interface OutcomeBase<TSteps, TInput, TLoaded> {
  readonly input: TInput;
  readonly answers: AnswersOf<StepsOf<TSteps>>;
  readonly loaded: TLoaded;
}

/**
 * How a conversation of a flow tool ended without the final action's result, told apart by `how`:
 * - `'declined'`, `'cancelled'`: the user declined or cancelled the question of `step`; `'abandoned'`: the
 *   user abandoned the answers at the review `step`;
 * - `'stopped'`: an `end` rule of `step` held; `message` is its words for the user, rendered;
 * - `'load_failed'`: the load of `step` failed after its retries; `message` is the step's `onError`, or by
 *   default a sentence saying what could not be loaded;
 * - `'final_failed'`: the final action threw (a recorded failure replays as an Error with the same message),
 *   or the server that ran it stopped before recording its outcome (`EffectOutcomeUnknownError`: whether it
 *   acted is unknown, so read your store).
 */
export type OutcomeInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> =
  | (OutcomeBase<TSteps, TInput, TLoaded> & {
      readonly how: 'declined' | 'cancelled' | 'abandoned';
      readonly step: keyof StepsOf<TSteps> & string;
    })
  | (OutcomeBase<TSteps, TInput, TLoaded> & {
      readonly how: 'stopped' | 'load_failed';
      readonly step: keyof StepsOf<TSteps> & string;
      readonly message: string;
    })
  | (OutcomeBase<TSteps, TInput, TLoaded> & { readonly how: 'final_failed'; readonly error: unknown });

/** The hooks a flow tool may give for its endings: `outcome`, or the one-way hooks. */
export interface OutcomeHooks<T> {
  readonly outcome?: ((info: never) => T | undefined | Promise<T | undefined>) | undefined;
  readonly ended?: ((info: never) => T | Promise<T>) | undefined;
  readonly stopped?: ((info: never) => T | Promise<T>) | undefined;
  readonly failed?: ((info: never) => T | Promise<T>) | undefined;
}

const ONE_WAY_HOOKS = ['ended', 'stopped', 'failed'] as const;

/** `outcome` with any one-way hook would leave which one words an ending unclear: a definition error. */
export function checkOutcomeHooks(owner: string, hooks: OutcomeHooks<unknown>): void {
  if (hooks.outcome === undefined) return;
  const p = new ProblemList<'invalid_option'>().at(owner);
  const given = ONE_WAY_HOOKS.filter((name) => hooks[name] !== undefined);
  if (typeof hooks.outcome !== 'function')
    p.add(['outcome'], 'invalid_option', 'outcome is not a function.', 'Write outcome: (info) => result, switching on info.how.');
  if (given.length > 0)
    p.add(
      ['outcome'],
      'invalid_option',
      `the tool gives outcome and ${given.join(', ')}: each ending would have two functions to word it.`,
      `Handle every ending in outcome (switch on info.how: ${given.map((name) => WAYS_OF[name]).join(', ')}), and remove ${given.join(', ')}.`,
    );
  p.throwIfAny();
}

/** The ways each one-way hook words, as `outcome` names them. */
const WAYS_OF = {
  ended: "'declined', 'cancelled', 'abandoned'",
  stopped: "'stopped', 'load_failed'",
  failed: "'final_failed'",
} as const;

/** Whether the final action's failure is worded by the tool (kept for its result) rather than failing the round. */
export const handlesFinalFailure = (hooks: OutcomeHooks<unknown>): boolean => hooks.outcome !== undefined || hooks.failed !== undefined;

/** `value`, or when it is (or resolves to) undefined, what `otherwise` gives. */
function orElse<T>(value: T | undefined | Promise<T | undefined>, otherwise: () => T): T | Promise<T> {
  if (value instanceof Promise) return value.then((settled) => (settled === undefined ? otherwise() : settled));
  return value === undefined ? otherwise() : value;
}

type Ended = Extract<FlowOutcome, { status: 'ended' }>;

/**
 * The result of a flow tool that ended without its final action: `outcome` with the way it ended (the
 * default of that way when it gives undefined), else as the one-way hooks word it (endedResult).
 */
export function endedOutcome<T>(
  owner: string,
  outcome: Ended,
  hooks: OutcomeHooks<T>,
  otherwise: (text: string, error: boolean) => T,
): T | Promise<T> {
  if (!hooks.outcome) return endedResult(owner, outcome, hooks, otherwise);
  const { status: _ended, ...info } = outcome;
  const message = endedText(owner, outcome);
  const stopped = outcome.how === 'stopped' || outcome.how === 'failed';
  const how = outcome.how === 'failed' ? 'load_failed' : outcome.how;
  const told = asDeclared(hooks.outcome)(stopped ? { ...info, how, message } : { ...info, how });
  return orElse(told, () => otherwise(message, stopped));
}

/** The result of a final action that failed: `outcome` or `failed`; the error again when neither words it. */
export function failedOutcome<T>(info: { readonly error: unknown }, hooks: OutcomeHooks<T>): T | Promise<T> {
  const rethrow = (): never => {
    throw info.error;
  };
  if (hooks.outcome) return orElse(asDeclared(hooks.outcome)({ ...info, how: 'final_failed' }), rethrow);
  return hooks.failed ? asDeclared(hooks.failed)(info) : rethrow();
}
