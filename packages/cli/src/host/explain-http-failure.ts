// Why a server at a URL did not answer, from what the HTTP exchange showed: no server at the address,
// a refusal of the credentials (with where the server says to get them), a path with nothing there, a
// server error, a reply that is not MCP. Said for the person at the terminal, with the exit code. The
// values of the headers they gave are never repeated; what the server sent is shown escaped.
import { EXIT } from '../exit-codes.ts';
import { displayLine } from './display-text.ts';
import type { Failure } from './explained-failure.ts';
import type { UrlTarget } from './host-args.ts';
import type { HttpFailure } from './http-link.ts';

/** The value of `key` in a WWW-Authenticate challenge (`key="value"` or `key=token`). */
function challengeParam(challenge: string | undefined, key: string): string | undefined {
  if (challenge === undefined) return undefined;
  const match = new RegExp(`(?:^|[\\s,])${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, 'i').exec(challenge);
  const value = match?.[1] ?? match?.[2];
  return value === undefined ? undefined : value.replaceAll(/\\(.)/g, '$1');
}

/** The reason a refusal's body gives: an OAuth error's description, a JSON-RPC error's message, or one short line of text. */
function bodyReason(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown; message?: unknown };
    if (typeof parsed.error_description === 'string') return parsed.error_description;
    const inner = parsed.error as { message?: unknown } | undefined;
    if (typeof inner?.message === 'string') return inner.message;
    if (typeof parsed.message === 'string') return parsed.message;
    return typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    const line = body.trim();
    return line !== '' && line.length <= 200 && !line.includes('\n') && !line.startsWith('<') ? line : undefined;
  }
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_|ERR_SSL_)/;

function unreachableFailure(failure: Extract<HttpFailure, { kind: 'unreachable' }>, target: UrlTarget, connecting: boolean): Failure {
  const { code, reason } = failure;
  const server = target.label;
  const fail = (message: string): Failure => ({ message, code: EXIT.server, showLog: false });
  if (code === 'ECONNREFUSED') {
    return fail(
      connecting
        ? `no server answers at ${server} (connection refused). Start it (e.g. roundtrip serve --http), or check the host and port in --url.`
        : `the server at ${server} stopped answering during the request (connection refused).`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return fail(`cannot find the host '${target.url.hostname}' of --url (${code}): check its spelling, or the network.`);
  }
  if (code !== undefined && TLS_CODES.test(code)) {
    return fail(
      `the TLS certificate of ${server} is not trusted here (${code}: ${displayLine(reason)}). A certificate of your own CA: give Node its file with NODE_EXTRA_CA_CERTS.`,
    );
  }
  return fail(`cannot reach ${server}: ${displayLine(reason)}${code !== undefined && !reason.includes(code) ? ` (${code})` : ''}.`);
}

/** The explanation of an HTTP failure; `connecting` when it ended the connection's opening. */
export function explainHttpFailure(failure: HttpFailure, target: UrlTarget, connecting: boolean): Failure {
  const server = target.label;
  if (failure.kind === 'unreachable') return unreachableFailure(failure, target, connecting);
  if (failure.kind === 'content') {
    return {
      message: `${server} answered with ${displayLine(failure.contentType)}, not MCP (JSON or an event stream): check that --url is the server's MCP endpoint.`,
      code: EXIT.server,
      showLog: false,
    };
  }
  const { status, challenge, body } = failure;
  const error = challengeParam(challenge, 'error');
  const reason = challengeParam(challenge, 'error_description') ?? bodyReason(body);
  // each said once: a body of "Not Found" adds nothing to 404 Not Found
  const parts = [failure.statusText, error, reason].filter(
    (part, i, all): part is string =>
      part !== undefined && part !== '' && all.findIndex((other) => other?.toLowerCase() === part.toLowerCase()) === i,
  );
  const [text, ...more] = parts[0] === failure.statusText ? parts : ['', ...parts];
  const http = `HTTP ${status}${text ? ` ${displayLine(text)}` : ''}${more.map((part) => `: ${displayLine(part)}`).join('')}`;
  const metadata = challengeParam(challenge, 'resource_metadata');
  const where = metadata ? ` It says how to get a token in its metadata: ${displayLine(metadata)}` : '';
  const sentAuthorization = target.headers.some(({ name }) => name.toLowerCase() === 'authorization');
  if (status === 401) {
    return {
      message: sentAuthorization
        ? `the server at ${server} refused the Authorization header given (${http}): check the token, or get a new one.${where}`
        : `the server at ${server} wants authentication (${http}): pass --header 'Authorization: Bearer <token>'.${where}`,
      code: EXIT.failed,
      showLog: false,
    };
  }
  if (status === 403) {
    const scope = challengeParam(challenge, 'scope');
    const why =
      error === 'insufficient_scope'
        ? `the token lacks the scope this needs${scope ? ` (${displayLine(scope)})` : ''}: get one that has it`
        : 'it does not allow this token, or this address or origin';
    return { message: `the server at ${server} refused the request (${http}): ${why}.${where}`, code: EXIT.failed, showLog: false };
  }
  if (status === 404 || status === 405 || status === 410) {
    return {
      message: `there is no MCP endpoint at ${server} (${http}): check the path in --url (servers often serve /mcp).`,
      code: EXIT.server,
      showLog: false,
    };
  }
  if (status >= 300 && status < 400) {
    const to = failure.location ? ` to ${displayLine(failure.location)}` : '';
    return {
      message: `the server at ${server} redirects${to} (${http}), which is not followed to another origin: give that address as --url.`,
      code: EXIT.server,
      showLog: false,
    };
  }
  if (status >= 500) {
    return { message: `the server at ${server} failed (${http}): its own log says why.`, code: EXIT.server, showLog: false };
  }
  return { message: `the server at ${server} refused the request (${http}).`, code: EXIT.failed, showLog: false };
}
