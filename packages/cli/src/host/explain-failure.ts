// What went wrong between the terminal host and the server, said for the developer at the terminal:
// what happened, what to do, the server's own log when it has something to say (a server started
// here; one at a URL has its log elsewhere), and the exit code. A server's words (its error message,
// its log) are shown escaped.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { EXIT } from '../exit-codes.ts';
import { displayLine, displayText } from './display-text.ts';
import { explainHttpFailure } from './explain-http-failure.ts';
import type { Failure } from './explained-failure.ts';
import type { Era, ServerTarget } from './host-args.ts';
import type { HttpFailure } from './http-link.ts';

/** The connection closed: a server started here stopped (its log says why); one at a URL closed it. */
function stopped(target: ServerTarget, connecting: boolean): Failure {
  if (target.kind === 'url') {
    return {
      message: `the server at ${target.label} closed the connection ${connecting ? 'before it answered' : 'during the request'}.`,
      code: EXIT.server,
      showLog: false,
    };
  }
  return {
    message: `the server '${target.label}' ${connecting ? 'stopped before it answered' : 'stopped during the request'}. Its log is below; fix what it says and run again.`,
    code: EXIT.server,
    showLog: true,
  };
}

export interface FailureContext {
  readonly era: Era;
  readonly target: ServerTarget;
  /** Whether the error ended the opening of the connection. */
  readonly connecting: boolean;
  /** How the last HTTP request to a server at a URL failed, when it did. */
  readonly httpFailure?: HttpFailure | undefined;
}

const isAbort = (error: unknown) => error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message));

/** Explains an error thrown while connecting (`connecting`) or while running a request. */
export function explainFailure(error: unknown, context: FailureContext): Failure {
  const { target, connecting, httpFailure } = context;
  // a JSON-RPC refusal says more than the HTTP status it came with
  if (target.kind === 'url' && httpFailure && !(error instanceof ProtocolError) && !isAbort(error)) {
    return explainHttpFailure(httpFailure, target, connecting);
  }
  const failure = explainError(error, context);
  // there is no log here of a server at a URL
  return target.kind === 'url' ? { ...failure, showLog: false } : failure;
}

/** The explanation of `error` from the SDK (or from spawning the server). */
function explainError(error: unknown, { era, target, connecting }: FailureContext): Failure {
  const server = target.kind === 'url' ? `at ${target.label}` : `'${target.label}'`;
  const message = displayText(error instanceof Error ? error.message : String(error));
  if (target.kind === 'spawn' && (error as { code?: unknown }).code === 'ENOENT') {
    return {
      message: `cannot start the server ${server}: no such program. Check the command after --, or that node is on PATH.`,
      code: EXIT.server,
      showLog: false,
    };
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.EraNegotiationFailed:
        if (/connection closed/i.test(message)) return stopped(target, true);
        return {
          message: `the server ${server} does not offer protocol ${era}${era === '2026-07-28' ? ' (it may be a 2025-era server): try --era 2025-11-25' : ''}. (${message})`,
          code: EXIT.server,
          showLog: true,
        };
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return stopped(target, connecting);
      case SdkErrorCode.InputRequiredRoundsExceeded:
        return {
          message: `the conversation took more rounds than this host allows (50): the server kept asking. (${message})`,
          code: EXIT.failed,
          showLog: true,
        };
      case SdkErrorCode.RequestTimeout:
        return { message: `the server ${server} did not answer in time. (${message})`, code: EXIT.failed, showLog: true };
      default:
        break;
    }
  }
  // a server's refusal is never our own abort, whatever its message says
  if (error instanceof ProtocolError) {
    return { message: `the server refused the request: ${message} (JSON-RPC error ${error.code}).`, code: EXIT.failed, showLog: true };
  }
  if (isAbort(error)) return { message: 'interrupted.', code: EXIT.interrupted, showLog: false };
  return {
    message: connecting ? `cannot connect to the server ${server}: ${message}` : message,
    code: connecting ? EXIT.server : EXIT.failed,
    showLog: true,
  };
}

/** The server's log, indented and dimmed by `dim`, or a note that it wrote none. */
export function formatServerLog(log: string, dim: (text: string) => string): string {
  const lines = log
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '');
  if (lines.length === 0) return `${dim('  (the server wrote nothing to stderr)')}\n`;
  const shown = lines.slice(-40);
  return `${dim(`  server log${shown.length < lines.length ? ` (last ${shown.length} lines)` : ''}:`)}\n${shown.map((line) => dim(`  │ ${displayLine(line)}`)).join('\n')}\n`;
}
