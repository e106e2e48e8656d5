// What a flow tool may say about its final action beyond the action itself: the name it runs under (the
// effect ledger's record, progress, logs), values its forms asked the user to confirm that are read again
// right before it acts, and a hook for when it failed. Written into the compiled machine config.
import { canonicalJson, type LedgerTransaction, ledgerTransactionOf, ProblemList } from '@roundtrip/engine';
import type { CompiledFlow, DeclaredFlow } from './compiled-flow.ts';
import type { FinalInput, FinishInput } from './final-input.ts';
import { checkProgress } from './flow-checks.ts';
import { FINISH } from './flow-graph.ts';
import type { ConfirmedValue, ShowArgs, Shown } from './flow-spec.ts';
import { act, DONE, FINISHING, guard, type Transition } from './flow-transitions.ts';

/** The final action's name when the flow gives none. */
const DEFAULT_FINAL_NAME = 'finish';

/** What the final action's values look like to the effect ledger's re-check when forms confirm values. */
interface ConfirmedValues {
  /** What the last review showed (see ReviewStep.show), or null. */
  readonly review: Shown | null;
  /** Each confirming form on the way taken: its value. */
  readonly forms: Record<string, unknown>;
}

/** The forms on the way taken (answered, so they asked) that confirm a value. */
function confirmingForms(flow: CompiledFlow, input: FinalInput): Array<[string, ConfirmedValue]> {
  return [...flow.forms]
    .filter(([form, { spec }]) => spec.confirmed !== undefined && input.answers[form] !== undefined)
    .map(([form, { spec }]) => [form, spec.confirmed!]);
}

const hasConfirmingForms = (flow: CompiledFlow) => [...flow.forms.values()].some(({ spec }) => spec.confirmed !== undefined);
const argsOf = ({ input, answers, loaded }: FinalInput): ShowArgs => ({ input, answers, loaded });

/**
 * What the final action's effect re-checks, as shown: without confirming forms, what the last review
 * showed (as before); with them, that and each form's value.
 */
export function confirmedShown(flow: CompiledFlow, input: FinishInput): unknown {
  const review = input.shown ?? null;
  if (!hasConfirmingForms(flow)) return review;
  const forms: Record<string, unknown> = {};
  for (const [form, spec] of confirmingForms(flow, input)) forms[form] = spec.shown(argsOf(input)) ?? null;
  return { review, forms } satisfies ConfirmedValues;
}

/** The same values read now: the last review's `show` again (`review`), and each form's `current`. */
export async function confirmedNow(
  flow: CompiledFlow,
  input: FinishInput,
  review: (input: FinishInput) => Shown | Promise<Shown> | null | undefined,
): Promise<unknown> {
  const shown = (await review(input)) ?? null;
  if (!hasConfirmingForms(flow)) return shown;
  const forms: Record<string, unknown> = {};
  for (const [form, spec] of confirmingForms(flow, input)) forms[form] = (await spec.current(argsOf(input))) ?? null;
  return { review: shown, forms } satisfies ConfirmedValues;
}

/** Whether a ConfirmedValueChangedError's shown and current values differ for `form`. */
export function confirmedChanged(error: { shown: unknown; current: unknown }, form: string): boolean {
  const of = (values: unknown) => (values as Partial<ConfirmedValues> | null)?.forms?.[form] ?? null;
  return canonicalJson(of(error.shown)) !== canonicalJson(of(error.current));
}

/**
 * What a tool's final action gets besides its input, answers and loaded values when it declares
 * `finalInLedgerTransaction: true`: the effect ledger's transaction it runs in, or undefined when the
 * engine's ledger offers none (then it runs at most once, on the store's own connection).
 */
export type FinalTransactionArg<TInTransaction extends boolean> = [TInTransaction] extends [false]
  ? unknown
  : { readonly transaction: LedgerTransaction | undefined }; // `true`, or a `boolean` decided when the tool is made

/** The `transaction` argument of the final action run in the actor system `system`, when it runs in the ledger's transaction. */
export function finalTransaction(system: object): { readonly transaction: LedgerTransaction } | undefined {
  const transaction = ledgerTransactionOf({ system });
  return transaction ? { transaction } : undefined;
}

/** The final action's name as the config says (`runFinal`'s `actor`), or the default. */
export function finalNameOf(config: Readonly<Record<string, unknown>>): string {
  const finishing = (config.states as Record<string, { entry?: Array<{ params?: { actor?: unknown } }> }> | undefined)?.[FINISHING];
  const actor = finishing?.entry?.[0]?.params?.actor;
  return typeof actor === 'string' ? actor : DEFAULT_FINAL_NAME;
}

/** A final action that failed, for the tool's `failed`: the error, and what the flow knew. */
export interface FinalFailed extends FinalInput {
  readonly status: 'failed';
  readonly error: unknown;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Names the flow's own actors and states take. */
const TAKEN = new Set(['check', 'show', FINISH, FINISHING, DONE, 'ended']);

/** What a flow tool says about its final action. */
export interface FinalActionOptions {
  readonly name?: string;
  /** What progress says as it starts, instead of `Finishing…`. */
  readonly progress?: string;
  /** The final action may take long: its state is marked `meta.long`, the work of a task (see FlowToolConfig.finalLong). */
  readonly long?: boolean;
  /** The tool words a failure of the final action itself (`failed`): the flow ends with it instead of failing the round. */
  readonly handlesFailure: boolean;
}

function checkFinalAction(
  owner: string,
  flow: CompiledFlow,
  steps: Readonly<Record<string, unknown>>,
  name: string,
  { progress, long }: FinalActionOptions,
): void {
  const p = new ProblemList<'invalid_step' | 'invalid_template'>().at(owner);
  checkProgress(p, ['finalProgress'], progress);
  if (long !== undefined && typeof long !== 'boolean')
    p.add(
      ['finalLong'],
      'invalid_step',
      `finalLong is ${JSON.stringify(long)}, not true or false.`,
      'Write finalLong: true, or leave it out.',
    );
  if (name !== DEFAULT_FINAL_NAME && (!NAME.test(name) || TAKEN.has(name) || flow.loaders.has(name)))
    p.add(
      ['finalName'],
      'invalid_step',
      `'${name}' cannot name the final action: ${NAME.test(name) ? "it is taken by the flow's own actors, states or loaders" : 'it is not a plain name'}.`,
      'Name it after what it does, e.g. refund: a letter, then letters, digits or _ (at most 64), not a loader name.',
    );
  for (const [form, { step, spec }] of flow.forms) {
    const target = spec.confirmed?.onChange;
    if (spec.confirmed === undefined || (typeof target === 'string' && Object.hasOwn(steps, target))) continue;
    p.add(
      [`step '${step}'`, ...(form === step ? [] : [`form '${form}'`]), 'confirmed', 'onChange'],
      'invalid_step',
      `'${String(target)}' is not a step.`,
      `Name the step to go to when the value changed: the load step that reads it, or '${step}'.`,
    );
  }
  p.throwIfAny();
}

/**
 * Refuses `confirmed` on the forms of a flow without a final action that acts (a prompt's or a resource's
 * writes text): nothing would read the value again, so it would be silently ignored.
 */
export function refuseConfirmed(owner: string, flow: CompiledFlow, kind: 'prompt' | 'resource'): void {
  const p = new ProblemList<'invalid_step'>().at(owner);
  for (const [form, { step, spec }] of flow.forms) {
    if (spec.confirmed === undefined) continue;
    p.add(
      [`step '${step}'`, ...(form === step ? [] : [`form '${form}'`]), 'confirmed'],
      'invalid_step',
      `form '${form}' asks to confirm a value, but a ${kind} has no final action to read it again before: it would be ignored.`,
      `Remove 'confirmed' from form '${form}' (show the value in its message), or declare the flow as a tool (defineFlowTool) whose final action acts on it.`,
    );
  }
  p.throwIfAny();
}

/**
 * The flow with its final action named `name`, the confirmed values of its forms checked (going to their
 * `onChange` step when they changed), and, with `handlesFailure`, a failed final action kept for the
 * tool's result instead of failing the round. `rebuild` makes the machine again from the new config.
 */
export function withFinalAction(
  owner: string,
  flow: DeclaredFlow,
  steps: Readonly<Record<string, unknown>>,
  options: FinalActionOptions,
  rebuild: (compiled: CompiledFlow) => DeclaredFlow['machine'],
): DeclaredFlow {
  const name = options.name ?? DEFAULT_FINAL_NAME;
  checkFinalAction(owner, flow.compiled, steps, name, options);
  const changes: Transition[] = [...flow.compiled.forms]
    .filter(([, { spec }]) => spec.confirmed !== undefined)
    .map(([form, { spec }]) => ({
      target: spec.confirmed!.onChange,
      guard: guard('confirmedChanged', { form }),
      actions: [act('forgetConfirmed', { form })],
    }));
  if (name === DEFAULT_FINAL_NAME && changes.length === 0 && !options.handlesFailure && options.progress === undefined && !options.long)
    return flow;
  const states = flow.compiled.config.states as Record<string, Record<string, unknown>>;
  const finishing = states[FINISHING]!;
  const on = finishing.on as Record<string, Transition | Transition[]>;
  const done = on[`xstate.done.actor.${DEFAULT_FINAL_NAME}`]!;
  const failed = on[`xstate.error.actor.${DEFAULT_FINAL_NAME}`] as Transition[];
  // the review's own "shown changed" transitions stay; the last one (fail the round) is replaced when the tool words failures
  const keep = options.handlesFailure ? [...failed.slice(0, -1), { target: DONE, actions: [act('keepFailure')] }] : failed;
  const renamed = {
    ...finishing,
    // words and `long` are meta, not structure: changing them keeps states sealed before valid
    meta: {
      ...(finishing.meta as Record<string, unknown>),
      ...(options.progress !== undefined && { progress: options.progress }),
      ...(options.long === true && { long: true }),
    },
    ...(name === DEFAULT_FINAL_NAME ? {} : { entry: [act('runFinal', { actor: name })] }),
    on: { [`xstate.done.actor.${name}`]: done, [`xstate.error.actor.${name}`]: [...changes, ...keep] },
  };
  const config = { ...flow.compiled.config, states: { ...states, [FINISHING]: renamed } };
  const compiled = { ...flow.compiled, config };
  return { ...flow, compiled, machine: rebuild(compiled) };
}
