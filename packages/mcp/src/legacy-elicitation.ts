// What a 2025-era host is sent when a round needs the user: the SDK's legacy shim turns each input
// request into a real `elicitation/create`, which it does not fit to a 2025-06-18 host. Here is what
// that revision can take: that revision's form schema, forms only (RoundtripServer drops `mode`).
import type { ClientCapabilities, InputRequest } from '@roundtrip/engine';
import { fitSchemaFor20250618 } from './elicitation-schema-2025-06-18.ts';

/** The first revision whose elicitation has modes, URL mode and the richer form schema. */
const MODES_SINCE = '2025-11-25';

/** True for a 2025-era revision whose elicitation is forms only, without `mode` (2025-06-18 and earlier). */
export function isFormOnlyRevision(revision: string | undefined): boolean {
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
 * revision, every form rewritten to that revision's schema (see fitSchemaFor20250618), and sampling and
 * roots requests passed as they are. Returns the first question that cannot be expressed instead.
 */
export function fitInputRequests(
  inputRequests: Record<string, InputRequest>,
  revision: string | undefined,
): { ok: true; inputRequests: Record<string, InputRequest> } | { ok: false; question: UnaskableQuestion } {
  if (!isFormOnlyRevision(revision)) return { ok: true, inputRequests };
  const fitted: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    if (request.method !== 'elicitation/create') {
      fitted[key] = request;
      continue;
    }
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
