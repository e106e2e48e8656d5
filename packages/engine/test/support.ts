// Shared helpers for the engine tests: an engine with a captured log, narrowing of step outcomes,
// definition problems, and promises a test resolves by hand.
import { expect } from 'vitest';
import {
  type ClientCapabilities,
  type ContentBlock,
  createEngine,
  createKeyring,
  type DefinitionProblem,
  type ElicitInputRequest,
  type Engine,
  type EngineLogEntry,
  type EngineOptions,
  generateKey,
  type InputRequest,
  type PromptDefinition,
  type PromptGetRequest,
  type ResourceDefinition,
  type ResourceReadRequest,
  RoundtripDefinitionError,
  type StepOutcome,
  type ToolCallRequest,
  type ToolDefinition,
} from '../src/index.ts';

export const FORM: ClientCapabilities = { elicitation: {} };

/** One key shared by every engine of a test file unless a test asks for another. */
export const sharedKeyring = createKeyring([generateKey()]);

type Defaults = 'principal' | 'capabilities';

export interface TestEngine {
  engine: Engine;
  logs: EngineLogEntry[];
  /** Calls a tool as principal 'ada' with form elicitation declared, unless the request says otherwise. */
  call: (request: Partial<ToolCallRequest> & { name: string }) => ReturnType<Engine['callTool']>;
  /** Gets a prompt, with the same defaults as `call`. */
  getPrompt: (request: Omit<PromptGetRequest, Defaults> & Partial<Pick<PromptGetRequest, Defaults>>) => ReturnType<Engine['getPrompt']>;
  /** Reads a resource, with the same defaults as `call`. */
  readResource: (
    request: Omit<ResourceReadRequest, Defaults> & Partial<Pick<ResourceReadRequest, Defaults>>,
  ) => ReturnType<Engine['readResource']>;
  /** Resolves once `count` entries with this event name have been logged (at once if they already were). */
  logged: (event: string, count?: number) => Promise<void>;
}

export function makeEngine(tools: readonly ToolDefinition[], options: Partial<EngineOptions> = {}): TestEngine {
  const logs: EngineLogEntry[] = [];
  const waiters: { event: string; count: number; resolve: () => void }[] = [];
  const seen = (event: string) => logs.filter((e) => e.event === event).length;
  const log = (entry: EngineLogEntry) => {
    logs.push(entry);
    for (const waiter of [...waiters]) {
      if (seen(waiter.event) >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const engine = createEngine({ tools, keyring: sharedKeyring, audience: 'test-server', log, ...options });
  const defaults = { principal: 'ada', capabilities: FORM };
  return {
    engine,
    logs,
    call: (request) => engine.callTool({ ...defaults, ...request }),
    getPrompt: (request) => engine.getPrompt({ ...defaults, ...request }),
    readResource: (request) => engine.readResource({ ...defaults, ...request }),
    logged: (event, count = 1) =>
      seen(event) >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ event, count, resolve })),
  };
}

/** An engine serving prompts and resources (and optionally tools). */
export function makeServer(
  parts: { tools?: ToolDefinition[]; prompts?: PromptDefinition[]; resources?: ResourceDefinition[] },
  options: Partial<EngineOptions> = {},
): TestEngine {
  return makeEngine(parts.tools ?? [], {
    ...(parts.prompts ? { prompts: parts.prompts } : {}),
    ...(parts.resources ? { resources: parts.resources } : {}),
    ...options,
  });
}

function narrow<R, T extends StepOutcome<R>['type']>(outcome: StepOutcome<R>, type: T): Extract<StepOutcome<R>, { type: T }> {
  expect(outcome.type, JSON.stringify(outcome)).toBe(type);
  return outcome as Extract<StepOutcome<R>, { type: T }>;
}

/** The outcome of a round that asks the user only (forms and pages), typed so. */
export const inputRequired = <R>(outcome: StepOutcome<R>) => {
  const asking = narrow(outcome, 'input_required');
  for (const request of Object.values(asking.inputRequests)) expect(request.method).toBe('elicitation/create');
  return asking as typeof asking & { inputRequests: Record<string, ElicitInputRequest> };
};
export const complete = <R>(outcome: StepOutcome<R>) => narrow(outcome, 'complete');
export const failed = <R>(outcome: StepOutcome<R>) => narrow(outcome, 'error');

/** The text of a content block, checking it is text. */
export const textIn = (block: ContentBlock | undefined): string => {
  expect(block?.type, JSON.stringify(block)).toBe('text');
  return block?.type === 'text' ? block.text : '';
};

/** The message of an elicitation input request; '' for none, or for a sampling or roots request. */
export const messageOf = (request: InputRequest | undefined): string =>
  request?.method === 'elicitation/create' ? request.params.message : '';

/** An elicitation answer as the client sends it inside `inputResponses`. */
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
export const decline = { action: 'decline' } as const;
export const cancel = { action: 'cancel' } as const;

/** The one error every refused requestState gets, with the coarse reason as data. */
export const refused = (reason: 'invalid' | 'expired' | 'mismatch' | 'outdated') => ({
  type: 'error' as const,
  error: {
    code: -32602,
    message: 'Invalid or expired requestState',
    data: {
      reason,
      hint: `${reason === 'outdated' ? 'The server was updated since this conversation started. ' : ''}Start over: send the request again without requestState or inputResponses.`,
    },
  },
});

/** The text every tool gets when its round fails on the server. */
export const failedText = (owner: string) => `${owner} failed on the server before it could finish; the details are in the server's log.`;

/** Runs `fn`, expecting it to throw a RoundtripDefinitionError; returns the error. */
export function definitionError(fn: () => unknown): RoundtripDefinitionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    expect((error as RoundtripDefinitionError).name).toBe('RoundtripDefinitionError');
    return error as RoundtripDefinitionError;
  }
  throw new Error('expected a RoundtripDefinitionError, but nothing was thrown');
}

/** The problems of the RoundtripDefinitionError `fn` throws. */
export const problemsOf = (fn: () => unknown): readonly DefinitionProblem<string>[] => definitionError(fn).problems;

/** A promise with its resolve and reject, for holding work open until the test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The form of an input request (undefined for a URL-mode one). */
export const formOf = (request: ElicitInputRequest) => (request.params.mode === 'form' ? request.params.requestedSchema : undefined);
