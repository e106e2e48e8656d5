// The methods of MCP tasks (SEP-2663) on a 2026-07-28 connection: tasks/get, tasks/update and tasks/cancel, one
// entry each, served by the engine. A task handle is answered by tools/call (create-protocol-server.ts); these
// methods read it, answer its questions and cancel it. The SDK (2.4.0) knows none of them on 2026-07-28, so
// they are registered with its three-argument setRequestHandler and a params schema of our own (the package has
// no zod). The SDK lifts `inputResponses` out of every request's params onto `ctx.mcpReq.inputResponses`, so
// tasks/update reads them there; it also checks an HTTP request's Mcp-Name header against `taskId`.
import { ProtocolError, type Result, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { type ClientCapabilities, type Engine, ErrorCode, type StepError, TASKS_EXTENSION, type TaskRequest } from '@roundtrip/engine';

/** The params every task method takes (the SDK has taken `_meta` and `inputResponses` out already). */
interface TaskIdParams {
  taskId: string;
}

/** `{ taskId: string }` as a Standard Schema: what the SDK validates a task method's params with (-32602 otherwise). */
const TASK_ID_PARAMS: StandardSchemaV1<unknown, TaskIdParams> = {
  '~standard': {
    version: 1,
    vendor: 'roundtrip',
    validate: (value) => {
      const taskId = (value as { taskId?: unknown } | undefined)?.taskId;
      return typeof taskId === 'string'
        ? { value: { taskId } }
        : {
            issues: [
              { message: 'taskId must be a string: the taskId of the task, as the tool call that created it answered', path: ['taskId'] },
            ],
          };
    },
  },
};

/** What a task method is given: the engine, the task asked about (with who asks and what their client declared), the SDK's context. */
type TaskMethod = (engine: Engine, request: TaskRequest, ctx: ServerContext) => Promise<Result>;

/** The engine's answer when it is not an error; its JSON-RPC error (an unknown task: -32602) ends the method otherwise. */
function unless<T extends { type: 'complete' }>(outcome: T | { type: 'error'; error: StepError }): T {
  if (outcome.type === 'error') {
    const { code, message, data } = outcome.error;
    throw new ProtocolError(code, message, data);
  }
  return outcome;
}

/** One entry per method: what the engine is asked, and what goes back (an empty ack is stamped `resultType: 'complete'`). */
const TASK_METHODS = {
  /** The task as its principal sees it: status, and what the status inlines (questions, result or error). Never resultType 'task'. */
  'tasks/get': async (engine, request) => {
    const outcome = unless(await engine.getTask(request));
    return { ...outcome.task };
  },
  /** Answers for the task's open questions; acked once they are recorded (a tasks/get right after sees them). */
  'tasks/update': async (engine, request, ctx) => {
    unless(await engine.updateTask({ ...request, inputResponses: ctx.mcpReq.inputResponses ?? {} }));
    return {};
  },
  /** Asks the task's work to stop; a task already finished is acked too. */
  'tasks/cancel': async (engine, request) => {
    unless(await engine.cancelTask(request));
    return {};
  },
} as const satisfies Record<string, TaskMethod>;

/** The error a task method answers to a request whose client did not declare the tasks extension (before any task is looked up). */
function missingConsent(method: string): ProtocolError {
  return new ProtocolError(
    ErrorCode.MissingRequiredClientCapability,
    `${method} needs the tasks extension: declare capabilities.extensions["${TASKS_EXTENSION}"] in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/**
 * Registers every task method on `server` (a 2026-07-28 connection's, whose engine offers tasks). Each checks
 * first that the request's client declared the tasks extension (-32021 otherwise, even for a task that does
 * not exist), then asks the engine. `capabilitiesOf` reads the request's own client capabilities.
 */
export function registerTaskMethods(
  server: Server,
  engine: Engine,
  principal: string,
  capabilitiesOf: (ctx: ServerContext) => ClientCapabilities | undefined,
): void {
  for (const [method, serve] of Object.entries(TASK_METHODS) as [string, TaskMethod][]) {
    server.setRequestHandler(method, { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
      const capabilities = capabilitiesOf(ctx);
      if (!declaresTasks(capabilities)) throw missingConsent(method);
      return serve(engine, { taskId, principal, capabilities }, ctx);
    });
  }
}

/** Whether client capabilities declare the tasks extension: the client consents to task answers and may call the task methods. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}
