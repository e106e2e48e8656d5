import { type CompletionOutcome, type CompletionRequest, engineCompletion } from './argument-completion.ts';
import type { PromptArgument, PromptDefinition } from './define-prompt.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { ToolDefinition } from './define-tool.ts';
import { definitionError, ProblemList } from './definition-error.ts';
import { internalsOf } from './definition-internals.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import type { EffectLedger } from './effect-ledger.ts';
import type { EngineTaskMethods, TaskOptions } from './engine-tasks.ts';
import type { EngineInspectOptions } from './inspect-options.ts';
import type { Keyring } from './keyring.ts';
import { createMemoryLedger } from './memory-ledger.ts';
import { mrtrMethods } from './mrtr-methods.ts';
import type { PromptGetRequest } from './prompt-method.ts';
import type { ResourceReadRequest } from './resource-method.ts';
import type { StepContext } from './round-types.ts';
import { TAG_BYTES } from './state-envelope.ts';
import type { EngineLogEntry, StepOutcome } from './step-outcome.ts';
import { tagCache } from './tag-cache.ts';
import type { ToolCallRequest } from './tool-method.ts';
import type { CallToolResult, GetPromptResult, ReadResourceResult, ToolAnnotations, ToolInputSchema } from './wire-shapes.ts';

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

export type { PromptGetRequest } from './prompt-method.ts';
export type { ResourceReadRequest } from './resource-method.ts';
export type { ToolCallRequest } from './tool-method.ts';

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
  const methods = mrtrMethods(ctx, { tools, prompts, resources }, targetTag, options.tasks);

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
    ...methods,
    ...engineCompletion(prompts, resources, (d) => internalsOf(d), options.log),
  };
}

/** What a list entry of a resource or template says besides its URI. */
function listed(r: ResourceDefinition) {
  return { name: r.name, ...optional('title', r.title), description: r.description, ...optional('mimeType', r.mimeType) };
}
