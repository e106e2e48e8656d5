import { type CompletionOutcome, type CompletionRequest, engineCompletion } from './argument-completion.ts';
import { withCacheHint } from './cache-hint.ts';
import type { PromptArgument, PromptDefinition } from './define-prompt.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { ToolDefinition } from './define-tool.ts';
import { definitionError, ProblemList } from './definition-error.ts';
import { internalsOf } from './definition-internals.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import type { EffectLedger } from './effect-ledger.ts';
import { type EngineTaskMethods, engineTasks, type TaskOptions, taskRequired } from './engine-tasks.ts';
import { fallbackCall } from './fallback-arguments.ts';
import type { EngineInspectOptions } from './inspect-options.ts';
import { clip } from './issue-text.ts';
import type { Keyring } from './keyring.ts';
import { createMemoryLedger } from './memory-ledger.ts';
import { readArguments } from './read-arguments.ts';
import type { ModelFallback, RoundRequest, StepContext, StepTarget } from './round-types.ts';
import { runStep } from './run-step.ts';
import { TAG_BYTES } from './state-envelope.ts';
import { type EngineLogEntry, ErrorCode, type StepOutcome } from './step-outcome.ts';
import { tagCache } from './tag-cache.ts';
import { declaresTasks } from './task-shapes.ts';
import type { CallToolResult, GetPromptResult, JsonObject, ReadResourceResult, ToolAnnotations, ToolInputSchema } from './wire-shapes.ts';

/** The limits of every round; each has a default. */
export interface EngineLimits {
  /** Lifetime of a state in seconds, renewed every round. @defaultValue 600 */
  stateTtlSeconds?: number;
  /** Largest requestState accepted, checked before any decoding. @defaultValue 65536 */
  maxStateBytes?: number;
  /** How long invoked actors may run within one round before it fails. @defaultValue 10000 */
  settleTimeoutMs?: number;
  /** Rounds one request may take before its state is refused. @defaultValue 64 */
  maxRounds?: number;
}

export interface EngineOptions extends EngineLimits, EngineInspectOptions {
  tools?: readonly ToolDefinition[];
  prompts?: readonly PromptDefinition[];
  resources?: readonly ResourceDefinition[];
  /** Keys that seal and open request states; see createKeyring. */
  keyring: Keyring;
  /** Who this server is, e.g. its MCP server name. States sealed for another audience are refused. */
  audience: string;
  /**
   * Where effects declared `once` are recorded. @defaultValue createMemoryLedger() — one process only;
   * use `createSqliteLedger` from `@roundtrip/engine/sqlite` when several processes serve the same key.
   */
  ledger?: EffectLedger;
  /**
   * Receives log entries for the operator: each an EngineEvent (its `event`, a reason `code` and its facts)
   * with the text an operator reads as `message`. Without it no entry is built at all.
   */
  log?: (entry: EngineLogEntry) => void;
  /** Clock in milliseconds, for tests. @defaultValue Date.now */
  now?: () => number;
  /** Tasks (SEP-2663) of the tools declaring `task`: their store (this process's memory unless given), lifetime and poll interval. */
  tasks?: TaskOptions;
}

/** One `tools/call` round as the engine sees it, whatever the transport. */
export interface ToolCallRequest extends RoundRequest {
  name: string;
  arguments?: unknown;
}

/** One `prompts/get` round. */
export interface PromptGetRequest extends RoundRequest {
  name: string;
  arguments?: unknown;
}

/** One `resources/read` round. */
export interface ResourceReadRequest extends RoundRequest {
  uri: string;
}

export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: ToolInputSchema;
  outputSchema?: ToolInputSchema;
  annotations?: ToolAnnotations;
}

export interface PromptListing {
  name: string;
  title?: string;
  description: string;
  arguments: PromptArgument[];
}

export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType?: string;
}

export interface ResourceTemplateListing {
  uriTemplate: string;
  name: string;
  title?: string;
  description: string;
  mimeType?: string;
}

/** Serves tools, prompts and resources one round at a time, keeping nothing between rounds (but tasks). */
export interface Engine extends EngineTaskMethods {
  listTools(): ToolListing[];
  listPrompts(): PromptListing[];
  listResources(): ResourceListing[];
  listResourceTemplates(): ResourceTemplateListing[];
  callTool(request: ToolCallRequest): Promise<StepOutcome<CallToolResult>>;
  getPrompt(request: PromptGetRequest): Promise<StepOutcome<GetPromptResult>>;
  readResource(request: ResourceReadRequest): Promise<StepOutcome<ReadResourceResult>>;
  /** Values offered for a prompt argument or a resource template's variable as the user types it (`completion/complete`). */
  complete(request: CompletionRequest): Promise<CompletionOutcome>;
  /** Whether any prompt argument or template variable offers values: declare the `completions` capability then. */
  offersCompletions(): boolean;
}

function limit(problems: ProblemList, name: keyof EngineLimits, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    problems.add(
      ['createEngine', name],
      'invalid_option',
      `'${name}' is ${String(value)}.`,
      `Give a whole number from 1 to ${max} (default ${fallback}).`,
    );
    return fallback;
  }
  return value;
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

function uniqueBy<T>(problems: ProblemList, kind: string, items: readonly T[], key: (item: T) => string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) {
    if (out.has(key(item)))
      problems.add(
        ['createEngine', `${kind} '${key(item)}'`],
        'duplicate_name',
        `two ${kind}s are named '${key(item)}'.`,
        `Give every ${kind} its own name.`,
      );
    out.set(key(item), item);
  }
  return out;
}

/** A tool's failure as the client sees it: an error result the model reads. */
const toolError = (text: string): StepOutcome<CallToolResult> => ({
  type: 'complete',
  result: { content: [{ type: 'text', text }], isError: true },
});

/**
 * Creates the engine that serves definitions over MRTR: each request opens the sealed state it
 * carries, rehydrates the machine, feeds in the answers, runs it until it settles, and answers with
 * the next questions (and a newly sealed state) or the final result. Throws a
 * RoundtripDefinitionError listing every problem with the options.
 *
 * @example
 * const engine = createEngine({ tools: [refundOrder], keyring: createKeyring([key]), audience: 'orders' });
 * const outcome = await engine.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities });
 */
export function createEngine(options: EngineOptions): Engine {
  const problems = new ProblemList();
  const ttlSeconds = limit(problems, 'stateTtlSeconds', options.stateTtlSeconds, 600, 7 * 86_400);
  const maxStateBytes = limit(problems, 'maxStateBytes', options.maxStateBytes, 64 * 1024, 1024 * 1024);
  const settleTimeoutMs = limit(problems, 'settleTimeoutMs', options.settleTimeoutMs, 10_000, 600_000);
  const maxRounds = limit(problems, 'maxRounds', options.maxRounds, 64, 1000);
  const tools = uniqueBy(problems, 'tool', options.tools ?? [], (t) => t.name);
  const prompts = uniqueBy(problems, 'prompt', options.prompts ?? [], (p) => p.name);
  const resources = uniqueBy(problems, 'resource', options.resources ?? [], (r) => r.uri ?? r.uriTemplate);
  for (const definition of [...tools.values(), ...prompts.values(), ...resources.values()]) {
    try {
      internalsOf(definition);
    } catch (error) {
      problems.add(
        ['createEngine', `${definition.kind} '${definition.name}'`],
        'invalid_option',
        (error as Error).message,
        'Pass only definitions made by defineTool, definePrompt and defineResource.',
      );
    }
  }
  if (typeof options.audience !== 'string' || options.audience === '') {
    problems.add(
      ['createEngine', 'audience'],
      'invalid_option',
      'the audience is empty.',
      "Give the server's name; states sealed for another audience are refused.",
    );
  }
  problems.throwIfAny();
  if (!options.keyring)
    throw definitionError(['createEngine', 'keyring'], 'invalid_key', 'no keyring was given.', 'Pass createKeyring([key]).');

  // tags that stay the same from request to request, computed once (targets are the definitions' own)
  const principalTag = tagCache(TAG_BYTES.sub, 256, 1024, 'sub\0');
  const argsTag = tagCache(TAG_BYTES.args);
  const targetTag = tagCache(TAG_BYTES.target, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  const ctx: StepContext = {
    keyring: options.keyring,
    audienceTag: digestBytes(`aud\0${options.audience}`, TAG_BYTES.aud),
    ttlSeconds,
    maxStateBytes,
    settleTimeoutMs,
    maxRounds,
    now: options.now ?? Date.now,
    log: options.log,
    ledger: options.ledger ?? createMemoryLedger(),
    inflight: new Map(),
    ...(options.inspect ? { inspect: options.inspect, inspectAnswers: options.inspectAnswers ?? 'masked' } : {}),
    ...(options.inspectTasks ? { inspectTasks: options.inspectTasks } : {}),
    ...(options.inspectActors ? { inspectActors: options.inspectActors } : {}),
    principalTag,
    // the same arguments come back every round of a conversation
    argsTag: (scope, args) => argsTag(`${scope}\0${canonicalJson(args)}`),
  };
  const rpcError = <T>(code: number, message: string, data?: Record<string, string | string[]>): StepOutcome<T> => ({
    type: 'error',
    error: { code, message, ...optional('data', data) },
  });

  const continuationTagOf = (tool: string) => targetTag(`tools/call\0${tool}\0continuation`);
  // what a tool's rounds are bound to and logged as, the same every call
  const toolTargets = new Map(
    [...tools.keys()].map((name) => {
      const scope = `tools/call\0${name}`;
      return [name, { label: `tool ${name}`, scope, tag: targetTag(scope) }] as const;
    }),
  );

  async function callTool(request: ToolCallRequest): Promise<StepOutcome<CallToolResult>> {
    const tool = tools.get(request.name);
    if (!tool) return rpcError(ErrorCode.InvalidParams, `Unknown tool: ${clip(request.name)}`, { tools: [...tools.keys()] });
    // consent to tasks matters only to a tool that can answer one
    const consents = tool.task !== undefined && (request.tasks ?? declaresTasks(request.capabilities));
    if (tool.task === 'required' && !consents) return taskRequired(tool.name);
    const definition = internalsOf(tool);
    // a tool with fallback questions takes the model's answers and continuation token beside its own arguments
    const call = fallbackCall(tool, definition.machine, request, continuationTagOf);
    if (!call.ok) return toolError(call.text);
    const parsed = readArguments(definition.args, call.args ?? {});
    const again = 'Call it again with arguments matching its input schema.';
    if (!parsed.ok) return toolError(`Invalid arguments for tool '${tool.name}': ${parsed.problems}. ${again}`);
    const target = toolTarget(tool, parsed.data as JsonObject, call.modelFallback);
    return runStep(ctx, target, tool.task === undefined ? call.round : { ...call.round, tasks: consents });
  }

  /** A round's target for the tool with these (validated) arguments: one literal, the shape V8 keeps per call site. */
  function toolTarget(tool: ToolDefinition, args: JsonObject, modelFallback?: ModelFallback<CallToolResult>): StepTarget<CallToolResult> {
    const { label, scope: argsScope, tag: targetTag } = toolTargets.get(tool.name)!;
    const task = tool.task === undefined ? undefined : tasks.targetFor(tool);
    return {
      label,
      definition: internalsOf(tool),
      targetTag,
      argsScope,
      args,
      finishWith: {},
      fail: toolError,
      ...(task && { task }),
      ...(modelFallback && { modelFallback }),
    };
  }
  const tasks = engineTasks(ctx, tools, options.tasks, (name: string, args: JsonObject) =>
    tools.has(name) ? toolTarget(tools.get(name)!, args) : undefined,
  );

  async function getPrompt(request: PromptGetRequest): Promise<StepOutcome<GetPromptResult>> {
    const prompt = prompts.get(request.name);
    if (!prompt) return rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${clip(request.name)}`, { prompts: [...prompts.keys()] });
    const definition = internalsOf(prompt);
    const parsed = readArguments(definition.args, request.arguments ?? {});
    if (!parsed.ok) {
      return rpcError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt '${prompt.name}': ${parsed.problems}. Ask for it again with arguments matching its list entry.`,
      );
    }
    const scope = `prompts/get\0${prompt.name}`;
    const fail = (text: string) => rpcError<GetPromptResult>(ErrorCode.InternalError, text);
    return runStep(
      ctx,
      {
        label: `prompt ${prompt.name}`,
        definition,
        targetTag: targetTag(scope),
        argsScope: scope,
        args: parsed.data,
        finishWith: {},
        fail,
      },
      request,
    );
  }

  async function readResource(request: ResourceReadRequest): Promise<StepOutcome<ReadResourceResult>> {
    let resource: ResourceDefinition | undefined;
    let variables: Record<string, string> | undefined;
    for (const candidate of resources.values()) {
      variables = candidate.match(request.uri);
      if (variables) {
        resource = candidate;
        break;
      }
    }
    if (!resource || !variables)
      return rpcError(ErrorCode.InvalidParams, `Resource not found: ${clip(request.uri)}`, { uri: clip(request.uri) });
    const definition = internalsOf(resource);
    const parsed = readArguments(definition.args, variables);
    if (!parsed.ok)
      return rpcError(ErrorCode.InvalidParams, `Resource not found: ${clip(request.uri)} (${parsed.problems})`, { uri: clip(request.uri) });
    const pattern = resource.uri ?? resource.uriTemplate;
    const scope = `resources/read\0${pattern}`;
    const fail = (text: string) => rpcError<ReadResourceResult>(ErrorCode.InternalError, text);
    const outcome = await runStep(
      ctx,
      {
        label: `resource ${clip(request.uri)}`,
        definition,
        targetTag: targetTag(scope),
        argsScope: scope,
        args: parsed.data,
        finishWith: { uri: request.uri },
        fail,
      },
      request,
    );
    return withCacheHint(outcome, definition.cache, request);
  }

  return {
    listTools: () =>
      [...tools.values()].map((t) => ({
        name: t.name,
        ...optional('title', t.title),
        description: t.description,
        inputSchema: t.inputSchema,
        ...optional('outputSchema', t.outputSchema),
        ...optional('annotations', t.annotations),
      })),
    listPrompts: () =>
      [...prompts.values()].map((p) => ({
        name: p.name,
        ...optional('title', p.title),
        description: p.description,
        arguments: [...p.arguments],
      })),
    listResources: () => [...resources.values()].flatMap((r) => (r.uri === undefined ? [] : [{ uri: r.uri, ...listed(r) }])),
    listResourceTemplates: () =>
      [...resources.values()].flatMap((r) => (r.uriTemplate === undefined ? [] : [{ uriTemplate: r.uriTemplate, ...listed(r) }])),
    callTool,
    ...tasks.methods,
    getPrompt,
    readResource,
    ...engineCompletion(prompts, resources, (d) => internalsOf(d), options.log),
  };
}

/** What a list entry of a resource or template says besides its URI. */
function listed(r: ResourceDefinition) {
  return { name: r.name, ...optional('title', r.title), description: r.description, ...optional('mimeType', r.mimeType) };
}
