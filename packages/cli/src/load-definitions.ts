// The definitions a module exports, loaded for a command: the module resolved from the working folder,
// and a message naming the command and the fix when it cannot be loaded or exports none.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CommandIo } from './command-io.ts';
import { type Definition, findDefinitions } from './find-definitions.ts';
import { missingModuleProblem } from './missing-module.ts';

/** The module's definitions, or undefined after writing why there are none to `io.err`. */
export async function loadDefinitions(command: string, modulePath: string, io: CommandIo): Promise<Definition[] | undefined> {
  const path = resolve(io.cwd, modulePath);
  const missing = missingModuleProblem(path, io.cwd);
  if (missing) {
    io.err.write(`roundtrip ${command}: cannot load ${path}: ${missing}\n`);
    return undefined;
  }
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    io.err.write(`roundtrip ${command}: cannot load ${path}: ${(error as Error).message}\n`);
    return undefined;
  }
  const definitions = findDefinitions(exports);
  if (definitions.length === 0) {
    io.err.write(`roundtrip ${command}: ${path} exports no tools, prompts or resources. Export them (or { tools, prompts, resources }).\n`);
    return undefined;
  }
  return definitions;
}
