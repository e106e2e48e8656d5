// The `roundtrip` command: one subcommand per word.
import { CALL_USAGE, callCommand } from './call-command.ts';
import { CHAT_USAGE, chatCommand } from './chat-command.ts';
import type { CommandIo } from './command-io.ts';
import { CONFIG_USAGE, configCommand } from './config-command.ts';
import { INSPECT_USAGE, inspectCommand } from './inspect/inspect-command.ts';
import { KEYS_USAGE, keysCommand } from './keys-command.ts';
import { SERVE_USAGE, serveCommand } from './serve-command.ts';
import { VISUALIZE_USAGE, visualizeCommand } from './visualize-command.ts';

const USAGE = `Usage: roundtrip <command> …

Commands:
  serve <module> [options]                     serve the module's tools, prompts and resources to an MCP host over stdio
  config <host> <module> [options]             print the entry that makes a host (claude, vscode, goose, …) run serve
  keys <new|list|add|promote|retire> <file>    manage a key file and rotate its keys
  call <module> <name> [--args <json>]        run one tool, prompt or resource, answering its questions at the terminal
  chat <module>                                a terminal MCP host: pick tools, prompts and resources and run them
  visualize <module> [--out <dir>] [--check]   write each machine as Stately JSON and code, Mermaid and SVG
  inspect <module> [--port <n>] [--host <a>]   a page with the machines and, live, every round a server reports

${SERVE_USAGE}

${CONFIG_USAGE}

${KEYS_USAGE}

${CALL_USAGE}

${CHAT_USAGE}

${VISUALIZE_USAGE}

${INSPECT_USAGE}`;

function helpOf(usage: string, io: CommandIo): number {
  io.out.write(`${usage}\n`);
  return 0;
}

/** Runs the command line `args` (without `node` and the script); resolves to the exit code. */
export async function main(args: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'serve') return serveCommand(rest, io);
  if (command === 'config') return configCommand(rest, io);
  if (command === 'keys') return keysCommand(rest, io);
  if (command === 'call') return callCommand(rest, io);
  if (command === 'chat') return chatCommand(rest, io);
  const help = rest.includes('--help') || rest.includes('-h');
  if (command === 'visualize') return help ? helpOf(VISUALIZE_USAGE, io) : visualizeCommand(rest, io);
  if (command === 'inspect') return help ? helpOf(INSPECT_USAGE, io) : inspectCommand(rest, io);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out.write(`${USAGE}\n`);
    return 0;
  }
  io.err.write(`roundtrip: unknown command '${command}'.\n\n${USAGE}\n`);
  return 2;
}
