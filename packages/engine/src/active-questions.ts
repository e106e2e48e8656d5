import type { AnyMachineSnapshot } from 'xstate';
import { renderSampling } from './client-requests.ts';
import type { CompiledMachine } from './compile-machine.ts';
import { canonicalJson, digestBytes } from './digest.ts';
import { renderForm } from './form-view.ts';
import { renderTemplate } from './message-template.ts';
import type { CompiledQuestion } from './questions.ts';
import { TAG_BYTES } from './state-envelope.ts';
import type { ElicitationSchema, SamplingRequest } from './wire-shapes.ts';

/** A question the machine asks now: rendered for this context, with the hash sealed to pin it. */
export interface ActiveQuestion {
  question: CompiledQuestion;
  message: string;
  /** The page a URL-mode question opens, rendered. */
  url: string | undefined;
  /** The request a sampling question sends, rendered. */
  sampling: SamplingRequest | undefined;
  /** The form sent (the compiled one, fitted to this context's defaults and options). */
  requestedSchema: ElicitationSchema;
  /** What is pinned beside the message: the page, or the sampling request as canonical JSON. */
  asked: string | undefined;
  hash: Uint8Array;
  /** The context it was rendered from: the same context (XState replaces it on change) renders the same. */
  context: unknown;
}

// the last pinned parts of each question and their digest: a question asked again as it was (a re-ask, or
// the same message in another conversation) is not hashed again, nor its parts joined to compare them
const lastDigest = new WeakMap<CompiledQuestion, { message: string; schemaText: string; asked: string | undefined; hash: Uint8Array }>();

/** The digest pinned for a question: of its message, its form and what else it asks, joined by NULs. */
function questionDigest(question: CompiledQuestion, message: string, schemaText: string, asked: string | undefined): Uint8Array {
  const last = lastDigest.get(question);
  if (last !== undefined && last.message === message && last.schemaText === schemaText && last.asked === asked) return last.hash;
  const pinned = asked === undefined ? `${message}\0${schemaText}` : `${message}\0${schemaText}\0${asked}`;
  const hash = digestBytes(pinned, TAG_BYTES.question);
  lastDigest.set(question, { message, schemaText, asked, hash });
  return hash;
}

/** Renders a URL-mode question's page; only https (or http on localhost) is sent. */
function renderUrl(question: CompiledQuestion, context: unknown): string | undefined {
  if (question.url === undefined) return undefined;
  const text = typeof question.url === 'string' ? renderTemplate(question.url, context) : question.url({ context });
  let url: URL;
  try {
    url = new URL(String(text));
  } catch {
    throw new Error(`the url of question '${question.key}' rendered ${JSON.stringify(text)}, which is not a URL`);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new Error(`the url of question '${question.key}' is ${url.protocol}//…; send https URLs only (http only for localhost)`);
  }
  return url.href;
}

/** Renders one question from context; throws an Error saying what is wrong with the message. */
function render(question: CompiledQuestion, context: unknown): string {
  const message = typeof question.message === 'string' ? renderTemplate(question.message, context) : question.message({ context });
  if (typeof message !== 'string' || message.length === 0)
    throw new Error(`the message of question '${question.key}' rendered ${JSON.stringify(message)}, not text`);
  return message;
}

/**
 * The questions the active states ask now. `cache` keeps the questions already rendered in this request:
 * one asked again from the same context is not rendered again, and one rendered the same is hashed once.
 */
export function activeQuestions(
  machine: CompiledMachine,
  snapshot: AnyMachineSnapshot,
  cache: Map<CompiledQuestion, ActiveQuestion>,
): ActiveQuestion[] {
  const out: ActiveQuestion[] = [];
  for (const stateId of Object.keys(snapshot.getMeta())) {
    for (const question of machine.asksByState.get(stateId) ?? []) {
      const known = cache.get(question);
      if (known !== undefined && known.context === snapshot.context) {
        out.push(known);
        continue;
      }
      const message = render(question, snapshot.context);
      const url = renderUrl(question, snapshot.context);
      const sampling = question.sampling === undefined ? undefined : renderSampling(question.key, question.sampling, snapshot.context);
      // what the client is asked, beside the message: the page, or the whole sampling request
      const asked = url ?? (sampling === undefined ? undefined : canonicalJson(sampling));
      const { requestedSchema, schemaText } = renderForm(question, snapshot.context);
      let active = known;
      if (!active || active.message !== message || active.asked !== asked || active.requestedSchema !== requestedSchema) {
        const hash = questionDigest(question, message, schemaText, asked);
        active = { question, message, url, sampling, requestedSchema, asked, hash, context: snapshot.context };
      } else active = { ...active, context: snapshot.context };
      cache.set(question, active);
      out.push(active);
    }
  }
  return out;
}
