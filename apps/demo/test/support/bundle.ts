// Bundles a TypeScript entry of the demo (the workspace packages and installed packages it imports,
// better-sqlite3 aside) into one JavaScript file that plain `node` runs: a child process then starts in
// a fraction of the time it takes through tsx (see the transport's bundle-script.ts, which builds it).
// The benches bundle their entries one by one (bundleForNode); the tests run the suite's bundle (bundledScript).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode as bundle } from '../../../../packages/mcp/test/fixtures/bundle-script.ts';
import { suiteBundle, suiteScriptOf } from '../../../../packages/mcp/test/fixtures/suite-bundle.ts';
import { copyWorkerBundle } from '../../../../packages/mcp/test/fixtures/worker-bundles.ts';

/**
 * Bundles `entry` (a URL of a TypeScript file) into `outfile` (an `.mjs` path) and returns `outfile`.
 *
 * @example
 * const server = await bundleForNode(new URL('../../src/server.ts', import.meta.url), join(dir, 'server.mjs'));
 * spawn(process.execPath, [server]);
 */
export async function bundleForNode(entry: URL, outfile: string): Promise<string> {
  // built once per suite run (worker-bundles.ts), copied to outfile
  await copyWorkerBundle(`entry ${entry.href}`, outfile, async (dir) => ({
    inputs: await bundle({ entryPoints: [fileURLToPath(entry)], outfile: join(dir, 'bundle.mjs') }),
    output: join(dir, 'bundle.mjs'),
  }));
  return outfile;
}

/**
 * The bundled file of `entry` (a URL of src/server.ts, src/http-server.ts or a fixture the suite bundles) in
 * the folder `dir`: the tests' processes run the suite's one bundle (packages/mcp/test/fixtures/suite-bundle.ts,
 * built once per suite run with every script the suite starts), copied into `dir` on first use.
 *
 * @example
 * const server = await bundledScript(new URL('../src/server.ts', import.meta.url), bundleDir);
 */
export function bundledScript(entry: URL, dir: string): Promise<string> {
  return suiteBundle(suiteScriptOf(fileURLToPath(entry)), dir);
}
