// How a round that still asks questions answers, given what this request's client can show: the input
// requests (elicitation), the model-mediated fallback, or -32021 naming the capability that is missing.
import type { ActiveQuestion } from './active-questions.ts';
import { encodeBase64url } from './base64url.ts';
import { elicitationModes } from './client-event.ts';
import { ErrorCode, type StepError } from './step-outcome.ts';
import type { ClientCapabilities, ElicitInputRequest } from './wire-shapes.ts';

type Mode = ActiveQuestion['question']['mode'];

/**
 * `elicit`: the client can show every question. `fallback`: it cannot, every question of the round
 * declares a fallback and the method has a model in the loop. `missing`: it cannot, and no fallback serves.
 */
export type RoundGate = { kind: 'elicit' } | { kind: 'fallback' | 'missing'; missing: Mode[] };

/** Decides how this round asks; `modelInLoop` only for tools/call of a tool with fallback questions. */
export function gateRound(asks: readonly ActiveQuestion[], capabilities: ClientCapabilities | undefined, modelInLoop: boolean): RoundGate {
  const modes = elicitationModes(capabilities);
  const missing = [...new Set(asks.map((a) => a.question.mode))].filter((mode) => !modes[mode]);
  if (missing.length === 0) return { kind: 'elicit' };
  // a round falls back as a whole: a question without a fallback is never put to the model
  if (modelInLoop && asks.every((a) => a.question.fallback !== undefined)) return { kind: 'fallback', missing };
  return { kind: 'missing', missing };
}

const supports = (missing: readonly Mode[]) =>
  missing.map((mode) => (mode === 'form' ? 'form elicitation' : 'URL-mode elicitation')).join(' and ');
const keysOf = (asks: readonly ActiveQuestion[]) => asks.map((a) => `'${a.question.key}'`).join(', ');

/** The -32021 error of a round that cannot ask, and the line for the log. */
export function missingCapability(
  owner: string,
  asks: readonly ActiveQuestion[],
  missing: readonly Mode[],
): { log: string; error: StepError } {
  const keys = keysOf(asks);
  const declared = missing
    .map((mode) => (mode === 'form' ? 'the elicitation capability' : 'URL-mode elicitation (elicitation.url)'))
    .join(' or ');
  return {
    log: `cannot ask ${keys}: the request did not declare ${supports(missing)}`,
    error: {
      code: ErrorCode.MissingRequiredClientCapability,
      message: `${owner} needs to ask the user (${keys}), but this request did not declare ${declared}. Use a client that supports ${supports(missing)}.`,
      data: {
        requiredCapabilities: { elicitation: missing.includes('url') ? Object.fromEntries(missing.map((mode) => [mode, {}])) : {} },
      },
    },
  };
}

/** The log line of a round asked through the model. */
export const fallbackLog = (asks: readonly ActiveQuestion[], missing: readonly Mode[]) =>
  `asked ${keysOf(asks)} through the model: the request did not declare ${supports(missing)}`;

/** The input requests of a round the client can show, each with the note of why it is asked again. */
export function inputRequestsOf(asks: readonly ActiveQuestion[], notes: ReadonlyMap<string, string>): Record<string, ElicitInputRequest> {
  const inputRequests: Record<string, ElicitInputRequest> = {};
  for (const a of asks) {
    const note = notes.get(a.question.key);
    const message = note ? `${a.message}\n\n${note}` : a.message;
    inputRequests[a.question.key] =
      a.url === undefined
        ? { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: a.question.requestedSchema } }
        : {
            method: 'elicitation/create',
            params: { mode: 'url', message, url: a.url, elicitationId: `${a.question.key}-${encodeBase64url(a.hash)}` },
          };
  }
  return inputRequests;
}
