// `roundtrip inspect <module> [--port N] [--host H]`: the inspector page for a module's machines, fed by
// every server started with ROUNDTRIP_INSPECT=<its address> (its rounds and its tasks), until SIGINT or SIGTERM.
import type { CommandIo } from '../command-io.ts';
import { loadDefinitions } from '../load-definitions.ts';
import { type RunningInspector, startInspector } from './inspector-server.ts';

export const INSPECT_USAGE = `Usage: roundtrip inspect <module> [--port <n>] [--host <address>]

Serves a page showing the machines of every tool, prompt and resource the module exports and, live, each
round a server reports and each of its MCP tasks (status, progress, questions): start the server with
ROUNDTRIP_INSPECT=<the address printed>. Stops on Ctrl-C.
  --port <n>         the port to listen on (default: 4343; 0 picks a free one)
  --host <address>   the address to listen on (default: 127.0.0.1, this machine only)`;

/** Resolves on the first SIGINT or SIGTERM. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function usage(io: CommandIo, problem: string): number {
  io.err.write(`roundtrip inspect: ${problem}\n\n${INSPECT_USAGE}\n`);
  return 2;
}

/** Runs the inspector until `stop` resolves (by default: SIGINT or SIGTERM); resolves to the exit code. */
export async function inspectCommand(args: readonly string[], io: CommandIo, stop: () => Promise<void> = signalled): Promise<number> {
  const positional: string[] = [];
  let port = 4343;
  let host = '127.0.0.1';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--port') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 0 || value > 65_535) return usage(io, '--port needs a port number (0 to 65535).');
      port = value;
    } else if (arg === '--host') {
      const value = args[++i];
      if (!value) return usage(io, '--host needs an address.');
      host = value;
    } else if (arg.startsWith('-')) return usage(io, `unknown option ${arg}.`);
    else positional.push(arg);
  }
  if (positional.length !== 1) return usage(io, 'give exactly one module.');
  const definitions = await loadDefinitions('inspect', positional[0]!, io);
  if (!definitions) return 1;
  let inspector: RunningInspector;
  try {
    inspector = await startInspector({ definitions, port, host });
  } catch (error) {
    io.err.write(
      `roundtrip inspect: cannot listen on ${host}:${port}: ${(error as Error).message}. Choose another port with --port (0 picks a free one).\n`,
    );
    return 1;
  }
  const stopped = stop();
  io.out.write(`roundtrip inspect: ${inspector.url}\n`);
  io.err.write(`${definitions.length} machines; start a server with ROUNDTRIP_INSPECT=${inspector.url}. Ctrl-C stops.\n`);
  await stopped;
  await inspector.close();
  return 0;
}
