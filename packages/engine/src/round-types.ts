// The types one round of any MRTR method is made of: what the request carries, what the engine holds for
// every round, what a method contributes, and how a tools/call asks through the model. A leaf of the
// engine's imports: the round's phases (run-step.ts and the round-*.ts files), fallback-arguments.ts and
// create-engine.ts all import these from here, and this file imports types only, from files that do not
// import the round.
import type { Actor, AnyStateMachine, InspectionEvent } from 'xstate';
import type { DefinitionInternals } from './definition-internals.ts';
import type { EffectLedger } from './effect-ledger.ts';
import type { Keyring } from './keyring.ts';
import type { RoundReport, RoundTrace } from './round-report.ts';
import type { StateBinding } from './state-envelope.ts';
import type { EngineLogEntry, StepOutcome } from './step-outcome.ts';
import type { TaskReport } from './task-report.ts';
import type { ClientCapabilities } from './wire-shapes.ts';

/** What one round of any MRTR method carries besides its own arguments. */
export interface RoundRequest {
  inputResponses?: unknown;
  /** Exactly as the client sent it (absent when the client sent none). */
  requestState?: unknown;
  /** Who is calling; states are bound to it. */
  principal: string;
  /** The client capabilities this request declared (per request on 2026-07-28, from initialize before). */
  capabilities: ClientCapabilities | undefined;
  signal?: AbortSignal;
  /**
   * True when the requestState never left the server: a 2025-era round, which the server holds open
   * while the host asks the user (the SDK's legacy shim). Its lifetime is then not checked, since the
   * user may take longer to answer than a state lives; every other check still applies.
   */
  stateHeldByServer?: boolean;
  /** True when this request's client capabilities declare the tasks extension (the client consents to a task answer). */
  tasks?: boolean;
  /** Called as invoked actors start within this round; a transport turns it into progress notifications. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** Work the machine started while serving a request: `progress` grows by one with each update. */
export interface ProgressUpdate {
  progress: number;
  message: string;
}

/** What the engine holds for every round: keys, limits, the ledger, the log. */
export interface StepContext {
  readonly keyring: Keyring;
  readonly audienceTag: Uint8Array;
  readonly ttlSeconds: number;
  readonly maxStateBytes: number;
  readonly settleTimeoutMs: number;
  readonly maxRounds: number;
  readonly now: () => number;
  /** The operator's log; undefined when none was given, and then no entry is built at all. */
  readonly log: ((entry: EngineLogEntry) => void) | undefined;
  readonly ledger: EffectLedger;
  readonly inflight: Map<string, Promise<unknown>>;
  readonly principalTag: (principal: string) => Uint8Array;
  /** The arguments digest of a round: `scope` (the method and target) and the validated arguments. */
  readonly argsTag: (scope: string, args: Record<string, unknown>) => Uint8Array;
  /** Receives a report of every round; see EngineOptions.inspect. */
  readonly inspect?: (report: RoundReport) => void;
  /** Receives a report of every recorded change of a task; see EngineOptions.inspectTasks. */
  readonly inspectTasks?: (report: TaskReport) => void;
  /** Show answer values to `inspect` (field names only otherwise). */
  readonly inspectAnswers?: 'masked' | 'shown';
  /** XState's inspection events of every round's actors; see EngineOptions.inspectActors. */
  readonly inspectActors?: (event: InspectionEvent) => void;
}

/** What a method contributes to the step: its definition, validated arguments, binding, and how failure looks. */
export interface StepTarget<TResult> {
  /** `tool refund_order`, for log lines. */
  readonly label: string;
  readonly definition: DefinitionInternals;
  /** Digest of method and target (tool name, prompt name, resource URI template). */
  readonly targetTag: Uint8Array;
  /** `tools/call\0refund_order`: what the arguments digest is prefixed with. */
  readonly argsScope: string;
  readonly args: Record<string, unknown>;
  /** Passed to the definition's finish (the URI actually read). */
  readonly finishWith: { uri?: string };
  /** The client-facing outcome of a failure: a tool error result for tools, a JSON-RPC error otherwise. */
  readonly fail: (text: string) => StepOutcome<TResult>;
  /** How to ask through the model: only tools/call of a tool with fallback questions (prompts and resources have no model in the loop). */
  readonly modelFallback?: ModelFallback<TResult>;
  /** How a tool that answers tasks (SEP-2663) does: only tools/call of a tool with a `task` option. */
  readonly task?: TaskTarget<TResult>;
}

/** What a tools/call round of a tool that answers tasks needs to become one. */
export interface TaskTarget<TResult> {
  readonly mode: 'optional' | 'required';
  /** The tool's name. */
  readonly tool: string;
  /** Records the task and carries the round's actor on in the background: the actor is the runner's from then on. */
  start(round: Round<TResult>, actor: Actor<AnyStateMachine>): Promise<StepOutcome<TResult>>;
  /** Records a task that finished within the request that created it (a tool whose `task` is 'required'). */
  finished(round: Round<TResult>, result: TResult): Promise<StepOutcome<TResult>>;
}

/** What a tools/call round needs to ask through the model; absent for tools without fallback questions. */
export interface ModelFallback<TResult> {
  /** The tool's name, as the model calls it. */
  readonly tool: string;
  /** What continuation tokens are bound to instead of the target: a continuation never passes as a requestState, nor the reverse. */
  readonly continuationTag: Uint8Array;
  /** This round carries a continuation token (as `requestState`) and the model's answers (as `inputResponses`). */
  readonly continued: boolean;
  /** The result that carries the instructions to the model. */
  readonly answer: (text: string) => StepOutcome<TResult>;
}

/** One round while it runs: what it was asked, what it is bound to, and where it stands. */
export interface Round<TResult> {
  readonly ctx: StepContext;
  readonly target: StepTarget<TResult>;
  readonly request: RoundRequest;
  /** What an `inspect` hook is told; undefined without one. */
  readonly trace: RoundTrace | undefined;
  /** What the state is bound to: audience, principal, target and arguments. */
  readonly binding: StateBinding;
  /** The conversation, base64url; empty until the state is opened (or a new one is drawn). */
  run: string;
  /** This round's number: 1 without a state, one past the state's round with one. */
  number: number;
  /** The actor went on as a task: the task runner ends it, not the round. */
  detached?: boolean;
}
