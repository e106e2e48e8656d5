// The model-mediated fallback, as the tool's arguments see it: the two optional arguments a tool with
// fallback questions advertises (checked when the tool is defined), and how a call carrying them becomes
// a round whose state is the continuation token and whose answers are the model's.
import type { CompiledMachine } from './compile-machine.ts';
import type { ProblemList } from './definition-error.ts';
import type { CompiledQuestion } from './questions.ts';
import type { ModelFallback, RoundRequest } from './round-types.ts';
import type { StepOutcome } from './step-outcome.ts';
import type { CallToolResult, JsonObject, ToolAnnotations, ToolInputSchema } from './wire-shapes.ts';

/** The argument that carries the user's answers, by question key. */
export const ANSWERS_ARGUMENT = 'answers';
/** The argument that carries the sealed continuation token a fallback result gave. */
export const CONTINUATION_ARGUMENT = 'continuation';

/** How the model gives a declined or cancelled answer instead of an object of fields. */
export const DECLINE = 'decline';
export const CANCEL = 'cancel';

const fallbacksOf = new WeakMap<object, readonly CompiledQuestion[]>();

/** The questions a machine asks that declare a fallback, each once (computed once per machine). */
export function fallbackQuestions(machine: Pick<CompiledMachine, 'asksByState'>): readonly CompiledQuestion[] {
  let found = fallbacksOf.get(machine);
  if (!found) {
    const byKey = new Map<string, CompiledQuestion>();
    for (const asks of machine.asksByState.values()) for (const q of asks) if (q.fallback) byKey.set(q.key, q);
    found = [...byKey.values()];
    fallbacksOf.set(machine, found);
  }
  return found;
}

/** MCP's reading of the hints: a tool may be destructive unless it is read-only or says it is not. */
const mayBeDestructive = (annotations: ToolAnnotations | undefined): boolean =>
  annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;

/** Definition problems of a tool's fallback questions: the arguments' names are free, destructive tools opted in. */
export function checkFallbacks(
  owner: string,
  questions: readonly CompiledQuestion[],
  inputSchema: ToolInputSchema,
  annotations: ToolAnnotations | undefined,
  problems: ProblemList,
): void {
  if (questions.length === 0) return;
  const keys = questions.map((q) => `'${q.key}'`).join(', ');
  const own = (inputSchema.properties ?? {}) as JsonObject;
  for (const name of [ANSWERS_ARGUMENT, CONTINUATION_ARGUMENT]) {
    if (!Object.hasOwn(own, name)) continue;
    problems.add(
      [owner, 'input', name],
      'invalid_option',
      `questions ${keys} fall back to the model, which passes the answers through an optional argument named '${name}', but the tool's input already has an argument of that name.`,
      `Rename the tool's argument '${name}', or remove the fallback from ${keys}.`,
    );
  }
  if (!mayBeDestructive(annotations)) return;
  for (const q of questions) {
    if (q.fallback?.onDestructiveTool) continue;
    problems.add(
      [owner, `question '${q.key}'`, 'fallback'],
      'invalid_question',
      "the tool may be destructive (its annotations say neither readOnlyHint: true nor destructiveHint: false), and fallback: 'model' would let the model relay this answer in the user's place.",
      "Opt in for this question with fallback: { via: 'model', onDestructiveTool: true } if the model may relay its answer; else remove the fallback (hosts without elicitation then get -32021), or say destructiveHint: false if the tool destroys nothing.",
    );
  }
}

/**
 * Definition problems of a prompt's or resource's fallback questions: there is none to take, since no
 * model takes part in prompts/get or resources/read, so a fallback there would silently never be used.
 */
export function checkNoFallbacks(
  owner: string,
  kind: 'prompt' | 'resource',
  questions: readonly CompiledQuestion[],
  problems: ProblemList,
): void {
  for (const q of questions) {
    problems.add(
      [owner, `question '${q.key}'`, 'fallback'],
      'invalid_question',
      `a ${kind} cannot ask through the model: no model takes part in ${kind === 'prompt' ? 'prompts/get' : 'resources/read'}, so fallback: 'model' would never be used (hosts without elicitation get -32021).`,
      `Remove the fallback from question '${q.key}' (in a declared flow: from the step, or give the step fallback: false).`,
    );
  }
}

/** The tool's input schema with the two optional arguments its fallback questions need. */
export function withFallbackArguments(inputSchema: ToolInputSchema, questions: readonly CompiledQuestion[]): ToolInputSchema {
  if (questions.length === 0) return inputSchema;
  const answers: JsonObject = {};
  for (const q of questions) {
    answers[q.key] = {
      description:
        q.mode === 'url'
          ? `Question '${q.key}': {} once the user has been to the page, or "${DECLINE}" / "${CANCEL}".`
          : `Question '${q.key}': an object of its fields as the user answered them, or "${DECLINE}" / "${CANCEL}".`,
    };
  }
  const own = (inputSchema.properties ?? {}) as JsonObject;
  return Object.freeze({
    ...inputSchema,
    properties: Object.freeze({
      ...own,
      [ANSWERS_ARGUMENT]: Object.freeze({
        type: 'object',
        description:
          "Only when a previous result of this tool asked for it: the user's answers, by question key. Never invent them: ask the user.",
        properties: Object.freeze(answers),
      }),
      [CONTINUATION_ARGUMENT]: Object.freeze({
        type: 'string',
        description: 'Only when a previous result of this tool asked for it: the continuation token it gave, unchanged.',
      }),
    }),
  }) as ToolInputSchema;
}

/** Some models send an object argument as JSON text: read it back. */
function objectOrJson(value: unknown): unknown {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One answer the model gave, as the client result the engine reads (an object of fields is an accept). */
function asResponse(value: unknown): unknown {
  if (value === DECLINE) return { action: 'decline' };
  if (value === CANCEL) return { action: 'cancel' };
  return { action: 'accept', content: objectOrJson(value) };
}

/** What one tools/call becomes: the tool's own arguments, and the round to run. */
type ReadCall = { ok: true; args: unknown; round: RoundRequest; continued: boolean } | { ok: false; text: string };

/** A tools/call as the step runs it: own arguments, the round, and how to ask through the model (tools with fallback questions). */
export type FallbackCall =
  | { ok: true; args: unknown; round: RoundRequest; modelFallback: ModelFallback<CallToolResult> | undefined }
  | { ok: false; text: string };

/**
 * Reads one tools/call: a tool without fallback questions passes as it came; one with them has its
 * fallback arguments taken out (see readFallbackCall). `continuationTag` (of the tool) is computed only when needed.
 */
export function fallbackCall(
  tool: { readonly name: string; readonly outputSchema: ToolInputSchema | undefined },
  machine: Pick<CompiledMachine, 'asksByState'>,
  request: RoundRequest & { arguments?: unknown },
  continuationTag: (tool: string) => Uint8Array,
): FallbackCall {
  if (fallbackQuestions(machine).length === 0) return { ok: true, args: request.arguments, round: request, modelFallback: undefined };
  const call = readFallbackCall(tool.name, request);
  if (!call.ok) return call;
  const answer = fallbackResult(tool.outputSchema !== undefined);
  return { ...call, modelFallback: { tool: tool.name, continuationTag: continuationTag(tool.name), continued: call.continued, answer } };
}

/**
 * Takes the fallback arguments out of a call of a tool with fallback questions: its own arguments are
 * what is validated and bound, the continuation token becomes the round's state and the answers its
 * responses. Refuses a call that mixes them up, with what to do instead (for the model).
 */
function readFallbackCall(tool: string, request: RoundRequest & { arguments?: unknown }): ReadCall {
  const raw = request.arguments;
  if (!isObject(raw) || (!Object.hasOwn(raw, ANSWERS_ARGUMENT) && !Object.hasOwn(raw, CONTINUATION_ARGUMENT)))
    return { ok: true, args: raw, round: request, continued: false };
  const { [ANSWERS_ARGUMENT]: rawAnswers, [CONTINUATION_ARGUMENT]: continuation, ...args } = raw;
  const startOver = `call ${tool} again with only its own arguments, without '${ANSWERS_ARGUMENT}' and '${CONTINUATION_ARGUMENT}', to start over`;
  if (continuation === undefined)
    return {
      ok: false,
      text: `'${ANSWERS_ARGUMENT}' came without '${CONTINUATION_ARGUMENT}'. Pass both exactly as the last result of ${tool} said, or ${startOver}.`,
    };
  if (typeof continuation !== 'string' || continuation === '')
    return {
      ok: false,
      text: `'${CONTINUATION_ARGUMENT}' must be the token text the last result of ${tool} gave, unchanged; or ${startOver}.`,
    };
  if (request.requestState !== undefined)
    return { ok: false, text: `This call carries both a requestState and '${CONTINUATION_ARGUMENT}'. Send one of them; or ${startOver}.` };
  const answers = objectOrJson(rawAnswers);
  if (rawAnswers !== undefined && !isObject(answers))
    return {
      ok: false,
      text: `'${ANSWERS_ARGUMENT}' must be an object with one entry per question key, e.g. {"<key>": {"<field>": …}}. Call ${tool} again with it and the same '${CONTINUATION_ARGUMENT}'.`,
    };
  const responses = isObject(answers) ? Object.fromEntries(Object.entries(answers).map(([key, value]) => [key, asResponse(value)])) : {};
  const { inputResponses: _ignored, ...rest } = request;
  return {
    ok: true,
    args,
    continued: true,
    // the token went through the model: its lifetime is always checked
    round: { ...rest, requestState: continuation, inputResponses: responses, stateHeldByServer: false },
  };
}

/** The fallback's result: a plain result, or a tool error when the tool has an output schema (clients reject a success without structuredContent). */
const fallbackResult =
  (hasOutputSchema: boolean) =>
  (text: string): StepOutcome<CallToolResult> => ({
    type: 'complete',
    result: { content: [{ type: 'text', text }], ...(hasOutputSchema ? { isError: true } : {}) },
  });
