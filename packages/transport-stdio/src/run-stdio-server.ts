import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import { createServerFactory } from '@roundtrip/mcp';
import { createStderrLog, reportStartFailure, runNodeServer, type ServerSettingsFromCode } from '@roundtrip/mcp/node';
import { StdinLineTransport } from './stdin-line-transport.ts';

export interface StdioServerOptions extends ServerSettingsFromCode {
  /** Server name, shown to hosts and used as the audience states are sealed for. */
  name: string;
  version: string;
  tools?: readonly ToolDefinition[];
  prompts?: readonly PromptDefinition[];
  resources?: readonly ResourceDefinition[];
  /** Instructions for the model, sent to hosts that show them. */
  instructions?: string;
  /** Environment to read settings from. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
  /**
   * Called once when the connection ends (stdin closed, SIGTERM, SIGINT or `close()`), to release
   * resources; the effect ledger this server opened is closed after it. A second later the process
   * exits if something still holds it open: a stdio server whose host has gone has nothing left to serve.
   */
  onClose?: () => void | Promise<void>;
  /**
   * Streams to serve on instead of the process's stdin, stdout and stderr (a test's, or a program that
   * embeds the server). The process is then left alone: no SIGTERM or SIGINT handlers, no exit after the
   * connection ends, stdout not taken for the protocol, and V8's settings as they are (see runStdioServer).
   * The server ends when `stdin` ends, or on `close()`.
   */
  stdio?: { stdin: Readable; stdout: Writable; stderr: Writable };
}

export interface RunningStdioServer {
  /** Ends the connection and calls `onClose`; the process exits soon after (see `onClose`). */
  close(): Promise<void>;
}

/**
 * Serves engine tools, prompts and resources to a desktop MCP host over stdin/stdout: 2026-07-28
 * clients get MRTR results, 2025-06-18 and 2025-11-25 hosts get real `elicitation/create` requests
 * through the SDK's legacy shim, from the same definitions. Logs go to stderr; stdout carries protocol
 * messages only (once serving, anything else the process writes there, console.log included, goes to
 * stderr). Reads its key, principal, limits and effect ledger from the environment, which overrides
 * what the code sets (see resolveServerSettings). Effects declared `once` are recorded in a SQLite
 * ledger unless the code supplies a ledger of its own. A server on the process's own stdin and stdout
 * owns the process: it also tunes V8 for serving rounds, pretenuring off and hot code optimized sooner (see
 * tuneV8ForServing in `@roundtrip/mcp/node`; a flag given on the command line keeps its setting).
 *
 * @example
 * await runStdioServer({ name: 'orders', version: '1.0.0', tools: [refundOrder], limits: { maxRounds: 20 }, onClose: () => store.close() });
 */
export async function runStdioServer(options: StdioServerOptions): Promise<RunningStdioServer> {
  const given = options.stdio;
  return runNodeServer(options, {
    ownsProcess: !given,
    log: createStderrLog(options.name, given && ((line) => given.stderr.write(line))),
    start: async ({ served, settings, log, release }) => {
      const onError = (error: Error) => log({ level: 'warn', event: 'protocol', message: error.message });
      const factory = createServerFactory({
        engine: served.engine,
        name: options.name,
        version: options.version,
        ...(options.instructions ? { instructions: options.instructions } : {}),
        principal: settings.principal,
        legacyMaxRounds: settings.limits.maxRounds,
        legacyAnswerTimeoutMs: settings.legacyAnswerTimeoutMs,
        onError,
      });
      // our own line reader: a line over the limit is answered and skipped, where the SDK's would end the session;
      // it takes process.stdout for the protocol alone
      const transport = new StdinLineTransport({
        maxLineBytes: settings.maxRequestBytes,
        log,
        ...(given && { stdin: given.stdin, stdout: given.stdout }),
      });
      const handle = serveStdio(factory, { onerror: onError, transport });
      // in place before the startup line: a supervisor that signals as soon as it reads it gets a clean stop
      return { running: { close: endOnClose(handle, given?.stdin ?? process.stdin, !given, release) }, over: 'stdio' };
    },
  });
}

/**
 * The server's close (once, whoever asks first): on stdin's end, on SIGTERM or SIGINT when it owns the process
 * (the first ends it; the handlers are gone by a second), or on `close()`. The connection ends, then what was
 * opened is released; a server owning its process then exits within a second.
 */
function endOnClose(handle: { close(): Promise<void> }, stdin: Readable, ownsProcess: boolean, release: () => Promise<void>) {
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stdin.off('end', close);
      process.off('SIGTERM', close);
      process.off('SIGINT', close);
      try {
        await handle.close();
      } finally {
        try {
          await release();
        } finally {
          // anything still holding the event loop (a legacy round waiting on the host) must not keep a closed server alive
          if (ownsProcess) setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
        }
      }
    })());
  stdin.once('end', close);
  if (ownsProcess) {
    process.once('SIGTERM', close);
    process.once('SIGINT', close);
  }
  return close;
}

/**
 * Runs {@link runStdioServer} as a program's main: a setting it cannot start with is reported on
 * stderr with the fix, and the process exits with status 1.
 */
export async function mainStdioServer(options: StdioServerOptions): Promise<RunningStdioServer | undefined> {
  try {
    return await runStdioServer(options);
  } catch (error) {
    return reportStartFailure(options.name, error);
  }
}
