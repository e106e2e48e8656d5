// `roundtrip visualize <module> [--out dir] [--check]`: the machine files of every definition a module exports.
import { resolve } from 'node:path';
import { didYouMean } from '@roundtrip/mcp/internal';
import { writeMachineFiles } from '@roundtrip/visualize';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { loadDefinitions } from './load-definitions.ts';
import { usageError } from './usage-error.ts';

export const VISUALIZE_USAGE = `Usage: roundtrip visualize <module> [--out <dir>] [--check] [--all-edges]

Writes, for every tool, prompt and resource the module exports: <name>.machine.json (import it into
Stately), <name>.machine.ts (Stately's code import), <name>.mmd (Mermaid) and <name>.svg (drawn offline).
  --out <dir>   where to write them (default: ./machines)
  --check       write nothing; exit 1 when a file is missing, differs or is left over
  --all-edges   draw every edge of a declared flow in the .mmd and .svg, the engine's own too (passing
                answered steps through while reviewing, dropping kept answers that fail now); by
                default the diagrams show what the user goes through

${EXIT_CODES_HELP}`;

export async function visualizeCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const positional: string[] = [];
  let out = 'machines';
  let check = false;
  let allEdges = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--check') check = true;
    else if (arg === '--all-edges') allEdges = true;
    else if (arg === '--out') {
      const value = args[++i];
      if (!value) return usage(io, '--out needs a folder.');
      out = value;
    } else if (arg.startsWith('-')) return usage(io, `unknown option ${arg}.${didYouMean(arg, ['--out', '--check', '--all-edges'])}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) return usage(io, 'give exactly one module.');
  const definitions = await loadDefinitions('visualize', positional[0]!, io);
  if (!definitions) return EXIT.failed;
  const report = await writeMachineFiles(definitions, { out: resolve(io.cwd, out), check, allEdges });
  if (!check) for (const note of report.notes) io.err.write(`note: ${note}\n`);
  for (const refused of report.refused) io.err.write(`error: ${refused}\n`);
  if (check) {
    for (const file of report.files) io.err.write(`stale: ${file}\n`);
    for (const file of report.leftover) io.err.write(`left over: ${file} (no definition writes it any more: remove it)\n`);
    const bad = report.files.length + report.leftover.length + report.refused.length;
    if (bad > 0) {
      io.err.write('roundtrip visualize: the machine files are not up to date; run the same command without --check.\n');
      return EXIT.failed;
    }
    io.out.write(`${definitions.length} machines: files up to date in ${out}\n`);
    return EXIT.ok;
  }
  for (const file of report.leftover) io.err.write(`left over: ${file} (no definition writes it any more: remove it)\n`);
  io.out.write(`${definitions.length} machines: wrote ${report.files.length} files to ${out}\n`);
  return report.refused.length > 0 ? EXIT.failed : EXIT.ok;
}

const usage = (io: CommandIo, problem: string) => usageError(io, 'visualize', problem);
