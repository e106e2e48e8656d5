// @roundtrip/engine: multi-step MCP tools as XState machines, with no server memory between rounds.
// This file is the package's API contract: every export here is a decision.

export { defineTool } from './define-tool.ts';
export type { ToolConfig, ToolDefinition, ToolResultView } from './define-tool.ts';
export { ask } from './ask.ts';
export type { AnswerEvent, AnswerOf, AskSpec } from './ask.ts';
export { createEngine } from './create-engine.ts';
export type { Engine, EngineOptions, ProgressUpdate, ToolCallRequest, ToolListing } from './create-engine.ts';
export { createKeyring, generateKey, parseKey, KEY_BYTES } from './keyring.ts';
export type { Keyring } from './keyring.ts';
export { ErrorCode, INVALID_STATE_HINT, INVALID_STATE_MESSAGE } from './step-outcome.ts';
export type { EngineLogEntry, StepError, StepOutcome } from './step-outcome.ts';
export { RoundtripDefinitionError } from './definition-error.ts';
export type { RoundtripDefinitionErrorCode } from './definition-error.ts';
export { toElicitationSchema } from './elicitation-schema.ts';
export type { AnswerSchema } from './elicitation-schema.ts';
export type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  ElicitationProperty,
  ElicitationSchema,
  ElicitInputRequest,
  JsonObject,
  JsonValue,
  ToolInputSchema,
} from './wire-shapes.ts';
