// A module served by `roundtrip serve` (and described by `roundtrip config`): its definitions by kind, and
// the server's name and version: `--name`/`--version`, else its `serverInfo` export, else the name of the
// package it belongs to, else the file's name.
import { Console } from 'node:console';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import type { CommandIo } from './command-io.ts';
import { loadDefinitions } from './load-definitions.ts';

/** What a module may export as `serverInfo` to name the server it makes. */
interface ServerInfoExport {
  name?: string;
  version?: string;
  /** Instructions for the model, sent to hosts that show them. */
  instructions?: string;
}

export interface ServerModule {
  /** The module's absolute path. */
  path: string;
  name: string;
  version: string;
  instructions?: string;
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
}

/** The file's name without its extension: `orders` for `src/orders.ts`. */
const nameFromPath = (path: string) => basename(path, extname(path));

/** The `name` of the package.json at `file`, or undefined when there is none (no file, not JSON, no name). */
function packageNameAt(file: string): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The name of the package the module at `path` belongs to: the nearest package.json above it that has a
 * name (one without, such as `{ "type": "module" }` in a build folder, is passed over), made fit for a
 * file name, since it names the key file and the ledger: `@acme/trips` → `acme-trips`.
 */
function packageNameOf(path: string): string | undefined {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const name = packageNameAt(join(folder, 'package.json'));
    if (name !== undefined) return name.replace(/^@/, '').replace(/[^A-Za-z0-9_.-]+/g, '-');
    if (dirname(folder) === folder) return undefined;
  }
}

/** The `serverInfo` export, or why it is not usable. */
function serverInfoOf(exports: Record<string, unknown>): ServerInfoExport | string {
  const info = exports.serverInfo;
  if (info === undefined) return {};
  if (typeof info !== 'object' || info === null) return 'its serverInfo export is not an object; export { name, version, instructions }.';
  const found: ServerInfoExport = {};
  for (const key of ['name', 'version', 'instructions'] as const) {
    const value = (info as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') return `serverInfo.${key} is not a non-empty string.`;
    found[key] = value;
  }
  return found;
}

const CONSOLE_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'trace',
  'group',
  'groupCollapsed',
  'count',
  'time',
  'timeLog',
  'timeEnd',
] as const;

/** Sends what the module prints with `console` to stderr: stdout is the protocol's (serve) or the entry's (config). */
function consoleToStderr(): void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const method of CONSOLE_METHODS) (console as unknown as Record<string, unknown>)[method] = toStderr[method].bind(toStderr);
}

/**
 * Loads the module at `modulePath` (from `io.cwd`) for the command `command`; undefined after writing to
 * `io.err` why it cannot be served. When the command writes to the process's stdout, what the module
 * prints with `console.log` (and the like) goes to stderr from now on.
 */
export async function loadServerModule(
  command: string,
  modulePath: string,
  io: CommandIo,
  given: { name?: string | undefined; version?: string | undefined } = {},
): Promise<ServerModule | undefined> {
  const path = resolve(io.cwd, modulePath);
  // from here on the process's stdout carries only what the command means to write there
  if (io.out === process.stdout) consoleToStderr();
  const definitions = await loadDefinitions(command, path, io);
  if (!definitions) return undefined;
  // loaded already: the same module instance
  const info = serverInfoOf((await import(pathToFileURL(path).href)) as Record<string, unknown>);
  if (typeof info === 'string') {
    io.err.write(`roundtrip ${command}: ${path}: ${info}\n`);
    return undefined;
  }
  return {
    path,
    // not the file's name first: every project whose entry is dist/tools.js would be "tools", sharing one key file and ledger
    name: given.name ?? info.name ?? packageNameOf(path) ?? nameFromPath(path),
    version: given.version ?? info.version ?? '0.0.0',
    ...(info.instructions !== undefined && { instructions: info.instructions }),
    tools: definitions.filter((d): d is ToolDefinition => d.kind === 'tool'),
    prompts: definitions.filter((d): d is PromptDefinition => d.kind === 'prompt'),
    resources: definitions.filter((d): d is ResourceDefinition => d.kind === 'resource'),
  };
}
