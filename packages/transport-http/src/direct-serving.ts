// The pipeline's direct way (direct-tool-call.ts says which calls take it and how their answers are written):
// each call run on the engine with the request's principal, capabilities and signal, answered as a plain
// answer the runtime writes as it is; an outcome of another kind handed to the SDK, encoded from what the
// engine reached; a client gone before the answer answered as the SDK answers it (499, nothing sent).
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { CallToolResult, Engine, StepOutcome } from '@roundtrip/engine';
import { crossOriginHeaders } from './cross-origin.ts';
import { type DirectAnswer, type DirectCall, directAnswer } from './direct-tool-call.ts';
import { INSTANCE_HEADER } from './http-responses.ts';
import type { RequestHead } from './request-head.ts';

/** An answer written as it is: status, headers (lower-case names) and JSON body. */
export interface PlainAnswer extends DirectAnswer {
  headers: Record<string, string>;
}

export interface DirectServingOptions {
  engine: Engine;
  serverInfo: { name: string; version: string };
  /** The `Roundtrip-Instance` header of every answer. */
  instance: string | undefined;
  principalOf(authInfo: AuthInfo | undefined): string;
  /** The headers every answer of the pipeline carries, on a web response. */
  stamp(response: Response, head: RequestHead): Response;
}

/** The SDK's answer to the call, its tools/call served by `engine` (one that gives the outcome reached already). */
export type ThroughSdk = (engine: Engine) => Promise<Response>;

export interface DirectServing {
  /** Answers `call` (of the request `head`), its work aborted by `signal`; an outcome of another kind `throughSdk`. */
  answer(
    call: DirectCall,
    head: RequestHead,
    authInfo: AuthInfo | undefined,
    signal: AbortSignal,
    throughSdk: ThroughSdk,
  ): Promise<PlainAnswer | Response>;
  /** Aborts the work of every call in flight, as the SDK's handler aborts its exchanges when closed. */
  abortAll(): void;
}

/** An engine whose tools/call gives `outcome` (or its throw) without running: the SDK encodes an outcome reached already. */
function replayingEngine(engine: Engine, outcome: Promise<StepOutcome<CallToolResult>>): Engine {
  return { ...engine, callTool: () => outcome };
}

export function createDirectServing(options: DirectServingOptions): DirectServing {
  const inFlight = new Set<AbortController>();
  // as a web Response's headers list them (lower-case, sorted), so that both ways write the same head
  const headersFor = (cors: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries({
        ...cors,
        'content-type': 'application/json',
        ...(options.instance !== undefined && { [INSTANCE_HEADER.toLowerCase()]: options.instance }),
      }).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  // a request from anything but a browser page (no Origin) is answered with the same headers every time
  const withoutOrigin = Object.freeze(headersFor({}));
  const headersOf = (head: RequestHead) => (head.headers.get('origin') === null ? withoutOrigin : headersFor(crossOriginHeaders(head)));
  const gone = (head: RequestHead) => options.stamp(new Response(null, { status: 499 }), head);

  return {
    answer: async (call, head, authInfo, signal, throughSdk) => {
      const work = new AbortController();
      const abort = () => work.abort();
      signal.addEventListener('abort', abort, { once: true });
      if (signal.aborted) work.abort();
      inFlight.add(work);
      try {
        if (work.signal.aborted) return gone(head);
        const outcome = options.engine.callTool({
          name: call.name,
          arguments: call.arguments,
          inputResponses: call.inputResponses,
          requestState: call.requestState,
          principal: options.principalOf(authInfo),
          capabilities: call.capabilities,
          signal: work.signal,
        });
        const reached = await outcome.catch(() => undefined);
        if (work.signal.aborted) return gone(head);
        const plain = reached && directAnswer(call, reached, options.serverInfo);
        if (plain !== undefined) return { ...plain, headers: headersOf(head) };
        // another kind of outcome (or a throw): the SDK encodes it from what this call reached
        return await throughSdk(replayingEngine(options.engine, outcome));
      } finally {
        signal.removeEventListener('abort', abort);
        inFlight.delete(work);
      }
    },
    abortAll: () => {
      for (const work of inFlight) work.abort();
    },
  };
}
