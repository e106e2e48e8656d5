// A command line that is wrong: what is wrong, and where the usage is, in two lines on stderr (not the
// whole usage, which would bury the one line that matters); exit code 2.
import type { CommandIo } from './command-io.ts';
import { EXIT } from './exit-codes.ts';

/** Writes `roundtrip <command>: <problem>` and the pointer to the command's help; returns EXIT.usage. */
export function usageError(io: CommandIo, command: string, problem: string): number {
  io.err.write(`roundtrip ${command}: ${problem}\nRun \`roundtrip ${command} --help\` for its usage.\n`);
  return EXIT.usage;
}
