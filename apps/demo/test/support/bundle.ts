// Bundles a TypeScript entry of the demo (and the workspace packages it imports) into one JavaScript
// file that plain `node` runs: a child process then starts in about half the time it takes through
// tsx. Installed packages stay out of the bundle and are imported from where they are installed.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ResolveArgs {
  path: string;
  kind: string;
  resolveDir: string;
  pluginData?: { fromPlugin?: boolean };
}
interface PluginBuild {
  onResolve(
    options: { filter: RegExp },
    callback: (args: ResolveArgs) => Promise<{ path: string; external: boolean } | { errors: unknown[] } | undefined>,
  ): void;
  resolve(
    path: string,
    options: { kind: string; resolveDir: string; pluginData: { fromPlugin: boolean } },
  ): Promise<{ path: string; external: boolean; errors: unknown[] }>;
}
interface Esbuild {
  build(options: Record<string, unknown> & { plugins?: Array<{ name: string; setup(build: PluginBuild): void }> }): Promise<unknown>;
}

const require = createRequire(import.meta.url);
// esbuild comes with tsx, which runs this repository's TypeScript
const esbuild = createRequire(require.resolve('tsx'))('esbuild') as Esbuild;

/** Installed packages stay out of the bundle, imported by the file URL esbuild resolves them to; workspace packages (TypeScript) go in. */
const installedPackages = {
  name: 'installed-packages',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.fromPlugin || args.path.startsWith('@roundtrip/')) return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { fromPlugin: true } });
      if (found.errors.length > 0) return { errors: found.errors };
      return found.external ? { path: args.path, external: true } : { path: pathToFileURL(found.path).href, external: true };
    });
  },
};

/**
 * Bundles `entry` (a URL of a TypeScript file) into `outfile` (an `.mjs` path) and returns `outfile`.
 *
 * @example
 * const server = await bundleForNode(new URL('../../src/server.ts', import.meta.url), join(dir, 'server.mjs'));
 * spawn(process.execPath, [server]);
 */
export async function bundleForNode(entry: URL, outfile: string): Promise<string> {
  await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    plugins: [installedPackages],
  });
  return outfile;
}
