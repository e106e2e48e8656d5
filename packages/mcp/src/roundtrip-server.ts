// The SDK's low-level Server with what a 2025-era request needs while it waits on a person. On those
// revisions the SDK's legacy shim sends each question as a real `elicitation/create` and holds the
// host's request open meanwhile; the host gives up on that request after its own timeout (60 s in the
// official clients), often without telling the server, while its question may stay on screen. So,
// for every question the shim sends:
//
// - it is fitted to the host's revision (no `mode` for a form-only host);
// - it is withdrawn after the answer timeout (the shim's per-question timeout, which must stay under
//   the host's), and the request ends with an error that says what happened and what to do;
// - while it waits, a request that carried a progressToken is sent progress now and then, so a host
//   that restarts its timeout on progress keeps the request open;
// - an answer that comes after it was withdrawn is ignored (it can never continue the machine) and
//   logged, naming the question, without the answer's values.
//
// No SDK option reaches the shim's requests, so the class uses the subclass hooks the SDK documents
// (`_wrapHandler`, `_onresponse`) and overrides `request`; the id of each question sent is read from
// the transport it owns once connected (no SDK seam gives it: see `connect`).
//
// On every era, a requestState that is not a string, which the SDK refuses before any handler runs,
// is answered as every refused state is, with the start-over hint (non-text-state.ts). A task handle
// answered by tools/call (SEP-2663, 2026-07-28) leaves without the `content: []` the SDK adds to it.
import {
  isInputRequiredResult,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
  type RequestMethod,
  type RequestOptions,
  type Result,
  type ResultTypeMap,
  type Request as RpcRequest,
  SdkError,
  SdkErrorCode,
  Server,
  type ServerContext,
  type ServerOptions,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/server';
import { isFormOnlyRevision } from './legacy-elicitation.ts';
import { nonTextStateRefusal } from './non-text-state.ts';

/** How often a request whose question waits is sent progress: well under the hosts' common 60 s. */
const KEEP_ALIVE_MS = 10_000;
/** Withdrawn questions remembered for their late answers; the oldest are forgotten first. */
const MAX_WITHDRAWN = 256;
/** The methods whose requests may ask questions, and what each asks for, as the log names it. */
const ASKING_METHODS: Readonly<Record<string, string>> = { 'tools/call': 'tool', 'prompts/get': 'prompt', 'resources/read': 'resource' };

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** One request of the host that may ask, from its first round to its answer. */
interface OpenRequest {
  /** What the request is, as the log names it: `the tool 'refund_order'`. */
  what: string;
  ctx: ServerContext;
  /** The key of each question its latest round asked, by the question's message. */
  keys: Map<string, string>;
  /** Questions now waiting for their answers, and the progress timer while there are any. */
  waiting: number;
  keepAlive?: ReturnType<typeof setInterval>;
}

export interface WaitingQuestionOptions {
  /**
   * The connection is 2025-era: the legacy shim sends questions to the host as requests, which this
   * class follows. False on a 2026-07-28 connection, where nothing is sent from server to client: the
   * handlers are then the SDK's as they are (but for the refusal of a requestState that is not a
   * string), and messages go to the transport unwatched.
   */
  asksHost: boolean;
  /** The next progress value of a request: the progress its rounds report and its keep-alive count up together. */
  nextProgress: (signal: AbortSignal) => number;
  /** Receives what the operator should know: a question withdrawn, a late answer ignored, a failed notification, a requestState that is not a string. */
  onError: (error: Error) => void;
}

/** A duration as a person reads it in its largest whole unit: `1 day`, `2 hours`, `10 minutes`, `50 seconds`, `250 ms`. */
function duration(ms: number): string {
  const units = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ] as const;
  for (const [unit, size] of units) {
    if (ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  }
  return `${ms} ms`;
}

/**
 * A result as it goes out: a task handle without the `content: []` the SDK adds to every tools/call result
 * that has no content (it looks for a nested `task`, not SEP-2663's flat handle); any other result as it is.
 */
function withoutAddedContent(result: Result): Result {
  if (result.resultType !== 'task') return result;
  const { content: _added, ...handle } = result;
  return handle;
}

/**
 * A JSON-RPC request as this instance writes it (the SDK builds every message it sends): a method and
 * an id. The SDK's isJSONRPCRequest would run its zod schema over every outgoing result to say no.
 */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && typeof message.method === 'string';
}

/** The answer timeout an SDK timeout error carries; undefined for any other error (a cancellation included). */
function timeoutOf(error: unknown): number | undefined {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.RequestTimeout) return undefined;
  const timeout = (error.data as { timeout?: unknown } | undefined)?.timeout;
  return typeof timeout === 'number' ? timeout : undefined;
}

/**
 * The server every Roundtrip connection is served by: the SDK's Server, with the handling of the
 * questions a 2025-era request waits on that the head of this file describes. On a 2026-07-28
 * connection nothing is sent from server to client, and it behaves as Server does.
 */
export class RoundtripServer extends Server {
  readonly #options: WaitingQuestionOptions;
  readonly #open = new Map<RequestId, OpenRequest>();
  /** Each withdrawn question by the id of its `elicitation/create`: what it was, and why it was withdrawn. */
  readonly #withdrawn = new Map<number, { question: string; why: string }>();
  /** The id of the last request written to the transport. */
  #lastSent: RequestId | undefined;

  constructor(info: { name: string; version: string }, serverOptions: ServerOptions, options: WaitingQuestionOptions) {
    super(info, serverOptions);
    this.#options = options;
  }

  /**
   * Connects as Server does, noting the id of every request this instance writes to the transport it now
   * owns. Not an SDK seam, and kept because the SDK (2.4.0) offers none that gives the id: it is assigned
   * inside the private request funnel (`_requestMessageId`); the protected outbound hook
   * (`_outboundMetaEnvelope`) is called without the message; neither `RequestOptions` nor the timeout's
   * SdkError carries it; and `onprogress` would reveal it only by putting a progressToken on the
   * question the host is sent. The transport's `send` is the one place that sees the id as written.
   */
  override async connect(transport: Transport): Promise<void> {
    if (this.#options.asksHost) {
      const send = transport.send.bind(transport);
      transport.send = (message: JSONRPCMessage, options) => {
        // requests are what this instance sends (questions, pings); everything else it writes is a response or a notification
        if (isRequest(message)) this.#lastSent = message.id;
        return send(message, options);
      };
    }
    await super.connect(transport);
  }

  /**
   * Gives a requestState that is not a string what every refused state gets (non-text-state.ts); on a
   * 2025-era connection, keeps each asking request known from its first round to its answer; drops the
   * `content: []` the SDK's tools/call wrapper adds to a task handle (SEP-2663's CreateTaskResult has none).
   */
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const kind = ASKING_METHODS[method];
    // also called by the constructor (initialize, ping), before this class's fields exist
    if (kind === undefined) return super._wrapHandler(method, handler);
    const wrapped = this.#options.asksHost ? this.#followQuestions(method, kind, handler) : super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return withoutAddedContent(await wrapped(request, ctx));
      } catch (error) {
        const what = `the ${kind} '${String(request.params?.name ?? request.params?.uri)}'`;
        throw nonTextStateRefusal(error, ctx, what, this.#options.onError) ?? error;
      }
    };
  }

  /** Keeps each asking request of a 2025-era connection known from its first round to its answer, and the keys of the questions its rounds ask. */
  #followQuestions(method: string, kind: string, handler: Handler): Handler {
    const asking: Handler = async (request, ctx) => {
      const result = await handler(request, ctx);
      const open = this.#open.get(ctx.mcpReq.id);
      if (open && isInputRequiredResult(result)) {
        // only questions go to the person; sampling and roots requests (sent as they are) have no message to name
        open.keys = new Map(
          Object.entries(result.inputRequests ?? {}).flatMap(([key, input]) =>
            input.method === 'elicitation/create' ? [[String((input.params as { message?: unknown })?.message), key] as const] : [],
          ),
        );
      }
      return result;
    };
    const wrapped = super._wrapHandler(method, asking);
    return async (request, ctx) => {
      const name = request.params?.name ?? request.params?.uri;
      const open: OpenRequest = { what: `the ${kind} '${String(name)}'`, ctx, keys: new Map(), waiting: 0 };
      this.#open.set(ctx.mcpReq.id, open);
      try {
        return await wrapped(request, ctx);
      } finally {
        clearInterval(open.keepAlive);
        this.#open.delete(ctx.mcpReq.id);
      }
    };
  }

  override request<M extends RequestMethod>(
    request: { method: M; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(
    request: RpcRequest,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: RpcRequest, ...rest: unknown[]): Promise<unknown> {
    const send = super.request.bind(this) as (request: RpcRequest, ...rest: unknown[]) => Promise<unknown>;
    // the shim sends its questions as (request, options); anything else passes as it is
    if (request.method !== 'elicitation/create' || rest.length > 1) return send(request, ...rest);
    return this.#ask(request, rest[0] as RequestOptions | undefined, send);
  }

  /** Sends one question and waits for its answer, keeping its request alive meanwhile; see the file's head. */
  async #ask(
    request: RpcRequest,
    options: RequestOptions | undefined,
    send: (request: RpcRequest, ...rest: unknown[]) => Promise<unknown>,
  ) {
    let params = request.params;
    // the deprecated accessor is the documented way to read a 2025-era connection's initialize-negotiated revision
    if (isFormOnlyRevision(this.getNegotiatedProtocolVersion()) && params && 'mode' in params) {
      const { mode: _dropped, ...rest } = params;
      params = rest;
    }
    const open = options?.relatedRequestId === undefined ? undefined : this.#open.get(options.relatedRequestId);
    const message = String(params?.message);
    const key = open?.keys.get(message);
    const question = `${key === undefined ? `"${message}"` : `'${key}'`} of ${open?.what ?? 'a request'}`;

    this.#lastSent = undefined;
    // the answer timeout is a hard bound: progress the host might send about the question must not stretch it
    // past the host's own timeout on the call, which does not stretch with it
    const answer = send({ ...request, params }, { ...options, resetTimeoutOnProgress: false });
    const id = this.#lastSent;
    const stopKeepingAlive = this.#keepAlive(open);
    try {
      return await answer;
    } catch (error) {
      const timeout = timeoutOf(error);
      const withdrawn = timeout !== undefined || options?.signal?.aborted === true;
      if (withdrawn && id !== undefined) {
        const why = timeout !== undefined ? `no answer within ${timeout} ms, ROUNDTRIP_ANSWER_TIMEOUT_MS` : 'its request ended first';
        this.#remember(Number(id), question, why);
      }
      if (timeout === undefined) throw error;
      this.#options.onError(
        new Error(
          `no answer to the question ${question} within ${timeout} ms (ROUNDTRIP_ANSWER_TIMEOUT_MS); it was withdrawn and the host's request ended`,
        ),
      );
      throw new Error(`The question was not answered within ${duration(timeout)}, so this request ended. Try again to start over.`);
    } finally {
      stopKeepingAlive();
    }
  }

  /** Sends the request progress every KEEP_ALIVE_MS while any of its questions waits, if it carried a progressToken. */
  #keepAlive(open: OpenRequest | undefined): () => void {
    const progressToken = open?.ctx.mcpReq._meta?.progressToken;
    if (!open || progressToken === undefined) return () => {};
    const { signal, notify } = open.ctx.mcpReq;
    if (open.waiting++ === 0) {
      open.keepAlive = setInterval(() => {
        if (signal.aborted) return;
        const progress = this.#options.nextProgress(signal);
        notify({ method: 'notifications/progress', params: { progressToken, progress, message: 'Waiting for your answer' } }).catch(
          this.#options.onError,
        );
      }, KEEP_ALIVE_MS);
    }
    return () => {
      if (--open.waiting === 0) clearInterval(open.keepAlive);
    };
  }

  #remember(id: number, question: string, why: string): void {
    this.#withdrawn.set(id, { question, why });
    if (this.#withdrawn.size > MAX_WITHDRAWN) this.#withdrawn.delete(this.#withdrawn.keys().next().value as number);
  }

  /** An answer to a withdrawn question is logged and goes no further; every other response is the SDK's. */
  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    const id = Number(response.id);
    const withdrawn = this.#withdrawn.get(id);
    if (!withdrawn) {
      super._onresponse(response);
      return;
    }
    this.#withdrawn.delete(id);
    // only the action, and only as one of the three: the answer's values are not logged, nor anything else the host made up
    const action = 'result' in response ? (response.result as { action?: unknown }).action : undefined;
    const reply = 'error' in response ? 'error reply' : `answer${ACTIONS.has(action) ? ` (${String(action)})` : ''}`;
    this.#options.onError(
      new Error(
        `the host's ${reply} to the question ${withdrawn.question} came after it was withdrawn (${withdrawn.why}), ` +
          'when its request had ended; it was ignored, nothing was done with it',
      ),
    );
  }
}
