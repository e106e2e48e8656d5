// What to say of a module path that names no file: most often a project's build output not built yet
// (`roundtrip serve dist/tools.js` before `npx tsc`), whose TypeScript source the command could load as it is.
import { existsSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, sep } from 'node:path';

/** Folders a build writes JavaScript into. */
const BUILD_FOLDERS = new Set(['dist', 'build', 'out']);
/** The TypeScript extensions a JavaScript file may be compiled from. */
const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** The TypeScript source `path` would be built from: beside it, or in `src` where the path has a build folder. */
function sourceOf(path: string): string | undefined {
  const extension = extname(path);
  const stems = [path.slice(0, -extension.length)];
  const parts = stems[0]!.split(sep);
  const build = parts.findLastIndex((part) => BUILD_FOLDERS.has(part));
  if (build >= 0) stems.unshift([...parts.slice(0, build), 'src', ...parts.slice(build + 1)].join(sep));
  return stems.flatMap((stem) => (SOURCE_EXTENSIONS[extension] ?? []).map((ts) => stem + ts)).find((candidate) => existsSync(candidate));
}

/** A path as the person would type it from `cwd`: relative when under it. */
const shown = (path: string, cwd: string) => {
  const fromCwd = relative(cwd, path);
  return fromCwd.startsWith('..') || isAbsolute(fromCwd) ? path : fromCwd;
};

/**
 * Why the module at `path` (absolute) cannot be loaded, when there is no file there; undefined when there
 * is one (then the module itself failed to load). Build output not built yet says to build, and a
 * TypeScript source found for it is named, since the command loads TypeScript as it is.
 */
export function missingModuleProblem(path: string, cwd: string): string | undefined {
  if (existsSync(path)) return undefined;
  const source = sourceOf(path);
  const isBuildOutput = dirname(path)
    .split(sep)
    .some((part) => BUILD_FOLDERS.has(part));
  const useSource = source && `give its TypeScript source instead, ${shown(source, cwd)} (roundtrip loads TypeScript as it is)`;
  if (isBuildOutput) {
    return `there is no such file: it is build output, so build the project first (e.g. \`npx tsc\`)${useSource ? `, or ${useSource}` : ''}.`;
  }
  return useSource ? `there is no such file; ${useSource}.` : 'there is no such file.';
}
