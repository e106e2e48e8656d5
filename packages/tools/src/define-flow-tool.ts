// A tool declared as a flow of questions, served by the engine like any other tool.
import type { QuestionFallback, ToolAnnotations, ToolDefinition, ToolResultView } from '@roundtrip/engine';
import type { z } from 'zod';
import { declareFlow } from './declare-flow.ts';
import { asDeclared, flowTool } from './engine-door.ts';
import { confirmedNow, confirmedShown, type FinalFailed, type FinalTransactionArg, withFinalAction } from './final-action.ts';
import type { FinishInput } from './final-input.ts';
import type { FlowOutcome } from './flow-context.ts';
import type { FlowLoaders, LoadedOf, LoadersOf } from './flow-loaders.ts';
import { shownNow } from './flow-reads.ts';
import { registerFlow } from './flow-registry.ts';
import { flowMachine } from './flow-setup.ts';
import type { AnswersOf, StepSpec } from './flow-spec.ts';
import { type DeclaredSteps, declaredSteps, type FinalAnswersOf, type FlowSteps, type StepsOf } from './flow-steps.ts';
import { checkFlowTask } from './flow-tasks.ts';
import { checkOutcomeHooks, endedOutcome, failedOutcome, handlesFinalFailure, type OutcomeInfo } from './flow-tool-outcome.ts';
import { checkedMigrations, type FlowVersioning, withVersion } from './flow-version.ts';

/** How the user left a flow early: at which step, how, and what was known by then. */
export interface EndedInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> {
  readonly step: keyof StepsOf<TSteps> & string;
  readonly how: 'declined' | 'cancelled' | 'abandoned';
  readonly input: TInput;
  readonly answers: AnswersOf<StepsOf<TSteps>>;
  readonly loaded: TLoaded;
}

/**
 * How the flow stopped itself early: an `end` rule of `step` held (`stopped`), or its load failed after
 * its retries (`failed`); `message` is the flow's words for the user, rendered (the rule's, the step's
 * `onError`, or by default a sentence saying which step could not load).
 */
export interface StoppedInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> {
  readonly step: keyof StepsOf<TSteps> & string;
  readonly how: 'stopped' | 'failed';
  readonly message: string;
  readonly input: TInput;
  readonly answers: AnswersOf<StepsOf<TSteps>>;
  readonly loaded: TLoaded;
}

/**
 * How the final action failed: it threw (a recorded failure replays as an Error with the same message),
 * or the server that ran it stopped before recording its outcome (`EffectOutcomeUnknownError`: whether
 * it acted is unknown, so read your store), and what the flow knew.
 */
export interface FailedInfo<TSteps, TInput = Record<string, unknown>, TLoaded = Readonly<Record<string, unknown>>> {
  readonly error: unknown;
  readonly input: TInput;
  readonly answers: AnswersOf<StepsOf<TSteps>>;
  readonly loaded: TLoaded;
}

/** Put before a result recorded earlier in the conversation for other answers. */
const EARLIER =
  'This was already done earlier in this conversation, with other answers; the new answers were not used. What was done then:';

/** What a flow tool's final action returns: `structured` typed by the `output` schema when there is one. */
export type FlowToolResult<TOutput extends z.ZodObject = z.ZodObject> = ToolResultView<z.input<TOutput>>;

/** A value as a literal may write it: its arrays and objects readonly (what a `const` literal's type is). */
type Written<T> = T extends readonly (infer E)[]
  ? readonly Written<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Written<T[K]> }
    : T;

/**
 * What a flow tool's functions (`final`, `outcome`) may return: a FlowToolResult whose
 * structured content may be readonly. Their results are inferred as `const`, so a literal keeps its type
 * (`status: 'booked'` fits `z.enum(['booked', …])` without `as const`), then checked against the schema.
 */
export type WrittenToolResult<TOutput extends z.ZodObject = z.ZodObject> = ToolResultView<Written<z.input<TOutput>>>;

export interface FlowToolConfig<
  TInput extends z.ZodObject,
  TSteps extends Record<string, StepSpec> | FlowSteps,
  TOutput extends z.ZodObject = z.ZodObject,
  TLoaders extends FlowLoaders<z.output<TInput>, TRecord> = Record<never, never>,
  TFinal extends WrittenToolResult<TOutput> = WrittenToolResult<TOutput>,
  TEnded extends WrittenToolResult<TOutput> = WrittenToolResult<TOutput>,
  TStopped extends WrittenToolResult<TOutput> = WrittenToolResult<TOutput>,
  TFailed extends WrittenToolResult<TOutput> = WrittenToolResult<TOutput>,
  TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
  TInTransaction extends boolean = false,
  TOutcome extends WrittenToolResult<TOutput> = WrittenToolResult<TOutput>,
> extends FlowVersioning {
  /** Tool name as clients call it: 1–128 characters of letters, digits, `_`, `-` and `.`. */
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  /** The tool's arguments; templates and conditions read them as `input.<name>`. */
  readonly input: TInput;
  /**
   * The steps in order: each goes to the next unless its `next` says otherwise; after the last, `final`
   * runs. Either a record (`{ when: ask(…), confirm: review(…) }`) or, typed all the way, a function
   * declaring them in order, `(flow) => flow.ask('when', …).review('confirm', …)`: each step's check,
   * `show`, conditions and messages then see the answers before it, and `final` gets required the
   * answers every way to it passes (see StepsBuilder).
   */
  readonly steps: DeclaredSteps<z.output<TInput>, TSteps, TLoaders, TRecord>;
  /**
   * The functions the `load` steps run, by name (`load({ run: 'findOrder' })`), as actors are named in
   * setup(): the machine config names them, the diagrams show them.
   */
  readonly loaders?: LoadersOf<TLoaders, z.output<TInput>, TRecord>;
  /**
   * The final action, with the input, the answers and the loaded values typed from the steps. It runs
   * at most once per conversation through the engine's effect ledger: a replayed final retry gets the
   * recorded result. With `finalInLedgerTransaction: true` it also gets `transaction`.
   */
  readonly final: (
    args: {
      input: z.output<TInput>;
      answers: FinalAnswersOf<TSteps>;
      loaded: LoadedOf<StepsOf<TSteps>, TLoaders>;
    } & FinalTransactionArg<TInTransaction>,
  ) => TFinal | Promise<TFinal>;
  /**
   * The final action's name: the effect ledger records it under this name, logs and diagrams name it
   * (progress never does: see `finalProgress`). Renaming it is a new version (see `version`).
   * @defaultValue 'finish'
   */
  readonly finalName?: string;
  /**
   * What the user reads in a progress notification as the final action starts (`'Booking the room…'`):
   * plain text. @defaultValue 'Finishing…'
   */
  readonly finalProgress?: string;
  /**
   * The final action may take long (minutes, not seconds): a client that accepts tasks gets a task while
   * it runs, completed with its result; without that consent it runs inside the request as before. It
   * still runs at most once. Only with `task`. @defaultValue false
   */
  readonly finalLong?: boolean;
  /**
   * Whether the tool answers a task (MCP tasks, SEP-2663) while its long work runs (a `load` step with
   * `long: true`, or `finalLong: true`): `'optional'` to a client that declares the tasks extension (others
   * wait inside the request as before), `'required'` only to such clients (others get -32021).
   * A flow with `task` must have long work, and long work needs `task`. @defaultValue undefined: never a task
   */
  readonly task?: 'optional' | 'required';
  /**
   * The final action writes to the effect ledger's own database (your tables in the ledger's SQLite file
   * or PostgreSQL database): it then gets `transaction`, the ledger's transaction, and its claim, its
   * writes through `sqliteTransaction(transaction)` (`@roundtrip/engine/sqlite`) or
   * `postgresTransaction(transaction)` (`@roundtrip/engine/postgres`) and its result commit together:
   * exactly once, where without it a crash between the action and its record leaves the outcome unknown.
   * A final action that throws has its writes rolled back. It holds the ledger's lock while it runs: keep
   * it to its statements. `transaction` is undefined when the engine's ledger offers none (the memory
   * ledger): the action then writes on its own connection, at most once. @defaultValue false
   */
  readonly finalInLedgerTransaction?: TInTransaction;
  /** The schema of `structuredContent`; every result is checked against it before it is sent. */
  readonly output?: TOutput;
  /**
   * The result of every way the conversation ends other than the final action's result, told apart by
   * `info.how` (see {@link OutcomeInfo}): the user left (`'declined'`, `'cancelled'`, `'abandoned'`), an
   * `end` rule held (`'stopped'`), a load failed (`'load_failed'`), the final action failed
   * (`'final_failed'`). Return undefined for the default of that way: a text saying nothing was done when
   * the user left; the flow's message as an error result (`isError`, no structured content needed even
   * with an `output` schema) when it stopped or a load failed; the round failing as without the hook when
   * the final action failed (the client gets a generic error, the log says why). It may be async (read
   * your store: a state from before another round acted may be answered late). `ended`, `stopped` and
   * `failed` word one way each, for a tool that words only that one; a tool gives either `outcome` or them.
   */
  readonly outcome?: (
    info: OutcomeInfo<TSteps, z.output<TInput>, LoadedOf<StepsOf<TSteps>, TLoaders>>,
  ) => TOutcome | undefined | Promise<TOutcome | undefined>;
  /**
   * The result when the user declined, cancelled or abandoned; by default a text saying nothing was done.
   * It may be async (read your store: a state from before another round acted may be answered late).
   */
  readonly ended?: (info: EndedInfo<TSteps, z.output<TInput>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => TEnded | Promise<TEnded>;
  /**
   * The result when an `end` rule ended the flow or a load failed; by default the flow's message as an
   * error result (`isError`), which needs no structured content even with an `output` schema. It may be async.
   */
  readonly stopped?: (info: StoppedInfo<TSteps, z.output<TInput>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => TStopped | Promise<TStopped>;
  /**
   * The result when the final action failed (see {@link FailedInfo}): word what happened, reading your
   * store if you need to (it may be async); throw to fail the round as without it. Without `failed`, a
   * failed final action fails the round: the client gets a generic error and the log says why.
   */
  readonly failed?: (info: FailedInfo<TSteps, z.output<TInput>, LoadedOf<StepsOf<TSteps>, TLoaders>>) => TFailed | Promise<TFailed>;
  /**
   * How every question is asked of a host that cannot show forms (it declared no elicitation, like LM
   * Studio): `'model'` puts each to the model, which asks the user and calls the tool again with the
   * answers and a sealed continuation token; a step or form's own `fallback` overrides it (`false`: never).
   * A tool that may be destructive (no `readOnlyHint: true` or `destructiveHint: false`) must opt in with
   * `{ via: 'model', onDestructiveTool: true }`. Without a fallback such hosts get -32021.
   */
  readonly fallback?: QuestionFallback;
}

/**
 * Defines a tool whose questions are declared as steps and compiled to an XState machine. Checks the
 * whole declaration at once and throws a RoundtripDefinitionError listing every problem.
 *
 * @example
 * const book = defineFlowTool({
 *   name: 'book_meeting', description: 'Book a room', input: z.object({ topic: z.string() }),
 *   steps: { when: ask({ message: 'When is "{{input.topic}}"?', fields: { date: field.text({ format: 'date' }) } }) },
 *   final: ({ input, answers }) => ({ text: `Booked ${input.topic} on ${answers.when?.date}.` }),
 * });
 */
export function defineFlowTool<
  const TInput extends z.ZodObject,
  const TSteps extends Record<string, StepSpec> | FlowSteps,
  TOutput extends z.ZodObject = z.ZodObject,
  TLoaders extends FlowLoaders<z.output<TInput>, TRecord> = Record<never, never>,
  // each function's result is inferred as const (its literals keep their types), then checked against the output schema
  const TFinal extends WrittenToolResult<NoInfer<TOutput>> = WrittenToolResult<NoInfer<TOutput>>,
  const TEnded extends WrittenToolResult<NoInfer<TOutput>> = WrittenToolResult<NoInfer<TOutput>>,
  const TStopped extends WrittenToolResult<NoInfer<TOutput>> = WrittenToolResult<NoInfer<TOutput>>,
  const TFailed extends WrittenToolResult<NoInfer<TOutput>> = WrittenToolResult<NoInfer<TOutput>>,
  // the steps when given as a record, for the loaders' answers (a function's are not known to them: see LoadersOf)
  const TRecord extends Record<string, StepSpec> = Record<string, StepSpec>,
  // true when the final action runs in the ledger's transaction: it then gets `transaction`
  const TInTransaction extends boolean = false,
  const TOutcome extends WrittenToolResult<NoInfer<TOutput>> = WrittenToolResult<NoInfer<TOutput>>,
>(
  config: FlowToolConfig<TInput, TSteps, TOutput, TLoaders, TFinal, TEnded, TStopped, TFailed, TRecord, TInTransaction, TOutcome>,
): ToolDefinition {
  const owner = `tool '${config.name}'`;
  checkOutcomeHooks(owner, config);
  const final = asDeclared(config.final);
  const steps = declaredSteps(config.steps);
  const declared = declareFlow(owner, config.name, config.input, steps, final, config.loaders, config.fallback);
  checkFlowTask(owner, declared.compiled, config.task, config.finalLong === true);
  const finalAction = {
    name: config.finalName,
    progress: config.finalProgress,
    long: config.finalLong,
    handlesFailure: handlesFinalFailure(config),
  };
  const named = withFinalAction(owner, declared, steps, finalAction, (compiled) => flowMachine(compiled, final));
  const flow = withVersion(named, config.version, final);
  const review = (input: FinishInput) => (input.review ? shownNow(flow.compiled, input.review, input) : null);
  const definition = flowTool({
    ...(config.migrations ? { migrations: checkedMigrations(flow.compiled, config.version, config.migrations) } : {}),
    name: config.name,
    description: config.description,
    title: config.title,
    annotations: config.annotations,
    ...(config.task !== undefined && { task: config.task }),
    input: config.input,
    output: config.output,
    questions: flow.questions,
    machine: flow.machine,
    final: {
      name: finalAction.name ?? 'finish',
      effect: {
        once: true,
        ...(config.finalInLedgerTransaction === true && { inLedgerTransaction: true }),
        // what the last review showed from the server's data, and the values forms asked to confirm,
        // read again right before the final action
        confirmed: {
          shown: ({ input }: { input: FinishInput }) => confirmedShown(flow.compiled, input),
          current: ({ input }: { input: FinishInput }) => confirmedNow(flow.compiled, input, review),
        },
      },
    },
    result: (output: FlowOutcome | FinalFailed): ToolResultView<unknown> | Promise<ToolResultView<unknown>> => {
      if (output.status === 'failed') {
        const { status: _failed, ...info } = output;
        return failedOutcome<ToolResultView<unknown>>(info, config);
      }
      if (output.status === 'done') {
        const view = output.result as ToolResultView<unknown>;
        if (!output.earlier) return view;
        // the final action ran before in this conversation, for other answers: say so rather than pretend
        return { ...view, text: `${EARLIER} ${view.text}` };
      }
      return endedOutcome<ToolResultView<unknown>>(config.title ?? config.name, output, config, (text, error) =>
        error ? { text, isError: true } : { text },
      );
    },
  });
  registerFlow(definition, flow, final);
  return definition;
}
