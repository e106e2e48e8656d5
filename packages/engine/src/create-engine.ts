import nacl from 'tweetnacl';
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate';
import { encodeBase64url } from './base64url.ts';
import type { CompiledAsk, CompiledMachine } from './compile-machine.ts';
import { RoundtripDefinitionError } from './definition-error.ts';
import type { ToolDefinition } from './define-tool.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import type { Keyring } from './keyring.ts';
import { readAnswer } from './read-answer.ts';
import { openState, sealState } from './sealed-state.ts';
import { settleActor } from './settle-actor.ts';
import { type CompactSnapshot, type EnvelopeRejection, type StateBinding, type StateEnvelope, TAG_BYTES, checkEnvelope, encodeEnvelope } from './state-envelope.ts';
import { type EngineLogEntry, ErrorCode, INVALID_STATE_HINT, INVALID_STATE_MESSAGE, type StepOutcome } from './step-outcome.ts';
import type { CallToolResult, ClientCapabilities, ElicitInputRequest, JsonObject, JsonValue, ToolInputSchema } from './wire-shapes.ts';

export interface EngineOptions {
  tools: readonly ToolDefinition[];
  /** Keys that seal and open request states; see createKeyring. */
  keyring: Keyring;
  /** Who this server is, e.g. its MCP server name. States sealed for another audience are refused. */
  audience: string;
  /** @defaultValue 600 (10 minutes), renewed every round */
  stateTtlSeconds?: number;
  /** Largest requestState accepted, checked before any decoding. @defaultValue 65536 */
  maxStateBytes?: number;
  /** How long invoked actors may run within one request before the round fails. @defaultValue 10000 */
  settleTimeoutMs?: number;
  /** Rounds one call may take before its state is refused. @defaultValue 64 */
  maxRounds?: number;
  /** Receives log entries for the operator. Nothing is logged when absent. */
  log?: (entry: EngineLogEntry) => void;
  /** Clock in milliseconds, for tests. @defaultValue Date.now */
  now?: () => number;
}

/** One `tools/call` round as the engine sees it, whatever the transport. */
export interface ToolCallRequest {
  name: string;
  arguments?: unknown;
  inputResponses?: unknown;
  /** Exactly as the client sent it (absent when the client sent none). */
  requestState?: unknown;
  /** Who is calling; states are bound to it. */
  principal: string;
  /** The client capabilities this request declared (per request on 2026-07-28, from initialize before). */
  capabilities: ClientCapabilities | undefined;
  signal?: AbortSignal;
  /** Called as invoked actors start within this round; a transport turns it into progress notifications. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** Work the machine started while serving a request: `progress` grows by one with each update. */
export interface ProgressUpdate {
  progress: number;
  message: string;
}

export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: ToolInputSchema;
}

/** Serves tool definitions one round at a time, keeping nothing between rounds. */
export interface Engine {
  readonly tools: readonly ToolDefinition[];
  listTools(): ToolListing[];
  callTool(request: ToolCallRequest): Promise<StepOutcome>;
}

interface ActiveAsk {
  ask: CompiledAsk;
  message: string;
  hash: Uint8Array;
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

const invalidState = (reason: EnvelopeRejection['code']): StepOutcome => ({
  type: 'error',
  error: { code: ErrorCode.InvalidParams, message: INVALID_STATE_MESSAGE, data: { reason, hint: INVALID_STATE_HINT } },
});

const toolError = (text: string): StepOutcome => ({ type: 'complete', result: { content: [{ type: 'text', text }], isError: true } });

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new RoundtripDefinitionError('invalid_option', `createEngine: '${name}' must be a positive integer (got ${String(value)}).`);
  }
  return value;
}

function compact(persisted: Record<string, unknown>): CompactSnapshot {
  const out: CompactSnapshot = { v: persisted.value as JsonValue, c: (persisted.context ?? null) as JsonValue };
  const history = persisted.historyValue as JsonObject | undefined;
  if (history && Object.keys(history).length > 0) out.h = history;
  const children = persisted.children as JsonObject | undefined;
  if (children && Object.keys(children).length > 0) out.ch = children;
  return out;
}

function expand(s: CompactSnapshot): Record<string, unknown> {
  return { status: 'active', value: s.v, context: s.c, historyValue: s.h ?? {}, children: s.ch ?? {} };
}

function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  // `elicitation: {}` means form; a client that lists modes must list form
  const modes = Object.keys(elicitation);
  return modes.length === 0 || 'form' in elicitation;
}

/**
 * Creates the engine that serves tools over MRTR: each call opens the sealed state it carries,
 * rehydrates the tool's machine, feeds in the answers, runs it until it settles, and answers with
 * the next questions (and a newly sealed state) or the final result.
 *
 * @example
 * const engine = createEngine({ tools: [refundOrder], keyring: createKeyring([key]), audience: 'orders' });
 * const outcome = await engine.callTool({ name: 'refund_order', arguments: { order_id: 'ord_51' }, principal: 'ada', capabilities });
 */
export function createEngine(options: EngineOptions): Engine {
  const ttl = positiveInteger('stateTtlSeconds', options.stateTtlSeconds, 600);
  if (ttl > 7 * 86_400) throw new RoundtripDefinitionError('invalid_option', `createEngine: 'stateTtlSeconds' is at most 604800 (7 days; a state should live minutes); got ${ttl}.`);
  const maxStateBytes = positiveInteger('maxStateBytes', options.maxStateBytes, 64 * 1024);
  const settleTimeoutMs = positiveInteger('settleTimeoutMs', options.settleTimeoutMs, 10_000);
  const maxRounds = positiveInteger('maxRounds', options.maxRounds, 64);
  if (maxRounds > 1000) throw new RoundtripDefinitionError('invalid_option', `createEngine: 'maxRounds' is at most 1000 (got ${maxRounds}).`);
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const audienceTag = digestBytes(`aud\0${options.audience}`, TAG_BYTES.aud);

  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools) {
    if (tools.has(tool.name)) {
      throw new RoundtripDefinitionError('duplicate_tool', `createEngine: two tools are named '${tool.name}'; tool names must be unique.`);
    }
    tools.set(tool.name, tool);
  }

  // tags that stay the same from call to call, computed once
  const targetTags = new Map([...tools.keys()].map((name) => [name, digestBytes(`tools/call\0${name}`, TAG_BYTES.target)]));
  const principalTags = new Map<string, Uint8Array>();
  const principalTag = (principal: string) => {
    let tag = principalTags.get(principal);
    if (!tag) {
      if (principalTags.size >= 256) principalTags.clear();
      tag = digestBytes(`sub\0${principal}`, TAG_BYTES.sub);
      principalTags.set(principal, tag);
    }
    return tag;
  };

  /** The questions the active states ask now; `rendered` keeps hashes already computed in this request. */
  function activeAsks(machine: CompiledMachine, snapshot: AnyMachineSnapshot, rendered: Map<CompiledAsk, ActiveAsk>): ActiveAsk[] {
    const asks: ActiveAsk[] = [];
    const seen = new Set<string>();
    for (const stateId of Object.keys(snapshot.getMeta())) {
      for (const ask of machine.asksByState.get(stateId) ?? []) {
        if (seen.has(ask.key)) {
          throw new RoundtripDefinitionError(
            'invalid_ask_key',
            `Machine '${machine.id}': two active states ask '${ask.key}' at once. Give the questions of parallel states distinct keys.`,
          );
        }
        seen.add(ask.key);
        const message = typeof ask.message === 'string' ? ask.message : ask.message({ context: snapshot.context as never });
        if (typeof message !== 'string' || message.length === 0) {
          throw new RoundtripDefinitionError('invalid_ask_key', `Machine '${machine.id}', state '${stateId}', ask '${ask.key}': the message function returned ${JSON.stringify(message)}, not text.`);
        }
        let active = rendered.get(ask);
        if (!active || active.message !== message) {
          active = { ask, message, hash: digestBytes(`${message}\0${ask.schemaText}`, TAG_BYTES.question) };
          rendered.set(ask, active);
        }
        asks.push(active);
      }
    }
    return asks;
  }

  async function callTool(request: ToolCallRequest): Promise<StepOutcome> {
    const tool = tools.get(request.name);
    if (!tool) {
      return { type: 'error', error: { code: ErrorCode.InvalidParams, message: `Unknown tool: ${request.name}`, data: { tools: [...tools.keys()] } } };
    }
    const logFor = (entry: Omit<EngineLogEntry, 'tool'>) => log({ tool: tool.name, ...entry });
    const parsed = tool._input.safeParse(request.arguments ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
      return toolError(`Invalid arguments for tool '${tool.name}': ${problems}. Call it again with arguments matching its input schema.`);
    }
    const args = parsed.data as Record<string, unknown>;
    const machine = tool._machine;
    const binding: StateBinding = {
      aud: audienceTag,
      sub: principalTag(request.principal),
      target: targetTags.get(tool.name)!,
      args: digestBytes(`tools/call\0${tool.name}\0${canonicalJson(args)}`, TAG_BYTES.args),
    };

    // open and check the state before anything runs
    let envelope: StateEnvelope | undefined;
    if (request.requestState !== undefined) {
      const raw = request.requestState;
      const refuse = (code: EnvelopeRejection['code'], detail: string) => {
        logFor({ level: 'warn', event: 'state_rejected', message: `requestState refused (${code}): ${detail}` });
        return invalidState(code);
      };
      if (typeof raw !== 'string' || raw.length === 0) return refuse('invalid', `requestState is ${typeof raw === 'string' ? 'empty' : `a ${typeof raw}, not a string`}`);
      if (raw.length > maxStateBytes) return refuse('invalid', `requestState is ${raw.length} bytes, over the ${maxStateBytes}-byte limit`);
      const opened = openState(options.keyring, raw);
      if (!opened.ok) {
        const detail = {
          malformed: 'not a sealed Roundtrip state (bad format)',
          unknown_key: 'sealed with a key this server does not hold',
          tampered: 'failed authentication (tampered, truncated or corrupted)',
          header_mismatch: 'header does not match the sealed copy',
        }[opened.reason];
        return refuse('invalid', detail);
      }
      const checked = checkEnvelope(opened.plaintext, binding, machine, Math.floor(now() / 1000), maxRounds);
      if (!checked.ok) return refuse(checked.rejection.code, checked.rejection.detail);
      envelope = checked.envelope;
    }

    const rendered = new Map<CompiledAsk, ActiveAsk>();
    const runId = envelope?.run ?? nacl.randomBytes(TAG_BYTES.run);
    const run = encodeBase64url(runId);
    const round = envelope ? envelope.round + 1 : 1;
    const actor = createActor(
      machine.machine,
      envelope ? { snapshot: expand(envelope.snapshot) as never, input: args } : { input: args },
    );
    let machineError: unknown;
    actor.subscribe({ error: (error) => (machineError = error) });
    if (request.onProgress) {
      const report = request.onProgress;
      const seen = new Set<string>();
      let progress = 0;
      actor.subscribe({
        next: (snapshot) => {
          for (const [id, child] of Object.entries(snapshot.children as Record<string, AnyActorRef | undefined>)) {
            if (seen.has(id) || child?.getSnapshot().status !== 'active') continue;
            seen.add(id);
            try {
              report({ progress: ++progress, message: `${tool.name}: running '${id}'` });
            } catch (error) {
              logFor({ level: 'warn', event: 'progress_failed', message: `progress report for '${id}' threw`, run, error });
            }
          }
        },
        // XState rethrows (from a timer) any error an observer leaves unhandled; the error observer above records it
        error: () => {},
      });
    }
    const fail = (event: string, message: string, error?: unknown): StepOutcome => {
      actor.stop();
      logFor({ level: 'error', event, message, run, error });
      return toolError(`Tool '${tool.name}' failed on the server before it could finish; the details are in the server's log.`);
    };

    try {
      actor.start();
      if (envelope && actor.getSnapshot().status === 'error') {
        actor.stop();
        logFor({ level: 'warn', event: 'state_rejected', message: `requestState refused (outdated): the snapshot does not fit machine '${machine.id}'`, run, error: machineError });
        return invalidState('outdated');
      }
      const firstSettle = await settleActor(actor as AnyActorRef, settleTimeoutMs, request.signal);
      if (firstSettle !== 'settled') return fail(`settle_${firstSettle}`, `machine '${machine.id}' did not settle (${firstSettle}) before answers were fed`);

      // pin: answers count only for questions the opened state proves were asked
      let pinned = envelope?.questions ?? new Map<string, Uint8Array>();
      if (!envelope && tool.acceptAnswersWithoutState && actor.getSnapshot().status === 'active') {
        pinned = new Map(activeAsks(machine, actor.getSnapshot(), rendered).map((a) => [a.ask.key, a.hash]));
      }

      // what to tell the user next to a question asked again: why their last answer did not count
      const notes = new Map<string, string>();
      const responses = request.inputResponses;
      const answers = typeof responses === 'object' && responses !== null && !Array.isArray(responses) ? (responses as Record<string, unknown>) : undefined;
      if (!answers && responses !== undefined && responses !== null) {
        logFor({ level: 'info', event: 'answer_invalid', message: `inputResponses is a ${Array.isArray(responses) ? 'list' : typeof responses}, not an object; answers ignored`, run });
      }
      for (const [key, hash] of pinned) {
        if (actor.getSnapshot().status !== 'active') break;
        if (!answers || !Object.hasOwn(answers, key)) {
          if (envelope) notes.set(key, 'No answer to this question arrived; please answer it.');
          continue;
        }
        const current = activeAsks(machine, actor.getSnapshot(), rendered).find((a) => a.ask.key === key);
        if (!current || !sameBytes(hash, current.hash)) {
          logFor({ level: 'info', event: 'answer_ignored', message: `answer to '${key}' ignored: the question it answers is no longer the one being asked`, run });
          continue;
        }
        const answer = readAnswer(answers[key], current.ask);
        if (answer.kind === 'invalid') {
          notes.set(key, `Your last answer was not accepted: ${answer.reason}. Please answer again.`);
          logFor({ level: 'info', event: 'answer_invalid', message: `answer to '${key}' not accepted: ${answer.reason}`, run });
          continue;
        }
        actor.send(answer.event);
      }

      const settled = await settleActor(actor as AnyActorRef, settleTimeoutMs, request.signal);
      if (settled !== 'settled') return fail(`settle_${settled}`, `machine '${machine.id}' did not settle within ${settleTimeoutMs} ms (${settled}); invoked work still running was stopped`);
      const snapshot = actor.getSnapshot();

      if (snapshot.status === 'error') return fail('machine_error', `machine '${machine.id}' failed in round ${round}`, snapshot.error ?? machineError);
      if (snapshot.status === 'done') {
        actor.stop();
        let view;
        try {
          view = tool._result(snapshot.output);
        } catch (error) {
          return fail('result_error', `the result mapping of tool '${tool.name}' threw`, error);
        }
        const result: CallToolResult = { content: [{ type: 'text', text: view.text }] };
        if (view.structured !== undefined) result.structuredContent = view.structured;
        if (view.isError) result.isError = true;
        logFor({ level: 'info', event: 'run_complete', message: `finished in round ${round}${view.isError ? ' (tool error)' : ''}`, run });
        return { type: 'complete', result };
      }

      const asks = activeAsks(machine, snapshot, rendered);
      if (asks.length > 255) {
        return fail('too_many_questions', `machine '${machine.id}' asks ${asks.length} questions at once; one round holds at most 255`);
      }
      if (asks.length === 0) {
        return fail('machine_stuck', `machine '${machine.id}' settled in state ${JSON.stringify(snapshot.value)}, which neither asks for input nor is final. Add meta.ask to the state or a transition out of it.`);
      }
      if (!supportsFormElicitation(request.capabilities)) {
        actor.stop();
        const keys = asks.map((a) => `'${a.ask.key}'`).join(', ');
        logFor({ level: 'info', event: 'capability_missing', message: `cannot ask ${keys}: the request did not declare form elicitation`, run });
        return {
          type: 'error',
          error: {
            code: ErrorCode.MissingRequiredClientCapability,
            message: `Tool '${tool.name}' needs to ask the user (${keys}), but this request did not declare the elicitation capability. Call it from a client that supports form elicitation.`,
            data: { requiredCapabilities: { elicitation: {} } },
          },
        };
      }

      const persisted = actor.getPersistedSnapshot() as Record<string, unknown>;
      actor.stop();
      const issuedAt = Math.floor(now() / 1000);
      const next: StateEnvelope = {
        iat: issuedAt,
        exp: issuedAt + ttl,
        ...binding,
        machine: machine.hash,
        round,
        run: runId,
        questions: new Map(asks.map((a) => [a.ask.key, a.hash])),
        snapshot: compact(persisted),
      };
      const inputRequests: Record<string, ElicitInputRequest> = {};
      for (const a of asks) {
        const note = notes.get(a.ask.key);
        inputRequests[a.ask.key] = {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: note ? `${a.message}\n\n${note}` : a.message,
            requestedSchema: a.ask.requestedSchema,
          },
        };
      }
      return { type: 'input_required', inputRequests, requestState: sealState(options.keyring, encodeEnvelope(next)) };
    } catch (error) {
      return fail('engine_error', `round ${round} of '${tool.name}' threw`, error);
    }
  }

  return {
    tools: [...tools.values()],
    listTools: () =>
      [...tools.values()].map((t) => ({
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        description: t.description,
        inputSchema: t.inputSchema,
      })),
    callTool,
  };
}
