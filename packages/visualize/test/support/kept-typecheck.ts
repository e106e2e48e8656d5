// Typechecks TypeScript files as one program and keeps the answer for the next run: loading TypeScript and
// checking machine-code.test.ts's generated files against xstate's types is about 1.5 s of CPU, spent on every
// run for the same answer. The answer is kept beside the files, under a key made of everything it depends on:
// the text of each checked file, the compiler options, TypeScript's version and the text of every declaration
// file of the xstate the files import. A run with the same key reads the answer; any change checks anew, and
// TypeScript is loaded only then.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CompilerOptions } from 'typescript';

/** A diagnostic: the file it is in (none for a global one) and its message, chained messages on lines of their own. */
export interface Problem {
  file: string | undefined;
  message: string;
}

interface Kept {
  key: string;
  problems: Problem[];
}

/** Every declaration file in the folder of the package `name` as `from` resolves it. */
function declarationsOf(name: string, from: string): string[] {
  const folder = dirname(createRequire(from).resolve(`${name}/package.json`));
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.d.ts'))
    .sort()
    .map((file) => join(folder, file));
}

function keyOf(files: readonly string[], tsconfig: string, options: CompilerOptions): string {
  const hash = createHash('sha256');
  const typescript = createRequire(import.meta.url)('typescript/package.json') as { version: string };
  hash.update(JSON.stringify({ typescript: typescript.version, options, tsconfig: readFileSync(tsconfig, 'utf8') }));
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(file));
  for (const file of declarationsOf('xstate', files[0]!)) hash.update(`\0${file}\0`).update(readFileSync(file));
  return hash.digest('hex');
}

/**
 * The problems TypeScript finds in `files` (absolute paths, importing xstate) checked as one program with the
 * options of `tsconfig` and `options` over them; the answer of an earlier run when nothing it depends on changed.
 * The answer is kept in `keptIn` (a JSON file).
 */
export async function keptTypecheck(
  files: readonly string[],
  tsconfig: string,
  options: CompilerOptions,
  keptIn: string,
): Promise<Problem[]> {
  const key = keyOf(files, tsconfig, options);
  try {
    const kept = JSON.parse(readFileSync(keptIn, 'utf8')) as Kept;
    if (kept.key === key) return kept.problems;
  } catch {
    // none kept yet, or unreadable: checked now
  }
  const { default: ts } = await import('typescript');
  const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfig));
  const program = ts.createProgram([...files], { ...parsed.options, ...options });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file?.fileName,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
  // written whole (another run may be reading it): to a file of this process, then renamed
  writeFileSync(`${keptIn}.${process.pid}`, JSON.stringify({ key, problems } satisfies Kept));
  renameSync(`${keptIn}.${process.pid}`, keptIn);
  return problems;
}
