// `roundtrip serve <module> [options]`: every tool, prompt and resource a module exports, served to an MCP
// host over stdio until the host closes the connection (stdout carries protocol messages and nothing
// else), or with --http over Streamable HTTP (serve-http.ts, loaded only then).
import { runStdioServer } from '@roundtrip/transport-stdio';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { reportServeFailure } from './serve-failure.ts';
import { SERVE_FLAGS_HELP } from './serve-flags.ts';
import { SERVE_HTTP_FLAGS, SERVE_HTTP_FLAGS_HELP, takeHttpFlags } from './serve-http-flags.ts';
import { CLI_VARIABLES, checkSettingValues, environmentWith, parseServeOptions } from './serve-options.ts';
import { loadServerModule } from './server-module.ts';
import { usageError } from './usage-error.ts';

export const SERVE_USAGE = `Usage: roundtrip serve <module> [options]
       roundtrip serve <module> --http [host:]port [options]

Serves every tool, prompt and resource the module exports to an MCP host over stdio (2026-07-28 hosts get
requestState rounds, 2025 hosts real elicitation requests). stdout carries protocol messages only: the log,
and anything the module prints with console.log, goes to stderr. Each flag wins over its variable.
${SERVE_FLAGS_HELP}

With --http, over stateless Streamable HTTP at http://<host>:<port>/mcp instead: any instance sharing the
key and the ledger answers any round; 2025-era clients get model fallbacks, or an error saying to use a
2026-07-28 client. Only 127.0.0.1 by default; any other address needs authentication (or --insecure-no-auth).
Without authentication every request is served as --principal; with it, as each bearer token's sub.
${SERVE_HTTP_FLAGS_HELP}
  ROUNDTRIP_DRAIN_TIMEOUT_MS   how long a shutdown waits for requests in flight (default 20000)
  ROUNDTRIP_INSTANCE           this instance's name in the Roundtrip-Instance header (default host:pid)

The module may export serverInfo = { name, version, instructions } to name the server. Serving stops
when stdin closes (stdio), or on SIGTERM or SIGINT (exit code 0; over HTTP, once the requests in flight
have finished, or 1 when some had to be cut); 1 when the module or a setting (key file, ledger, an
environment variable) cannot be used.

${EXIT_CODES_HELP}`;

const usage = (io: CommandIo, problem: string) => usageError(io, 'serve', problem);

/**
 * Serves the module named in `args` on the process's stdin and stdout; resolves to the exit code once
 * the connection has ended (or at once when the server cannot start). `env` is the environment the
 * settings are read from, with the flags applied over it.
 */
export async function serveCommand(args: readonly string[], io: CommandIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out.write(`${SERVE_USAGE}\n`);
    return EXIT.ok;
  }
  const taken = takeHttpFlags(args);
  if (typeof taken === 'string') return usage(io, taken);
  const options = parseServeOptions(taken.rest, io.cwd, SERVE_HTTP_FLAGS);
  if (typeof options === 'string') return usage(io, options);
  const badValue = checkSettingValues(options.settings);
  if (badValue) return usage(io, badValue);
  if (taken.http) return (await import('./serve-http.ts')).serveHttp(options, taken.http, io, env);
  const served = await loadServerModule('serve', options.module, io, options);
  if (!served) return EXIT.failed;
  let closed: () => void = () => {};
  const connectionEnded = new Promise<void>((resolve) => (closed = resolve));
  try {
    await runStdioServer({
      name: served.name,
      version: served.version,
      tools: served.tools,
      prompts: served.prompts,
      resources: served.resources,
      ...(served.instructions !== undefined && { instructions: served.instructions }),
      env: environmentWith(env, options.settings),
      ownVariables: CLI_VARIABLES,
      onClose: () => closed(),
    });
  } catch (error) {
    return reportServeFailure(io, served, options, error);
  }
  await connectionEnded;
  return EXIT.ok;
}
