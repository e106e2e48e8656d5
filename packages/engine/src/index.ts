// @roundtrip/engine: multi-step MCP tools, prompts and resources as XState machines, with no server
// memory between rounds. This file is the package's API contract: every export here is a decision.
// Runtime-neutral: the SQLite effect ledger lives behind the `@roundtrip/engine/sqlite` subpath.

export type { AnswerRelay, RelayedAnswer } from './answer-relay.ts';
export { createLocalAnswerRelay } from './answer-relay.ts';
export type {
  ArgumentCompleter,
  Completers,
  CompletionContext,
  CompletionOutcome,
  CompletionRequest,
} from './argument-completion.ts';
export type { ClientEvent } from './client-event.ts';
export { CLIENT_EVENT } from './client-event.ts';
export type { RootsQuestionSpec, SamplingQuestionSpec } from './client-requests.ts';
export { ConfirmedValueChangedError } from './confirmed-value.ts';
export type {
  Engine,
  EngineLimits,
  EngineOptions,
  PromptGetRequest,
  PromptListing,
  ResourceListing,
  ResourceReadRequest,
  ResourceTemplateListing,
  ToolCallRequest,
  ToolListing,
} from './create-engine.ts';
export { createEngine } from './create-engine.ts';
export type { PromptArgument, PromptConfig, PromptDefinition, PromptMessageView } from './define-prompt.ts';
export { definePrompt } from './define-prompt.ts';
export type { ResourceBody, ResourceConfig, ResourceDefinition } from './define-resource.ts';
export { defineResource } from './define-resource.ts';
export type { ToolConfig, ToolDefinition, ToolResultView } from './define-tool.ts';
export { defineTool } from './define-tool.ts';
export type { DefinitionProblem, DefinitionProblemCode } from './definition-error.ts';
export { ProblemList, RoundtripDefinitionError } from './definition-error.ts';
export type { DefinitionView, QuestionView } from './describe-definition.ts';
export { describeDefinition } from './describe-definition.ts';
export { canonicalJson } from './digest.ts';
export type { EffectKey, EffectLedger, EffectOutcome, EffectRecord } from './effect-ledger.ts';
export type { AnswerSchema } from './elicitation-schema.ts';
export type { EngineEvent } from './engine-events.ts';
export type { EngineTaskMethods, TaskOptions } from './engine-tasks.ts';
export type { EngineInspectOptions } from './inspect-options.ts';
export type { NonJson } from './json-value.ts';
export { firstNonJson } from './json-value.ts';
export type { Keyring } from './keyring.ts';
export { createKeyring, generateKey, KEY_BYTES, parseKey } from './keyring.ts';
export type { LedgerTransaction, TransactionalLedger } from './ledger-transaction.ts';
export { ledgerTransactionOf } from './ledger-transaction.ts';
export type { LogEventName, ServerEventName } from './log-events.ts';
export type { MachineMigration, MachineMigrations, MigrationSnapshot, SnapshotValue } from './machine-migrations.ts';
export type { MemoryLedger, MemoryLedgerOptions } from './memory-ledger.ts';
export { createMemoryLedger } from './memory-ledger.ts';
export { createMemoryTaskStore } from './memory-task-store.ts';
export type { EffectSpec } from './once-effect.ts';
export { EffectOutcomeUnknownError } from './once-effect.ts';
export type { DefinitionPresentation } from './presentation.ts';
export { presentationOf, setPresentation } from './presentation.ts';
export type {
  AnswerEvent,
  AnswerEvents,
  AnswerOf,
  AnyQuestions,
  AskMeta,
  FormView,
  QuestionFallback,
  QuestionKey,
  QuestionSpec,
  Questions,
  UrlQuestionSpec,
} from './questions.ts';
export { defineQuestions } from './questions.ts';
export type { InspectedAnswer, RoundReport } from './round-report.ts';
export type { ProgressUpdate, RoundRequest } from './round-types.ts';
export type { SafeTextOptions } from './safe-text.ts';
export { safeText } from './safe-text.ts';
export type { EngineLogEntry, StepError, StepOutcome } from './step-outcome.ts';
export { ErrorCode, INVALID_STATE_HINT, INVALID_STATE_MESSAGE, OUTDATED_STATE_HINT } from './step-outcome.ts';
export type { TaskQueue, TaskWork } from './task-queue.ts';
export type { TaskReport } from './task-report.ts';
export type { TaskHandle, TaskRequest, TaskStatus } from './task-shapes.ts';
export { TASKS_EXTENSION } from './task-shapes.ts';
export type { PendingQuestion, TaskRecord, TaskStore } from './task-store.ts';
export type { TaskView } from './task-view.ts';
export type {
  AudioContent,
  CacheHint,
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  ContentBlock,
  ElicitationProperty,
  ElicitationSchema,
  ElicitInputRequest,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  InputRequest,
  JsonObject,
  JsonValue,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  ResourceLink,
  RootsInputRequest,
  SamplingInputRequest,
  SamplingMessage,
  SamplingRequest,
  TextContent,
  ToolAnnotations,
  ToolInputSchema,
} from './wire-shapes.ts';
