// How a round that still asks questions answers, given what this request's client can do: the input
// requests (elicitation, sampling, roots), the model-mediated fallback, or -32021 naming the capability that is missing.
import type { ActiveQuestion } from './active-questions.ts';
import { encodeBase64url } from './base64url.ts';
import { elicitationModes } from './client-event.ts';
import { ErrorCode, type StepError } from './step-outcome.ts';
import type { ClientCapabilities, InputRequest, JsonObject } from './wire-shapes.ts';

type Mode = ActiveQuestion['question']['mode'];

/**
 * `elicit`: the client can show every question. `fallback`: it cannot, every question of the round
 * declares a fallback and the method has a model in the loop. `missing`: it cannot, and no fallback serves.
 */
export type RoundGate = { kind: 'elicit' } | { kind: 'fallback' | 'missing'; missing: Mode[] };

/** Decides how this round asks; `modelInLoop` only for tools/call of a tool with fallback questions. */
export function gateRound(asks: readonly ActiveQuestion[], capabilities: ClientCapabilities | undefined, modelInLoop: boolean): RoundGate {
  const elicitation = elicitationModes(capabilities);
  let missing: Mode[] | undefined;
  for (const a of asks) {
    const mode = a.question.mode;
    const can =
      mode === 'form' || mode === 'url' ? elicitation[mode] : typeof capabilities?.[mode] === 'object' && capabilities[mode] !== null;
    if (can || missing?.includes(mode)) continue;
    if (missing) missing.push(mode);
    else missing = [mode];
  }
  if (!missing) return ELICIT;
  // a round falls back as a whole: a question without a fallback is never put to the model
  if (modelInLoop && asks.every((a) => a.question.fallback !== undefined)) return { kind: 'fallback', missing };
  return { kind: 'missing', missing };
}
const ELICIT: RoundGate = { kind: 'elicit' };

/** What a client that can be asked each kind supports, and what its request declares. */
const KINDS: Record<Mode, { supports: string; declared: string }> = {
  form: { supports: 'form elicitation', declared: 'the elicitation capability' },
  url: { supports: 'URL-mode elicitation', declared: 'URL-mode elicitation (elicitation.url)' },
  sampling: { supports: 'sampling (sampling/createMessage)', declared: 'the sampling capability' },
  roots: { supports: 'roots (roots/list)', declared: 'the roots capability' },
};

/** What the client would have to support to be asked these modes: `form elicitation and the roots capability`. */
export const modesText = (missing: readonly Mode[]) => missing.map((mode) => KINDS[mode].supports).join(' and ');

/** The capabilities a round that cannot ask needs, as `data.requiredCapabilities` of -32021 names them. */
function requiredCapabilities(missing: readonly Mode[]): JsonObject {
  const required: JsonObject = {};
  if (missing.includes('url'))
    required.elicitation = Object.fromEntries(missing.filter((m) => m === 'form' || m === 'url').map((m) => [m, {}]));
  else if (missing.includes('form')) required.elicitation = {};
  if (missing.includes('sampling')) required.sampling = {};
  if (missing.includes('roots')) required.roots = {};
  return required;
}
/** The keys of a round's questions, quoted, for a message: `'confirm', 'tone'`. */
export const questionKeysText = (asks: readonly ActiveQuestion[]) => asks.map((a) => `'${a.question.key}'`).join(', ');

/** The -32021 error of a round that cannot ask. */
export function missingCapability(owner: string, asks: readonly ActiveQuestion[], missing: readonly Mode[]): { error: StepError } {
  const keys = questionKeysText(asks);
  const declared = missing.map((mode) => KINDS[mode].declared).join(' or ');
  // sampling and roots are answered by the client, not by the user
  const whom = missing.every((mode) => mode === 'form' || mode === 'url') ? 'to ask the user' : 'input from the client';
  return {
    error: {
      code: ErrorCode.MissingRequiredClientCapability,
      message: `${owner} needs ${whom} (${keys}), but this request did not declare ${declared}. Use a client that supports ${modesText(missing)}.`,
      data: { requiredCapabilities: requiredCapabilities(missing) },
    },
  };
}

/**
 * The input requests of a round the client can answer, each form or page with the note of why it is asked
 * again (a sampling or roots request has no message to carry one; the log says why).
 */
export function inputRequestsOf(asks: readonly ActiveQuestion[], notes: ReadonlyMap<string, string>): Record<string, InputRequest> {
  const inputRequests: Record<string, InputRequest> = {};
  for (const a of asks) {
    const note = notes.get(a.question.key);
    const message = note ? `${a.message}\n\n${note}` : a.message;
    const { key, mode } = a.question;
    if (mode === 'sampling') inputRequests[key] = { method: 'sampling/createMessage', params: a.sampling! };
    else if (mode === 'roots') inputRequests[key] = { method: 'roots/list', params: {} };
    else if (a.url === undefined)
      inputRequests[key] = { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: a.requestedSchema } };
    else
      inputRequests[key] = {
        method: 'elicitation/create',
        params: { mode: 'url', message, url: a.url, elicitationId: `${key}-${encodeBase64url(a.hash)}` },
      };
  }
  return inputRequests;
}
