// `roundtrip serve <module> [options]`: every tool, prompt and resource a module exports, served to an MCP
// host over stdio until the host closes the connection. stdout carries protocol messages and nothing else.
import { RoundtripDefinitionError } from '@roundtrip/engine';
import { RoundtripConfigError, runStdioServer } from '@roundtrip/transport-stdio';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { SERVE_FLAGS_HELP } from './serve-flags.ts';
import { checkSettingValues, environmentWith, parseServeOptions } from './serve-options.ts';
import { loadServerModule } from './server-module.ts';
import { usageError } from './usage-error.ts';

export const SERVE_USAGE = `Usage: roundtrip serve <module> [options]

Serves every tool, prompt and resource the module exports to an MCP host over stdio (2026-07-28 hosts get
requestState rounds, 2025 hosts real elicitation requests). stdout carries protocol messages only: the log,
and anything the module prints with console.log, goes to stderr. Each flag wins over its variable.
${SERVE_FLAGS_HELP}
The module may export serverInfo = { name, version, instructions } to name the server. Serving stops
when stdin closes, or on SIGTERM or SIGINT (exit code 0); 1 when the module or a setting (key file,
ledger, an environment variable) cannot be used.

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
  const options = parseServeOptions(args, io.cwd);
  if (typeof options === 'string') return usage(io, options);
  const badValue = checkSettingValues(options.settings);
  if (badValue) return usage(io, badValue);
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
      onClose: () => closed(),
    });
  } catch (error) {
    if (error instanceof RoundtripConfigError) {
      const byFlag = options.settings.find((s) => s.variable === error.setting);
      const message = byFlag ? error.message.replaceAll(byFlag.variable, byFlag.flag) : error.message;
      io.err.write(`roundtrip serve: cannot start ${served.name}: ${message}\n`);
      return EXIT.failed;
    }
    if (error instanceof RoundtripDefinitionError) {
      io.err.write(`roundtrip serve: cannot serve ${served.path}: ${error.message}\n`);
      return EXIT.failed;
    }
    io.err.write(`roundtrip serve: cannot start ${served.name}: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failed;
  }
  await connectionEnded;
  return EXIT.ok;
}
