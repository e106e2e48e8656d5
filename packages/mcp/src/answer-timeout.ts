// The one limit the binding applies itself, whatever the transport: how long a 2025-era question waits.

/**
 * How long a 2025-era host may take to answer one question, by default: 50 seconds. A person answers,
 * but the host gives up on the request it holds open after its own timeout, 60 s in the official
 * clients, often without telling the server: the question must be withdrawn before that, or an answer
 * could act on a request the user was told had failed. Raise it for a host with a longer timeout, or
 * one that restarts its timeout on progress.
 */
export const DEFAULT_ANSWER_TIMEOUT_MS = 50_000;
