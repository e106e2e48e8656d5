// What a 2025-era host is sent when a round needs the user: the SDK's legacy shim turns each input
// request into a real `elicitation/create`. Two things it does not do are done here: fit the request
// to a 2025-06-18 host (no `mode`, that revision's form schema, forms only), and end a request whose
// host never answers with an error that says so.
import { SdkError, SdkErrorCode, type Server } from '@modelcontextprotocol/server';
import type { ClientCapabilities, ElicitInputRequest } from '@roundtrip/engine';
import { fitSchemaFor20250618 } from './elicitation-schema-2025-06-18.ts';

/** The first revision whose elicitation has modes, URL mode and the richer form schema. */
const MODES_SINCE = '2025-11-25';

/** True for a 2025-era revision whose elicitation is forms only, without `mode` (2025-06-18 and earlier). */
function isFormOnlyRevision(revision: string | undefined): boolean {
  return revision !== undefined && revision < MODES_SINCE;
}

/**
 * The capabilities a round on a legacy connection sees: as declared at initialize, except that a
 * host on a form-only revision can be asked with forms only, whatever it declared.
 */
export function capabilitiesForRevision(
  declared: ClientCapabilities | undefined,
  revision: string | undefined,
): ClientCapabilities | undefined {
  if (!declared?.elicitation || !isFormOnlyRevision(revision)) return declared;
  return { ...declared, elicitation: {} };
}

/** A question a form-only host cannot be shown: its key, the field, and what the field is. */
export interface UnaskableQuestion {
  key: string;
  field: string;
  what: string;
}

/**
 * Input requests as a host on `revision` can take them: unchanged from 2025-11-25 on; for a form-only
 * revision, every form rewritten to that revision's schema (see fitSchemaFor20250618). Returns the
 * first question that cannot be expressed instead.
 */
export function fitInputRequests(
  inputRequests: Record<string, ElicitInputRequest>,
  revision: string | undefined,
): { ok: true; inputRequests: Record<string, ElicitInputRequest> } | { ok: false; question: UnaskableQuestion } {
  if (!isFormOnlyRevision(revision)) return { ok: true, inputRequests };
  const fitted: Record<string, ElicitInputRequest> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    const { params } = request;
    if (params.mode === 'url') return { ok: false, question: { key, field: '(the whole question)', what: 'a URL-mode question' } };
    const schema = fitSchemaFor20250618(params.requestedSchema);
    if (!schema.ok) return { ok: false, question: { key, field: schema.field, what: schema.what } };
    fitted[key] = { ...request, params: { ...params, requestedSchema: schema.schema as typeof params.requestedSchema } };
  }
  return { ok: true, inputRequests: fitted };
}

/** What the end user reads (through the host) when a question cannot be shown on their host's revision. */
export function unaskableMessage(what: string, question: UnaskableQuestion, revision: string | undefined): string {
  return (
    `${what} needs to ask '${question.key}', but this host speaks MCP ${revision ?? 'of an older revision'}, ` +
    `whose forms cannot show ${question.what} (field '${question.field}'). Use a host that supports MCP ${MODES_SINCE} or later.`
  );
}

/** A duration as a person reads it: `10 minutes`, `90 seconds`, `250 ms`. */
function duration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} second${ms === 1000 ? '' : 's'}`;
  return `${ms} ms`;
}

type AnyRequest = { method: string; params?: Record<string, unknown> };
type SendRequest = (request: AnyRequest, ...rest: unknown[]) => Promise<unknown>;

/**
 * Adapts every `elicitation/create` this server instance sends (the legacy shim's, and any other):
 * drops `mode` for a form-only host, whose revision has no such field; and turns the SDK's timeout
 * of an unanswered one (`answerTimeoutMs`, given to the shim as its per-question timeout) into an
 * error that tells the user what happened and what to do. A cancelled request stays a cancellation.
 */
export function adaptElicitationRequests(server: Server, answerTimeoutMs: number, onError: (error: Error) => void): void {
  const send = server.request.bind(server) as SendRequest;
  const adapted: SendRequest = async (request, ...rest) => {
    if (request.method !== 'elicitation/create') return send(request, ...rest);
    // the deprecated accessor is the documented way to read a 2025-era connection's initialize-negotiated revision
    const revision = server.getNegotiatedProtocolVersion();
    let params = request.params;
    if (isFormOnlyRevision(revision) && params && 'mode' in params) {
      const { mode: _dropped, ...rest } = params;
      params = rest;
    }
    try {
      return await send({ ...request, params }, ...rest);
    } catch (error) {
      // an abort (the request was cancelled) also surfaces as RequestTimeout, but without the timeout in its data
      const timedOut =
        error instanceof SdkError &&
        error.code === SdkErrorCode.RequestTimeout &&
        typeof (error.data as { timeout?: unknown } | undefined)?.timeout === 'number';
      if (!timedOut) throw error;
      onError(
        new Error(
          `no answer to elicitation/create within ${answerTimeoutMs} ms (ROUNDTRIP_ANSWER_TIMEOUT_MS); the host's request was ended`,
        ),
      );
      throw new Error(`The question was not answered within ${duration(answerTimeoutMs)}, so this request ended. Try again to start over.`);
    }
  };
  (server as unknown as { request: SendRequest }).request = adapted;
}
