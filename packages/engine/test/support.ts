// Shared helpers for the engine tests: an engine with a captured log, and narrowing of step outcomes.
import { expect } from 'vitest';
import {
  type ClientCapabilities,
  type Engine,
  type EngineLogEntry,
  type EngineOptions,
  type StepOutcome,
  type ToolCallRequest,
  type ToolDefinition,
  createEngine,
  createKeyring,
  generateKey,
} from '../src/index.ts';

export const FORM: ClientCapabilities = { elicitation: {} };

/** One key shared by every engine of a test file unless a test asks for another. */
export const sharedKeyring = createKeyring([generateKey()]);

export interface TestEngine {
  engine: Engine;
  logs: EngineLogEntry[];
  /** Calls a tool as principal 'ada' with form elicitation declared, unless the request says otherwise. */
  call: (request: Partial<ToolCallRequest> & { name: string }) => Promise<StepOutcome>;
}

export function makeEngine(tools: readonly ToolDefinition[], options: Partial<EngineOptions> = {}): TestEngine {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({ tools, keyring: sharedKeyring, audience: 'test-server', log: (entry) => logs.push(entry), ...options });
  const call = (request: Partial<ToolCallRequest> & { name: string }) =>
    engine.callTool({ principal: 'ada', capabilities: FORM, ...request });
  return { engine, logs, call };
}

type Of<T extends StepOutcome['type']> = Extract<StepOutcome, { type: T }>;

function narrow<T extends StepOutcome['type']>(outcome: StepOutcome, type: T): Of<T> {
  expect(outcome.type, JSON.stringify(outcome)).toBe(type);
  return outcome as Of<T>;
}

export const inputRequired = (outcome: StepOutcome) => narrow(outcome, 'input_required');
export const complete = (outcome: StepOutcome) => narrow(outcome, 'complete');
export const failed = (outcome: StepOutcome) => narrow(outcome, 'error');

/** An elicitation answer as the client sends it inside `inputResponses`. */
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
export const decline = { action: 'decline' } as const;
export const cancel = { action: 'cancel' } as const;
