// The `roundtrip` command: one subcommand per word. Each subcommand's module is loaded only when it
// runs, so `roundtrip serve` (what a host starts) never loads the client, the diagram layout or the
// inspector page, and `roundtrip call` never loads the server.

import { didYouMean } from '@roundtrip/mcp/internal';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';

type Command = (args: readonly string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve-command.ts')).serveCommand,
  config: async () => (await import('./config-command.ts')).configCommand,
  keys: async () => (await import('./keys-command.ts')).keysCommand,
  call: async () => (await import('./call-command.ts')).callCommand,
  chat: async () => (await import('./chat-command.ts')).chatCommand,
  visualize: async () => {
    const { VISUALIZE_USAGE, visualizeCommand } = await import('./visualize-command.ts');
    return async (args, io) => (wantsHelp(args) ? help(VISUALIZE_USAGE, io) : visualizeCommand(args, io));
  },
  inspect: async () => {
    const { INSPECT_USAGE, inspectCommand } = await import('./inspect/inspect-command.ts');
    return async (args, io) => (wantsHelp(args) ? help(`${INSPECT_USAGE}\n\n${EXIT_CODES_HELP}`, io) : inspectCommand(args, io));
  },
};

const USAGE = `Usage: roundtrip <command> …

Commands:
  serve <module> [options]                     serve the module's tools, prompts and resources over stdio (or --http)
  config <host> <module> [options]             print the entry that makes a host (claude, vscode, goose, …) run serve
  config <host> --url <url>                    … or reach a server already running over HTTP
  keys <new|list|add|promote|retire> <file>    manage a key file and rotate its keys
  call <module> <name> [--args <json>]         run one tool, prompt or resource, answering its questions at the terminal
  chat <module>                                a terminal MCP host: pick tools, prompts and resources and run them
                                               (call and chat: --url <url> instead of <module> reaches a server over HTTP)
  visualize <module> [--out <dir>] [--check]   write each machine as Stately JSON and code, Mermaid and SVG
  inspect <module> [--port <n>] [--host <a>]   a page with the machines and, live, every round a server reports

Run \`roundtrip <command> --help\` for a command's options.

${EXIT_CODES_HELP}`;

const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

function help(usage: string, io: CommandIo): number {
  io.out.write(`${usage}\n`);
  return EXIT.ok;
}

/** Runs the command line `args` (without `node` and the script); resolves to the exit code. */
export async function main(args: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return help(USAGE, io);
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    const names = Object.keys(COMMANDS);
    io.err.write(
      `roundtrip: unknown command '${command}'.${didYouMean(command, names)}\nThe commands: ${names.join(', ')}; run \`roundtrip --help\` for more.\n`,
    );
    return EXIT.usage;
  }
  return (await load())(rest, io);
}
