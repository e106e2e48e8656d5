// The hot request of a stateless HTTP server, a 2026-07-28 `tools/call`, answered straight from the engine: the
// SDK's entry builds a server, a transport, web requests and responses and runs its schemas for every request,
// which cost a conversation several times what its rounds do. Only a request the SDK would serve as it is takes
// this way: a well-formed call whose every part is of the plain shapes below (anything else, a malformed request,
// a progress token, an unknown field, goes to the SDK, which answers it as it always has). Its answer is written
// as the SDK writes it (@modelcontextprotocol/server 2.4.0: Protocol._onrequest, Server._wrapHandler, the
// 2026-07-28 codec's encodeResult, PerRequestHTTPServerTransport.send): the same bytes, compared with the SDK's
// own answers in test/direct-tool-call.test.ts. An outcome whose encoding is not one of the plain ones below is
// handed back (`undefined`), for the SDK to encode from the outcome already reached (the engine never runs twice).
import type { CallToolResult, ClientCapabilities, StepOutcome } from '@roundtrip/engine';
import type { RequestHead } from './request-head.ts';

/** The revision this way serves, exactly as the header, the envelope and the SDK's entry name it. */
const REVISION = '2026-07-28';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
/** The JSON-RPC code the SDK answers with an HTTP status of its own (400) even from a handler. */
const MISSING_CAPABILITY = -32021;

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta', 'requestState', 'inputResponses']);
const META_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY]);
const RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'structuredContent', 'isError']);
/**
 * What a tool's name may be (as the engine checks it): a name the `Mcp-Name` header carries as it is, never
 * one the SDK would read as a base64 sentinel (`=?base64?…?=`) and decode before comparing it with the body's.
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** A tools/call this way serves: what the engine is handed, and the id its answer carries. */
export interface DirectCall {
  id: string | number;
  name: string;
  arguments: Record<string, unknown> | undefined;
  requestState: string | undefined;
  inputResponses: Record<string, unknown> | undefined;
  capabilities: ClientCapabilities;
}

/** An answer written as it is: its status and JSON body (`application/json`). */
export interface DirectAnswer {
  status: number;
  body: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const onlyKeys = (value: Record<string, unknown>, allowed: ReadonlySet<string>) => Object.keys(value).every((key) => allowed.has(key));

const isEmptyObject = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;

/**
 * Client capabilities of the plain shapes every schema of the SDK takes as they are: form and URL elicitation,
 * roots (with or without `listChanged`), sampling, each declared with nothing more.
 */
function plainCapabilities(value: unknown): value is ClientCapabilities {
  if (!isPlainObject(value)) return false;
  for (const [key, declared] of Object.entries(value)) {
    if (key === 'elicitation') {
      if (
        !isPlainObject(declared) ||
        !Object.entries(declared).every(([mode, options]) => (mode === 'form' || mode === 'url') && isEmptyObject(options))
      )
        return false;
    } else if (key === 'roots') {
      if (
        !isPlainObject(declared) ||
        !Object.entries(declared).every(([name, flag]) => name === 'listChanged' && typeof flag === 'boolean')
      )
        return false;
    } else if (key !== 'sampling' || !isEmptyObject(declared)) return false;
  }
  return true;
}

/** Answers that the SDK hands a handler as they came: an object of objects, none of them a request or a result. */
function plainInputResponses(value: unknown): value is Record<string, unknown> {
  return (
    isPlainObject(value) && Object.values(value).every((entry) => isPlainObject(entry) && !('method' in entry) && !('result' in entry))
  );
}

/**
 * The call in `body` when this way may serve it: a 2026-07-28 `tools/call` (header, envelope and body agree), a
 * request id, a tool name, arguments, a requestState that is a string, answers, and the envelope's three fields
 * of plain shapes, nothing else (no progress token, no task, no other `_meta`); `undefined` for anything else.
 */
export function directToolCall(head: RequestHead, body: unknown): DirectCall | undefined {
  if (head.headers.get('mcp-protocol-version') !== REVISION || head.headers.get('mcp-method') !== 'tools/call') return undefined;
  if (head.headers.get('mcp-session-id') !== null) return undefined;
  if (!isPlainObject(body) || !onlyKeys(body, REQUEST_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS)) return undefined;
  const { name, arguments: args, requestState, inputResponses, _meta: meta } = params;
  if (typeof name !== 'string' || !TOOL_NAME.test(name) || head.headers.get('mcp-name') !== name) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (requestState !== undefined && typeof requestState !== 'string') return undefined;
  if (inputResponses !== undefined && !plainInputResponses(inputResponses)) return undefined;
  if (!isPlainObject(meta) || !onlyKeys(meta, META_KEYS) || meta[PROTOCOL_VERSION_KEY] !== REVISION) return undefined;
  const info = meta[CLIENT_INFO_KEY];
  if (!isPlainObject(info) || Object.keys(info).length !== 2 || typeof info.name !== 'string' || typeof info.version !== 'string')
    return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_KEY];
  if (!plainCapabilities(capabilities)) return undefined;
  return { id: id as string | number, name, arguments: args, requestState, inputResponses, capabilities };
}

/** A complete result of the plain shape the SDK's result schema passes on unchanged: text blocks, structured content, isError. */
function plainResult(result: CallToolResult): boolean {
  const fields = result as Record<string, unknown>;
  if (!onlyKeys(fields, RESULT_KEYS) || !Array.isArray(fields.content)) return false;
  if (fields.isError !== undefined && typeof fields.isError !== 'boolean') return false;
  return fields.content.every(
    (block) => isPlainObject(block) && block.type === 'text' && typeof block.text === 'string' && Object.keys(block).length === 2,
  );
}

/** Every question a form, the kind a client that declares form elicitation can be asked. */
function formQuestionsOnly(inputRequests: Record<string, unknown>, capabilities: ClientCapabilities): boolean {
  if (!isPlainObject((capabilities as { elicitation?: { form?: unknown } }).elicitation?.form)) return false;
  return Object.values(inputRequests).every(
    (request) =>
      isPlainObject(request) && request.method === 'elicitation/create' && isPlainObject(request.params) && request.params.mode === 'form',
  );
}

/**
 * The answer to `call` of the engine's `outcome`, byte for byte as the SDK writes it for a server named
 * `serverInfo`; `undefined` when the outcome is not of the plain kinds (a task, a result or question of
 * another shape, an error the SDK answers with an HTTP status of its own), for the SDK to encode.
 */
export function directAnswer(
  call: DirectCall,
  outcome: StepOutcome<CallToolResult>,
  serverInfo: { name: string; version: string },
): DirectAnswer | undefined {
  const meta = { [SERVER_INFO_KEY]: serverInfo };
  switch (outcome.type) {
    case 'complete': {
      if (!plainResult(outcome.result)) return undefined;
      // in the order the SDK's result schema gives its fields, then the result type it fills in, then the stamp
      const { content, structuredContent, isError } = outcome.result;
      const result = {
        content,
        ...(structuredContent !== undefined && { structuredContent }),
        ...(isError !== undefined && { isError }),
        resultType: 'complete',
        _meta: meta,
      };
      return { status: 200, body: JSON.stringify({ result, jsonrpc: '2.0', id: call.id }) };
    }
    case 'input_required': {
      if (!formQuestionsOnly(outcome.inputRequests as Record<string, unknown>, call.capabilities)) return undefined;
      const result = {
        resultType: 'input_required',
        inputRequests: outcome.inputRequests,
        requestState: outcome.requestState,
        _meta: meta,
      };
      return { status: 200, body: JSON.stringify({ result, jsonrpc: '2.0', id: call.id }) };
    }
    case 'error': {
      const { code, message, data } = outcome.error;
      if (code === MISSING_CAPABILITY) return undefined;
      // the 2026-07-28 codec's encodeErrorCode: -32002 (resource not found) is answered -32602
      const error = { code: code === -32002 ? -32602 : code, message, ...(data !== undefined && { data }) };
      return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: call.id, error }) };
    }
    default:
      return undefined;
  }
}
