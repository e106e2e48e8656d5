// What a machine may learn about the client of each round: which elicitation modes it declared, and
// whether it can answer sampling and roots questions.
import type { ClientCapabilities } from './wire-shapes.ts';

/** The event type the engine sends at the start of every round to a machine that handles it at its root. */
export const CLIENT_EVENT = 'roundtrip.client';

/**
 * Sent to a machine whose root handles `roundtrip.client`, at the start of every round, before the
 * answers: what the client of this round can be asked. Use it to choose between a URL-mode question and
 * a form for clients without `elicitation.url`, or to ask sampling and roots questions only of clients
 * that declared them.
 */
export interface ClientEvent {
  readonly type: typeof CLIENT_EVENT;
  readonly elicitation: { readonly form: boolean; readonly url: boolean };
  /** The client declared `sampling`: it can answer a sampling question. */
  readonly sampling: boolean;
  /** The client declared `roots`: it can answer a roots question. */
  readonly roots: boolean;
}

/** The event a round sends first, from the capabilities its request declared. */
export function clientEvent(capabilities: ClientCapabilities | undefined): ClientEvent {
  const declared = (kind: 'sampling' | 'roots') => typeof capabilities?.[kind] === 'object' && capabilities[kind] !== null;
  return { type: CLIENT_EVENT, elicitation: elicitationModes(capabilities), sampling: declared('sampling'), roots: declared('roots') };
}

/** The elicitation modes a request declared: `elicitation: {}` means form only; a client listing modes lists each. */
export function elicitationModes(capabilities: ClientCapabilities | undefined): ClientEvent['elicitation'] {
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return { form: false, url: false };
  const modes = Object.keys(elicitation);
  return { form: modes.length === 0 || 'form' in elicitation, url: 'url' in elicitation };
}
