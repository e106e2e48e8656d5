// How long the terminal host waits for a person, and how long the server it starts for a module waits
// with it. On a 2025 era a question's request stays open while the person answers; the server withdraws
// each question after its answer timeout (50 s by default, for hosts that give up after 60 s), which would
// cut off someone at the terminal who takes a minute. This host waits a day, so its server does too.

/** How long the server started for a module holds one question: a day, the longest ROUNDTRIP_ANSWER_TIMEOUT_MS takes. */
const ANSWER_WAIT_MS = 86_400_000;

/**
 * How long the host waits for one request: a minute more than a question may wait, so that the server's own
 * message about a question left unanswered arrives before the client gives up.
 */
export const REQUEST_TIMEOUT_MS = ANSWER_WAIT_MS + 60_000;

/**
 * The variables the server started for a module gets unless the person set them: the long answer timeout,
 * when no `--answer-timeout-ms` was given (a flag wins over the variable anyway).
 */
export function serverDefaults(settings: readonly { readonly variable: string }[]): Readonly<Record<string, string>> {
  return settings.some((setting) => setting.variable === 'ROUNDTRIP_ANSWER_TIMEOUT_MS')
    ? {}
    : { ROUNDTRIP_ANSWER_TIMEOUT_MS: String(ANSWER_WAIT_MS) };
}
