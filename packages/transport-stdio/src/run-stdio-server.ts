import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEngine, type ToolDefinition } from '@roundtrip/engine';
import { RoundtripConfigError } from './config-error.ts';
import { createProtocolServer } from './create-protocol-server.ts';
import { resolveServerSettings } from './resolve-server-settings.ts';
import { createStderrLog } from './stderr-log.ts';

export interface StdioServerOptions {
  /** Server name, shown to hosts and used as the audience states are sealed for. */
  name: string;
  version: string;
  tools: readonly ToolDefinition[];
  /** Instructions for the model, sent to hosts that show them. */
  instructions?: string;
  /** Environment to read settings from. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
  /**
   * Called once when the connection ends (stdin closed, SIGTERM, SIGINT or `close()`), to release
   * resources. A second later the process exits if something still holds it open: a stdio server
   * whose host has gone has nothing left to serve.
   */
  onClose?: () => void | Promise<void>;
}

export interface RunningStdioServer {
  /** Ends the connection and calls `onClose`; the process exits soon after (see `onClose`). */
  close(): Promise<void>;
}

/**
 * Serves engine tools to a desktop MCP host over stdin/stdout: 2026-07-28 clients get MRTR results,
 * 2025-06-18 and 2025-11-25 hosts get real `elicitation/create` requests through the SDK's legacy shim,
 * from the same tool definitions. Logs go to stderr; stdout carries protocol messages only. Reads its
 * key, principal and state lifetime from the environment (see resolveServerSettings).
 *
 * @example
 * await runStdioServer({ name: 'orders', version: '1.0.0', tools: [refundOrder], onClose: () => store.close() });
 */
export async function runStdioServer(options: StdioServerOptions): Promise<RunningStdioServer> {
  const log = createStderrLog(options.name);
  const settings = resolveServerSettings(options.name, options.env ?? process.env);
  for (const warning of settings.warnings) log({ level: 'warn', event: 'settings', message: warning });
  const engine = createEngine({
    tools: options.tools,
    keyring: settings.keyring,
    audience: options.name,
    stateTtlSeconds: settings.stateTtlSeconds,
    log,
  });
  const onError = (error: Error) => log({ level: 'warn', event: 'protocol', message: error.message });
  const handle = serveStdio(
    ({ era }) =>
      createProtocolServer({
        engine,
        name: options.name,
        version: options.version,
        ...(options.instructions ? { instructions: options.instructions } : {}),
        principal: settings.principal,
        era,
        onError,
      }),
    { onerror: onError },
  );
  log({
    level: 'info',
    event: 'started',
    message: `${options.name} ${options.version} serving ${engine.tools.length} tool${engine.tools.length === 1 ? '' : 's'} over stdio (${settings.keySource}; principal ${settings.principal}; state lifetime ${settings.stateTtlSeconds}s)`,
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      process.stdin.off('end', close);
      process.off('SIGTERM', close);
      process.off('SIGINT', close);
      try {
        await handle.close();
      } finally {
        await options.onClose?.();
        // anything still holding the event loop (a legacy round waiting on the host) must not keep a closed server alive
        setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
      }
    })());
  process.stdin.once('end', close);
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  return { close };
}

/**
 * Runs {@link runStdioServer} as a program's main: a setting it cannot start with is reported on
 * stderr with the fix, and the process exits with status 1.
 */
export async function mainStdioServer(options: StdioServerOptions): Promise<RunningStdioServer | undefined> {
  try {
    return await runStdioServer(options);
  } catch (error) {
    const message = error instanceof RoundtripConfigError ? error.message : (error as Error).stack ?? String(error);
    process.stderr.write(`[${options.name}] cannot start: ${message}\n`);
    process.exitCode = 1;
    return undefined;
  }
}
