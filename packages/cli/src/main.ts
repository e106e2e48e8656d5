// The `roundtrip` command: one subcommand per word.
import type { CommandIo } from './command-io.ts';
import { INSPECT_USAGE, inspectCommand } from './inspect/inspect-command.ts';
import { VISUALIZE_USAGE, visualizeCommand } from './visualize-command.ts';

const USAGE = `Usage: roundtrip <command> …

Commands:
  visualize <module> [--out <dir>] [--check]   write each machine as Stately JSON and code, Mermaid and SVG
  inspect <module> [--port <n>] [--host <a>]   a page with the machines and, live, every round a server reports

${VISUALIZE_USAGE}

${INSPECT_USAGE}`;

/** Runs the command line `args` (without `node` and the script); resolves to the exit code. */
export async function main(args: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'visualize') return visualizeCommand(rest, io);
  if (command === 'inspect') return inspectCommand(rest, io);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out.write(`${USAGE}\n`);
    return 0;
  }
  io.err.write(`roundtrip: unknown command '${command}'.\n\n${USAGE}\n`);
  return 2;
}
